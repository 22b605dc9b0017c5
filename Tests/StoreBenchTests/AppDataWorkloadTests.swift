import Foundation
import StoreBenchBackends
import Testing

@testable import StoreBenchCore

/// The workloads of "your app's data": edit, the launch list, aging with compaction.
@Suite("App data workloads")
struct AppDataWorkloadTests {
  static func sample(
    _ workload: any Workload, _ parameters: [String: Int], _ backend: String,
    _ variant: [String: String] = [:]
  ) throws -> Sample {
    try WorkloadContractTests.sample(
      workload, parameters, on: BackendCase(backend: backend, variant: variant, label: "t"))
  }

  @Test(
    "edit: each edit replaces title, body and date of one record; the data are pinned and move with the record shape"
  )
  func editData() throws {
    let workload = EditWorkload()
    var parameters = workload.defaultParameters
    (parameters[.stored], parameters[.count]) = (100, 20)
    let generator = DatasetGenerator(seed: 42)
    let fingerprint = workload.makeCase(parameters, generator: generator).fingerprint
    #expect(fingerprint == workload.makeCase(parameters, generator: generator).fingerprint)
    var shaped = generator
    shaped.shape.summaryBytes = 2_000
    #expect(workload.makeCase(parameters, generator: shaped).fingerprint != fingerprint)
    #expect(shaped.edit(of: shaped.article(at: 0), number: 0).summary.utf8.count >= 2_000)
    let article = generator.article(at: 3)
    let edit = generator.edit(of: article, number: 0)
    let edited = edit.applied(to: article)
    #expect(edited.uid == article.uid && edited.feedID == article.feedID && edited.read == article.read)
    #expect(edited.title != article.title && edited.summary != article.summary)
    // Dated after every generated record: an edited note leads the launch list.
    #expect(edited.published > generator.articles(count: 500).map(\.published).max()!)
  }

  @Test("edit: a backend that drops one edit in ten fails verification")
  func editDropped() throws {
    var registry = BackendRegistry.standard()
    registry.register(BrokenBackend.descriptor())
    let sample = try WorkloadContractTests.sample(
      EditWorkload(), ["stored": 100, "count": 10],
      on: BackendCase(backend: "broken", variant: [:], label: "default"),
      registry: registry)
    #expect(sample.status == .failed && sample.error.contains("verification failed"), "\(sample.error)")
  }

  @Test(
    "list: sqlite searches its date index with list_index=on and scans and sorts without it; key-value stores scan")
  func listPlans() throws {
    let on = try Self.sample(
      LaunchListWorkload(cold: false), ["stored": 200, "screen": 10], "sqlite", ["list_index": "on"])
    let off = try Self.sample(LaunchListWorkload(cold: true), ["stored": 200, "screen": 10], "sqlite")
    #expect(on.status == .ok && off.status == .ok, "\(on.error) \(off.error)")
    #expect(on.notes[.queryPlan]?.contains("article_published") == true, "\(on.notes[.queryPlan] ?? "")")
    let planOff = off.notes[.queryPlan] ?? ""
    #expect(planOff.contains("SCAN article") && planOff.contains("TEMP B-TREE"), "\(planOff)")
    #expect(on.checksum == off.checksum)
    let lmdb = try Self.sample(LaunchListWorkload(cold: false), ["stored": 200, "screen": 10], "lmdb")
    #expect(lmdb.notes[.queryPlan]?.hasPrefix("scan:") == true && lmdb.checksum == on.checksum)
  }

  @Test("TopArticles keeps the newest in the launch list's order, whatever the input order")
  func topArticles() {
    let articles = DatasetGenerator(seed: 5).articles(count: 300)
    let expected = Array(articles.sorted(by: Article.isNewer).prefix(17))
    for order in [articles, articles.reversed(), articles.sorted(by: Article.isNewer)] {
      var top = TopArticles(limit: 17)
      for article in order { top.offer(article) }
      #expect(top.sorted == expected)
    }
    var none = TopArticles(limit: 0)
    none.offer(articles[0])
    #expect(none.sorted.isEmpty)
  }

  @Test("aging plan: each round inserts and deletes the same number, deletes the oldest, and keeps the count")
  func agingPlan() {
    let plan = AgingPlan(
      stored: 300, rounds: 4, churnPercent: 10, editPercent: 5, screen: 10,
      generator: DatasetGenerator(seed: 9))
    #expect(plan.rounds.count == 4)
    var live = Dictionary(uniqueKeysWithValues: plan.initial.map { ($0.uid, $0) })
    for round in plan.rounds {
      #expect(round.inserts.count == 30 && round.deletes.count == 30 && round.edits.count == 15)
      for article in round.inserts { live[article.uid] = article }
      let survivors = live.values.filter { !round.deletes.contains($0.uid) }
      let newestDeleted = round.deletes.compactMap { live[$0] }.max { Article.isNewer($1, $0) }!
      #expect(survivors.allSatisfy { Article.isNewer($0, newestDeleted) })
      for uid in round.deletes { live[uid] = nil }
      for edit in round.edits { live[edit.uid] = edit.applied(to: live[edit.uid]!) }
      #expect(round.records == 300 && live.count == 300)
    }
    #expect(ArticleSnapshot(Array(live.values)).hex == plan.expected.hex)
  }

