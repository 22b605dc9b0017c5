import Foundation
import StoreBenchCore
import StoreBenchStandard
import Testing

/// A workload defined outside the package, as docs/ARCHITECTURE.md describes: one type with its case, and a
/// registry line. It stores N articles, then looks each up by uid in one timed pass (a cache warm-up after launch).
struct LookupEveryWorkload: Workload {
  let name = "lookup-every"
  let summary = "store N articles, then look every one up by uid (test workload)"
  let sizeParameter = ParameterName.count
  let smokeParameters = ["count": 30]
  let requires: StoreRoles = .articles
  let parameters = [
    WorkloadParameter(.count, default: 200, range: 1...100_000, summary: "articles stored and looked up")
  ]

  func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    Case(articles: generator.articles(count: parameters[.count]))
  }

  final class Case: WorkloadCase {
    let articles: [Article]
    let expected: ArticleSnapshot

    init(articles: [Article]) {
      self.articles = articles
      expected = ArticleSnapshot(articles)
    }

    var fingerprint: String { expected.hex }

    func prepare(_ run: Repetition) throws -> any ArticleStore {
      let store = try run.articles
      try store.load(articles: articles)
      return store
    }

    func measure(_ store: any ArticleStore, _ run: Repetition) throws -> Measured<[Article]> {
      var found: [Article] = []
      try run.latencies.timeEach(articles) { article in
        if let stored = try store.article(uid: article.uid) { found.append(stored) }
      }
      return Measured(ops: articles.count, found)
    }

    func verify(_ found: [Article], _: any ArticleStore, _ run: Repetition) throws -> String {
      guard found.count == articles.count else {
        throw VerificationError("\(found.count) of \(articles.count) lookups found their article")
      }
      _ = try ArticleSnapshot(found).check(against: expected)
      return try run.expectArticles(expected)
    }
  }
}

@Suite("A workload from outside the package")
struct CustomWorkloadTests {
  static var workloads: WorkloadRegistry {
    var registry = WorkloadRegistry.standard
    registry.register(LookupEveryWorkload())
    return registry
  }

  @Test(
    "runs on every backend, the test target's own included, with the memory backend's checksum",
    arguments: BackendCase.contract)
  func runsEverywhere(_ backend: BackendCase) throws {
    let workload = LookupEveryWorkload()
    let expected = try WorkloadContractTests.run(workload, ["count": 120], on: WorkloadContractTests.memory)
      .checksum
    let found = try WorkloadContractTests.run(
      workload, ["count": 120], on: backend, registry: BackendCase.contractRegistry)
    #expect(found.checksum == expected)
  }

  @Test("smoke.yaml picks up a registered backend and workload with what they declare: no file is edited")
  func smokeIncludesThem() throws {
    let backends = BackendCase.contractRegistry
    let smoke = try ScenarioParser(backends: backends, workloads: Self.workloads).parse(
      file: "scenarios/smoke.yaml")
    #expect(smoke.backends.contains { $0.backend == "jsonfile" })
    let entry = try #require(smoke.workloads.first { $0.workload == "lookup-every" })
    #expect(entry.cases.map { $0[.count] } == [30])
  }
}
