import Foundation

/// `timeline-cold` / `timeline-warm`: what a user feels when the app launches. The store is prepared and closed;
/// for `timeline-cold` every file of the store is then evicted from the page cache (`posix_fadvise`, checked
/// with `mincore`: the row's `resident_pages` says how many pages stayed, and a note says so if any did). A
/// fresh `storebench child` process then opens the store and loads the first screen. `wall_s` is spawn → first
/// screen in memory, measured by the parent; `child_ready_s` and `child_read_bytes` are the child's own
/// open → ready time and disk reads.
public struct LaunchTimelineWorkload: Workload {
  public let cold: Bool

  public init(cold: Bool) { self.cold = cold }

  public var name: String { cold ? "timeline-cold" : "timeline-warm" }
  public var childJobs: [any ChildJob.Type] { [LaunchTimelineJob.self] }
  public let smokeParameters = ["users": 50, "messages": 500, "screen": 100]
  public var summary: String {
    cold
      ? "launch a fresh process with the store's pages evicted from the page cache and load the first screen"
      : "launch a fresh process (store pages still cached) and load the first screen"
  }
  public let sizeParameter = ParameterName.messages
  public let requires: StoreRoles = [.timeline, .persistence]
  public let leavesStoreUnchanged = true
  public var startsCold: Bool { cold }
  public var parameters: [WorkloadParameter] { TimelineData.parameters }

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    Case(TimelineData(parameters, generator: generator), cold: cold)
  }

  final class Case: WorkloadCase {
    let data: TimelineData
    let cold: Bool
    var fingerprint: String { data.fingerprint }

    init(_ data: TimelineData, cold: Bool) {
      self.data = data
      self.cold = cold
    }

    func prepare(_ run: Repetition) throws -> LaunchChild {
      try run.fill("timeline", content: data.fingerprint) {
        try run.timeline.load(users: data.users, messages: data.messages)
      }
      try run.closeStore()
      try LaunchPageCache.prepare(run, cold: cold)
      return try LaunchChild(LaunchTimelineJob(store: run.launch.store, screen: data.screen), for: run)
    }

    func measure(_ child: LaunchChild, _ run: Repetition) throws -> Measured<Void> { try child.spawn() }

    func verify(_: Void, _ child: LaunchChild, _ run: Repetition) throws -> String {
      let expected = Checksum.timeline(data.expected)
      return try child.expect(expected, "the launched process loaded a first screen", in: run)
    }
  }
}

/// `process-spawn`: launch an empty `storebench child` and wait for its line — the share of a launch that is
/// process start-up alone, with no store. One row per run (it needs no backend).
public struct ProcessSpawnWorkload: Workload {
  public init() {}
  public let name = "process-spawn"
  public var childJobs: [any ChildJob.Type] { [EmptyJob.self] }
  public let smokeParameters: [String: Int] = [:]
  public let summary = "spawn an empty storebench child and wait for its first line (process start-up alone)"
  public let sizeParameter = ParameterName.count
  public let requires: StoreRoles = []
  public let parameters: [WorkloadParameter] = [.count(1, "one launch per repetition", max: 1)]

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase { Case() }

  final class Case: WorkloadCase {
    var fingerprint: String { "none" }

    func prepare(_ run: Repetition) throws -> LaunchChild { try LaunchChild(EmptyJob(), for: run) }

    func measure(_ child: LaunchChild, _ run: Repetition) throws -> Measured<Void> { try child.spawn() }

    func verify(_: Void, _ child: LaunchChild, _ run: Repetition) throws -> String {
      guard try child.report(run).checksum == "empty" else {
        throw VerificationError("the empty child did not answer")
      }
      return "empty"
    }
  }
}
