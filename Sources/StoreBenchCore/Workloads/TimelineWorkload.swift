/// `timeline`: with U users and K messages stored, open the store and load the first screen — the newest
/// `screen` messages and their distinct authors — into model values. Warm: the store's files were just written
/// by this process, so they are in the page cache.
public struct TimelineWorkload: Workload {
  public init() {}
  public let name = "timeline"
  public let smokeParameters = ["users": 50, "messages": 500, "screen": 100]
  public let summary = "open a store of U users and K messages and load the first screen (newest 200 + users), warm"
  public let sizeParameter = ParameterName.messages
  public let requires: StoreRoles = .timeline
  public let leavesStoreUnchanged = true
  public let parameters = TimelineData.parameters

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    Case(TimelineData(parameters, generator: generator))
  }

  final class Case: WorkloadCase {
    let data: TimelineData
    init(_ data: TimelineData) { self.data = data }
    var fingerprint: String { data.fingerprint }

    func prepare(_ run: Repetition) throws {
      try run.fill("timeline", content: data.fingerprint) {
        try run.timeline.load(users: data.users, messages: data.messages)
      }
      try run.closeStore()
    }

    func measure(_: Void, _ run: Repetition) throws -> Measured<TimelineScreen> {
      let store = try run.reopen(as: (any TimelineStore).self)
      return Measured(ops: 1, try store.loadTimeline(limit: data.screen))
    }

    func verify(_ loaded: TimelineScreen, _: Void, _ run: Repetition) throws -> String {
      try TimelineExpectation.match(loaded, expected: data.expected)
      return Checksum.timeline(loaded)
    }
  }
}

/// The users and messages of a timeline and its expected first screen (`messages`, `users`, `screen`).
struct TimelineData {
  static let parameters = WorkloadParameter.timeline(messages: 100_000, users: 5_000)

  let users: [User]
  let messages: [Message]
  let screen: Int
  let expected: TimelineScreen
  let fingerprint: String

  init(_ parameters: WorkloadParameters, generator: DatasetGenerator) {
    users = generator.users(count: parameters[.users])
    messages = generator.messages(count: parameters[.messages], userCount: users.count)
    screen = parameters[.screen]
    let newest = Array(messages.sorted(by: Message.isNewer).prefix(screen))
    var seen = Set<Int64>()
    let authors = newest.compactMap { [users] in seen.insert($0.userID).inserted ? users[Int($0.userID) - 1] : nil }
    expected = TimelineScreen(messages: newest, users: authors)
    fingerprint = Checksum.timelineData(users: users, messages: messages)
  }
}

/// Compares a loaded first screen with the expected one: same messages in the same order, same set of users.
enum TimelineExpectation {
  static func match(_ loaded: TimelineScreen, expected: TimelineScreen) throws {
    guard loaded.messages == expected.messages else {
      let firstDifference = zip(loaded.messages, expected.messages).enumerated().first {
        $0.element.0 != $0.element.1
      }?.offset
      throw VerificationError(
        "expected \(expected.messages.count) messages newest first, got \(loaded.messages.count)"
          + (firstDifference.map { "; first difference at position \($0)" } ?? ""))
    }
    guard loaded.users.count == Set(loaded.users).count, Set(loaded.users) == Set(expected.users) else {
      throw VerificationError(
        "expected the \(expected.users.count) distinct authors of the screen, got \(loaded.users.count) users")
    }
  }
}
