/// `timeline`: with U users and K messages stored, open the store and load the first screen — the newest
/// `screen` messages and their distinct authors — into model values. Warm: the store's files were just written
/// by this process, so they are in the page cache.
public struct TimelineWorkload: Workload {
    public init() {}
    public let name = "timeline"
    public let summary = "open a store of U users and K messages and load the first screen (newest 200 + users), warm"
    public let sizeParameter = "messages"
    public let parameters = [
        WorkloadParameter("messages", default: 100_000, range: 1...10_000_000, summary: "messages stored"),
        WorkloadParameter("users", default: 5_000, range: 1...1_000_000, summary: "users stored"),
        WorkloadParameter("screen", default: 200, range: 1...10_000, summary: "messages on the first screen"),
    ]

    public func makeData(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadData {
        let users = generator.users(count: parameters["users"])
        let messages = generator.messages(count: parameters["messages"], userCount: users.count)
        return Dataset(users: users, messages: messages, screen: parameters["screen"])
    }

    final class Dataset: WorkloadData {
        let users: [User]
        let messages: [Message]
        let screen: Int
        let expected: TimelineScreen
        let fingerprint: String

        init(users: [User], messages: [Message], screen: Int) {
            self.users = users
            self.messages = messages
            self.screen = screen
            let newest = Array(messages.sorted(by: Message.isNewer).prefix(screen))
            var seen = Set<Int64>()
            let authors = newest.compactMap { seen.insert($0.userID).inserted ? users[Int($0.userID) - 1] : nil }
            expected = TimelineScreen(messages: newest, users: authors)
            fingerprint = Checksum.timelineData(users: users, messages: messages)
        }

        func makeRepetition(opener: StoreOpener) -> any WorkloadRepetition { Repetition(data: self, opener: opener) }
    }

    final class Repetition: StoreHoldingRepetition, WorkloadRepetition {
        let data: Dataset
        var loaded: TimelineScreen?

        init(data: Dataset, opener: StoreOpener) {
            self.data = data
            super.init(opener: opener)
        }

        func prepare() throws {
            let store = try opener.open()
            defer { closeQuietly(store) }
            try store.load(users: data.users, messages: data.messages)
            try store.close()
        }

        func measure() throws -> Int {
            let store = try opener.open()
            self.store = store
            loaded = try store.loadTimeline(limit: data.screen)
            return 1
        }

        func verify() throws -> String {
            try TimelineExpectation.match(loaded, expected: data.expected)
            return Checksum.timeline(loaded!)
        }
    }
}

/// Compares a loaded first screen with the expected one: same messages in the same order, same set of users.
enum TimelineExpectation {
    static func match(_ loaded: TimelineScreen?, expected: TimelineScreen) throws {
        guard let loaded else { throw VerificationError("no timeline was loaded") }
        guard loaded.messages == expected.messages else {
            let firstDifference = zip(loaded.messages, expected.messages).enumerated().first { $0.element.0 != $0.element.1 }?.offset
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
