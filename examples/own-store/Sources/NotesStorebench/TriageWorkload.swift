import Foundation
import StoreBenchKit

/// `triage`: the notes app's inbox triage, a workload of the team's own, registered beside storebench's with
/// `StoreBench.main(registering:workloads:)` (Sources/notes-bench/main.swift). With M notes stored, one app operation
/// archives (marks read) the T newest unread notes and deletes the T oldest, in one unit of work: what the app does
/// when the user taps "triage". Verified after the store is reopened: exactly the expected notes remain, the archived
/// ones read, every other byte unchanged; and, for a store that outlives its process, the same again from a fresh
/// process (``TriageCheckJob``, the workload's own child job: what the app's next launch finds). Any backend that
/// plays the articles role runs it; storebench's runner does the rest (the clock, the read-back, the report, compare,
/// check, history and advise's operations all see a `triage` row like any other).
public struct TriageWorkload: Workload {
  public init() {}
  public let name = "triage"
  public let summary = "archive the T newest unread notes and delete the T oldest, in one unit of work (inbox triage)"
  public let sizeParameter = ParameterName.stored
  public let smokeParameters = ["stored": 200, "count": 10]
  public let requires: StoreRoles = .articles
  /// The job its child process does; the child finds it by name because this workload is registered.
  public var childJobs: [any ChildJob.Type] { [TriageCheckJob.self] }
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
      let checksum = try run.expectArticles(expected)
      guard run.launch.persistent, run.launch.executable != nil else { return checksum }
      // The next launch's view: a fresh process of this binary reopens the store and reads every note.
      try run.closeStore()
      let found = try run.answer(of: TriageCheckJob(store: run.launch.store), what: "the triage check process")
      guard found.count == expected.count, found.hex == expected.hex else {
        throw VerificationError(
          "a fresh process found \(found.count) notes (fingerprint \(found.hex)), expected "
            + "\(expected.count) (\(expected.hex))")
      }
      return checksum
    }
  }
}

/// The `triage` workload's child job: reopen the store in a fresh process and fingerprint every note in it.
public struct TriageCheckJob: ChildJob {
  public static let name = "triage-check"
  public var store: ChildStore

  /// What the fresh process found.
  public struct Found: Codable, Sendable {
    public var count: Int
    public var hex: String
  }

  public func perform(backends: BackendRegistry) throws -> Found {
    let (descriptor, location) = try store.resolve(in: backends)
    let opened = try descriptor.open(location, as: (any ArticleStore).self)
    let snapshot = ArticleSnapshot(try opened.allArticles())
    try opened.close()
    return Found(count: snapshot.count, hex: snapshot.hex)
  }
}