  @Test(
    "aging: size grows with the churn and compaction gives bytes back (sqlite, grdb, lmdb, gdbm); every round recorded",
    arguments: [
      ("sqlite", ["journal": "delete"]), ("sqlite", ["journal": "wal", "sync": "normal"]),
      ("sqlite", ["auto_vacuum": "incremental"]), ("grdb", [:]), ("lmdb", [:]), ("gdbm", [:]),
    ])
  func aging(_ backend: String, _ variant: [String: String]) throws {
    let sample = try Self.sample(
      AgingWorkload(), ["stored": 400, "rounds": 4, "churn_percent": 25, "screen": 10], backend, variant)
    try #require(sample.status == .ok, "\(sample.error)")
    // The rows of the workload's own table (rounds.csv), by its declared columns.
    let rounds = try #require(sample.tableRows[AgingWorkload.rounds.file])
    func cell(_ row: [String], _ column: String) -> String { row[AgingRound.columns.firstIndex(of: column)!] }
    func allocated(_ row: [String]) -> Int64 { Int64(cell(row, "store_alloc_bytes")) ?? -1 }
    #expect(rounds.map { cell($0, "phase") } == ["loaded"] + Array(repeating: "churned", count: 4) + ["compacted"])
    #expect(rounds.allSatisfy { cell($0, "records") == "400" })
    let (loaded, aged, compacted) = (rounds[0], rounds[4], rounds[rounds.count - 1])
    #expect(allocated(aged) > allocated(loaded), "\(rounds)")
    #expect(allocated(compacted) < allocated(aged), "\(rounds)")
    #expect(Int64(sample.notes[.reclaimedBytes] ?? "") == allocated(aged) - allocated(compacted))
    if backend != "gdbm" {
      #expect(cell(compacted, "free_bytes") == "0", "\(cell(compacted, "free_detail"))")
    }
    if variant["auto_vacuum"] == "incremental" {
      #expect(sample.notes[.note]?.contains("incremental_vacuum") == true)
    }
  }

  @Test("aging: stores with nothing to compact are unsupported from their type")
  func agingUnsupported() throws {
    for backend in ["plist", "defaults", "files", "memory"] {
      let sample = try Self.sample(AgingWorkload(), ["stored": 50, "rounds": 1, "screen": 5], backend)
      #expect(sample.status == .unsupported && sample.error.contains("compacting"), "\(backend): \(sample.error)")
    }
  }
}

@Suite("Model version 2")
struct MigrationTests {
  @Test("ArticleV2's date text: whole seconds from Foundation, milliseconds exact (known values)")
  func dateText() {
    #expect(ArticleV2.text(millisecondsSince1970: 1_735_689_600_123) == "2025-01-01T00:00:00.123Z")
    #expect(ArticleV2.text(millisecondsSince1970: 0) == "1970-01-01T00:00:00.000Z")
    #expect(ArticleV2.text(millisecondsSince1970: 951_782_400_999) == "2000-02-29T00:00:00.999Z")
    #expect(ArticleV2.text(millisecondsSince1970: 1_767_225_599_007) == "2025-12-31T23:59:59.007Z")
    #expect(ArticleV2.text(millisecondsSince1970: -1) == "1969-12-31T23:59:59.999Z")
  }

  @Test(
    "lazy key-value migration leaves version-1 records until the first read upgrades them; eager rewrites at once",
    arguments: ["lmdb", "gdbm"])
  func lazyAndEager(_ backend: String) throws {
    let registry = BackendRegistry.standard()
    let descriptor = try #require(registry[backend])
    let articles = DatasetGenerator(seed: 3).articles(count: 40)
    for strategy in ["eager", "lazy"] {
      let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
      let location = StoreLocation(
        directory: try temp.child("store"), variant: try descriptor.variant(["migrate": strategy]))
      func withStore<T>(_ body: (any MigratingStore) throws -> T) throws -> T {
        let store = try descriptor.open(location, as: (any MigratingStore).self)
        defer { try? store.close() }
        return try body(store)
      }
      try withStore { try $0.load(articles: articles) }
      _ = try withStore { try $0.migrateToVersion2() }
      // Version-1 reads still work exactly while the records are version 1.
      let stillVersion1 = (try? withStore { try $0.allArticles() }).map(ArticleSnapshot.init)?.hex
      #expect((stillVersion1 == ArticleSnapshot(articles).hex) == (strategy == "lazy"), "\(strategy)")
      let upgraded = try withStore { try $0.allArticlesV2() }
      #expect(Checksum.articlesV2(upgraded) == Checksum.articlesV2(articles.map(ArticleV2.init(upgrading:))))
      // After the first version-2 read, the lazy store wrote its upgrades back too.
      #expect((try? withStore { try $0.allArticles() }) == nil, "\(strategy)")
    }
  }
}
