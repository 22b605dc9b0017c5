import Foundation
import StoreBenchCore
import StoreBenchCrash
import StoreBenchStandard
import Testing

/// Child jobs are declared by the feature that uses them and found by name: the harness's and every registered
/// workload's, a workload of a team's included, with no list of them anywhere else.
@Suite("Child jobs: declared by their workload, found by name")
struct ChildJobTests {
  /// A team's job: answers with the number of articles the store holds.
  struct CountJob: ChildJob {
    static let name = "team-count"
    var store: ChildStore
    struct Counted: Codable, Sendable { var count: Int }
    func perform(backends: BackendRegistry) throws -> Counted {
      let (descriptor, location) = try store.resolve(in: backends)
      let opened = try descriptor.open(location, as: (any ArticleStore).self)
      defer { try? opened.close() }
      return Counted(count: try opened.allUIDs().count)
    }
  }

  /// A team's workload declaring that job (the standard insert otherwise).
  struct CountingInsert: Workload {
    let base = InsertWorkload()
    let name = "team-counting-insert"
    var summary: String { base.summary }
    var parameters: [WorkloadParameter] { base.parameters }
    var sizeParameter: ParameterName { base.sizeParameter }
    var smokeParameters: [String: Int] { base.smokeParameters }
    var requires: StoreRoles { base.requires }
    var childJobs: [any ChildJob.Type] { [CountJob.self] }
    func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
      base.makeCase(parameters, generator: generator)
    }
  }

  @Test("the registry holds the harness's jobs and each workload's, once; a team's workload brings its own")
  func registry() {
    let standard = ChildJobRegistry.standard(workloads: .standard)
    #expect(
      standard.names == [
        "crash-check", "crash-check-each", "crash-writer", "empty", "launch-list", "launch-parents",
        "launch-timeline", "read-settings", "shared-check", "shared-worker", "verify",
      ])
    #expect(ChildJobRegistry.harness.names == ["crash-check", "crash-check-each", "crash-writer", "verify"])
    let team = ChildJobRegistry.standard(workloads: WorkloadRegistry.standard.including([CountingInsert()]))
    #expect(Set(team.names) == Set(standard.names).union(["team-count"]))
  }

  @Test("a request goes through its argument and back, is done by its job and answers with a line of its answer")
  func roundTrip() throws {
    let temp = try TemporaryDirectory()
    let store = try temp.child("store")
    let descriptor = try #require(BackendRegistry.standard()["sqlite"])
    let opened = try descriptor.open(
      StoreLocation(directory: store, variant: try descriptor.variant([:])), as: (any ArticleStore).self)
    try opened.load(articles: DatasetGenerator(seed: 2).articles(count: 12))
    try opened.close()
    let request = try ChildRequest(
      argument: ChildRequest(CountJob(store: .named("sqlite", directory: store.path))).argument)
    #expect(request.job == "team-count")
    let jobs = ChildJobRegistry.standard(workloads: WorkloadRegistry.standard.including([CountingInsert()]))
    let line = try jobs.perform(request, backends: BackendRegistry.standard())
    #expect(ChildAnswerLine.decode(CountJob.Counted.self, line)?.count == 12)
    // A binary that does not register the workload does not know its job, and says which it knows.
    #expect {
      try ChildJobRegistry.standard(workloads: .standard).perform(request, backends: BackendRegistry.standard())
    } throws: { error in
      "\(error)".contains("no child job named 'team-count'") && "\(error)".contains("crash-writer")
    }
  }
}

/// The notes a workload's rows must carry are declared by the workload (``Workload/missingNotes(_:)``): the
/// conformance suite asks each workload, with no list of names of its own.
@Suite("Workload notes: declared by the workload")
struct WorkloadNotesTests {
  @Test("the workloads that record notes say what an empty row lacks; the others ask for nothing")
  func declared() {
    let declaring: Set = [
      "cache", "sync-while-reading", "shared", "query", "list-warm", "tags", "tag-edit", "migrate", "aging",
    ]
    for workload in WorkloadRegistry.standard.workloads {
      let missing = workload.missingNotes([:])
      #expect((missing != nil) == declaring.contains(workload.name), "\(workload.name): \(missing ?? "nothing")")
    }
    let cache = WorkloadRegistry.standard["cache"]!
    #expect(cache.missingNotes([.hitRatio: "0.5"]) == nil)
    #expect(cache.missingNotes([.hitRatio: "1"])?.contains("not between 0 and 1") == true)
  }
}
