import Foundation
import StoreBenchKit

/// `triage`: the notes app's inbox triage, a workload of the team's own, registered beside storebench's with
/// `StoreBench.main(registering:workloads:)` (Sources/notes-bench/main.swift). With M notes stored, one app operation
/// archives (marks read) the T newest unread notes and deletes the T oldest, in one unit of work: what the app does
/// when the user taps "triage". Verified after the store is reopened: exactly the expected notes remain, the archived
/// ones read, every other byte unchanged. Any backend that plays the articles role runs it; storebench's runner does
/// the rest (the clock, the read-back, the report, compare, check, history and advise's operations all see a `triage`
/// row like any other).
public struct TriageWorkload: Workload {
    public init() {}
    public let name = "triage"
    public let summary = "archive the T newest unread notes and delete the T oldest, in one unit of work (inbox triage)"
    public let sizeParameter = ParameterName.stored
    public let smokeParameters = ["stored": 200, "count": 10]
    public let requires: StoreRoles = .articles
    public let parameters: [WorkloadParameter] = [
        .stored(2_000, "notes in the store"),
        .count(50, "notes archived, and as many deleted"),
    ]

    public func validate(_ parameters: WorkloadParameters) throws {
        guard 2 * parameters[.count] <= parameters[.stored] else {
            throw ParameterError("count (\(parameters[.count])) archived and deleted needs stored ≥ 2 × count")
        }
    }

    public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
        let stored = generator.articles(count: parameters[.stored])
        let byAge = stored.sorted { ($0.published, $0.uid) < ($1.published, $1.uid) }
        let count = parameters[.count]
        let deleted = byAge.prefix(count).map(\.uid)
        let archived = byAge.reversed().filter { !$0.read }.prefix(count).map(\.uid)
        let gone = Set(deleted)
        let read = Set(archived)
        let expected = stored.filter { !gone.contains($0.uid) }.map { note in
            var note = note
            if read.contains(note.uid) { note.read = true }
            return note
        }
        return Case(stored: stored, archived: archived, deleted: deleted, expected: ArticleSnapshot(expected))
    }

    final class Case: WorkloadCase {
        let stored: [Article]
        let archived: [String]
        let deleted: [String]
        let expected: ArticleSnapshot

        init(stored: [Article], archived: [String], deleted: [String], expected: ArticleSnapshot) {
            (self.stored, self.archived, self.deleted, self.expected) = (stored, archived, deleted, expected)
        }

        var fingerprint: String { ArticleSnapshot(stored).hex }

        func prepare(_ run: Repetition) throws -> any ArticleStore {
            try run.storeLoaded(with: stored, as: (any ArticleStore).self)
        }

        func measure(_ store: any ArticleStore, _ run: Repetition) throws -> Measured<Void> {
            let (archived, deleted) = (archived, deleted)
            // One app operation, its latency recorded as the built-in workloads record theirs.
            try run.latencies.timeEach(CollectionOfOne(())) { _ in
                try store.unitOfWork {
                    try store.markRead(uids: archived)
                    try store.delete(uids: deleted)
                }
            }
            return Measured(ops: 1)
        }

        func verify(_: Void, _: any ArticleStore, _ run: Repetition) throws -> String {
            try run.expectArticles(expected)
        }
    }
}
