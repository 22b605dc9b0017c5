import Foundation
import StoreBenchCore
import Testing

/// A backend defined outside the package's backends, as docs/ARCHITECTURE.md describes: a store type that plays
/// one role (articles), a descriptor, and a registry line. Its articles live in one JSON file, rewritten at the end
/// of every unit of work (so a reopened store sees every committed change).
enum JSONFileBackend {
  static let descriptor = BackendDescriptor(
    name: "jsonfile", summary: "articles in one JSON file (test backend)", advised: true
  ) {
    location in try JSONFileStore(file: URL(fileURLWithPath: location.path("articles.json")))
  }

  final class JSONFileStore: ArticleStore {
    let file: URL
    private var articles: [String: Article]
    let effectiveSettings = "file=json"

    init(file: URL) throws {
      self.file = file
      let data = FileManager.default.contents(atPath: file.path)
      articles = try data.map { try JSONDecoder().decode([String: Article].self, from: $0) } ?? [:]
    }

    private func save() throws { try JSONEncoder().encode(articles).write(to: file, options: .atomic) }

    func unitOfWork(_ body: () throws -> Void) throws {
      try body()
      try save()
    }
    func insert(_ article: Article) throws { articles[article.uid] = article }
    func markRead(uids: [String]) throws { for uid in uids { articles[uid]?.read = true } }
    func article(uid: String) throws -> Article? { articles[uid] }
    func allUIDs() throws -> [String] { Array(articles.keys) }
    func delete(uids: [String]) throws { for uid in uids { articles[uid] = nil } }
    func edit(_ edit: ArticleEdit) throws {
      guard let article = articles[edit.uid] else { throw StoreError.inconsistent("no article \(edit.uid)") }
      articles[edit.uid] = edit.applied(to: article)
    }
    func load(articles: [Article]) throws {
      for article in articles { self.articles[article.uid] = article }
      try save()
    }
    func allArticles() throws -> [Article] { Array(articles.values) }
    func close() throws {}
  }
}

@Suite("A backend added from outside")
struct CustomBackendTests {
  /// The registered workloads this backend can play (its roles cover theirs), at their smoke sizes.
  static var articleWorkloads: [(workload: any Workload, parameters: [String: Int])] {
    WorkloadContractTests.cases.filter { JSONFileBackend.descriptor.roles.isSuperset(of: $0.workload.requires) }
  }

  // Every article workload running and verifying on it with the memory backend's checksum is the contract suites'
  // `workloads` check, which WorkloadContractTests.sameAsMemory runs on this backend too (BackendCase.contract).

  @Test("its roles come from its type: articles only")
  func roles() {
    #expect(JSONFileBackend.descriptor.roles == [.articles, .persistence])
  }

  @Test("workloads that need other roles are unsupported before anything runs")
  func otherRolesUnsupported() throws {
    var registry = BackendRegistry.standard()
    registry.register(JSONFileBackend.descriptor)
    let custom = BackendCase(backend: "jsonfile", variant: [:], label: "default")
    let roles = JSONFileBackend.descriptor.roles
    let needingMore = WorkloadContractTests.cases.filter { !roles.isSuperset(of: $0.workload.requires) }
    // Both kinds exist: what it plays runs (articleWorkloads), what it does not is refused before it runs.
    #expect(!needingMore.isEmpty && !Self.articleWorkloads.isEmpty)
    #expect(Self.articleWorkloads.contains { $0.workload.name == "insert" })
    for (workload, parameters) in needingMore {
      let sample = try WorkloadContractTests.sample(workload, parameters, on: custom, registry: registry)
      #expect(sample.status == .unsupported, "\(workload.name): \(sample.status)")
      #expect(
        sample.error.contains("plan: unsupported: the jsonfile store does not play the role"), "\(sample.error)"
      )
    }
  }
}
