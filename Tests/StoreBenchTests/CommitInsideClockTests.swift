import Foundation
import StoreBenchBackends
import StoreBenchCore
import Testing

/// A backend whose writes reach the shared store only at `close()`: a deferred commit. Verification reads back
/// through an independent handle opened before the timed store is closed, so it must fail.
enum DeferringBackend {
  static func descriptor() -> BackendDescriptor {
    let memory = MemoryBackend.descriptor()
    return BackendDescriptor(name: "deferring", summary: "commits at close (test double)") { location in
      DeferringStore(wrapped: try memory.open(location, as: (any AppStore).self))
    }
  }

  final class DeferringStore: ArticleStore {
    let wrapped: any AppStore
    private var pending: [(any ArticleStore) throws -> Void] = []

    init(wrapped: any AppStore) { self.wrapped = wrapped }

    var effectiveSettings: String { "commit=close" }
    func unitOfWork(_ body: () throws -> Void) throws { try body() }
    func insert(_ article: Article) throws { pending.append { try $0.insert(article) } }
    func markRead(uids: [String]) throws { pending.append { try $0.markRead(uids: uids) } }
    func delete(uids: [String]) throws { pending.append { try $0.delete(uids: uids) } }
    func edit(_ edit: ArticleEdit) throws { pending.append { try $0.edit(edit) } }
    func article(uid: String) throws -> Article? { try wrapped.article(uid: uid) }
    func allUIDs() throws -> [String] { try wrapped.allUIDs() }
    func load(articles: [Article]) throws { try wrapped.load(articles: articles) }
    func allArticles() throws -> [Article] { try wrapped.allArticles() }
    func close() throws {
      for write in pending { try write(wrapped) }
      pending = []
      try wrapped.close()
    }
  }
}

@Suite("Nothing the variant promises is left outside the clock")
struct CommitInsideClockTests {
  @Test(
    "a backend that defers its commit to close() fails verification", arguments: ["insert", "mark-read", "delete"])
  func deferredCommitFails(_ workload: String) throws {
    var registry = BackendRegistry.standard()
    registry.register(DeferringBackend.descriptor())
    let cases: [String: (any Workload, [String: Int])] = [
      "insert": (InsertWorkload(), ["count": 200]),
      "mark-read": (MarkReadWorkload(), ["stored": 300, "count": 100]),
      "delete": (DeleteWorkload(), ["stored": 300, "count": 100]),
    ]
    let (chosen, parameters) = try #require(cases[workload])
    let sample = try WorkloadContractTests.sample(
      chosen, parameters, on: BackendCase(backend: "deferring", variant: [:], label: "default"),
      registry: registry)
    #expect(sample.status == .failed && sample.error.contains("verify: verification failed"), "\(sample.error)")
  }

  /// Through the binary: `/proc/self/io` counts the whole process, and tests run in parallel in theirs.
  @Test(
    "sqlite txn=batch commits its open batch inside the timed region: mark-read and delete write as much as txn=single"
  )
  func batchCommitsInsideTheClock() throws {
    let samples = try runScenario(
      repetitions: 3,
      """
      backends:
        - backend: sqlite
          variants:
            - {txn: single, journal: wal, sync: normal}
            - {txn: batch, journal: wal, sync: normal}
      workloads:
        - workload: mark-read
          parameters: {stored: 4000, count: 2000}
        - workload: delete
          parameters: {stored: 4000, count: 2000}
      """)
    func column(_ name: String) -> Int { samples.header.firstIndex(of: name)! }
    // The least of three repetitions: other processes' writeback only ever adds to a process's count.
    var written: [String: Double] = [:]
    for row in samples.rows {
      let key = row[column("workload")] + " " + row[column("variant")].prefix(9)
      let bytes = try #require(Double(row[column("write_bytes")]))
      written[key] = min(written[key] ?? .infinity, bytes)
    }
    for workload in ["mark-read", "delete"] {
      let single = try #require(written["\(workload) txn=singl"])
      let batch = try #require(written["\(workload) txn=batch"])
      #expect(
        batch >= 0.8 * single,
        "\(workload): txn=batch wrote \(batch) bytes in the timed region, txn=single \(single)")
    }
  }

  @Test("backends without a second handle say so in the row's note")
  func afterCloseIsNoted() throws {
    let sample = try WorkloadContractTests.sample(
      InsertWorkload(), ["count": 50], on: BackendCase(backend: "gdbm", variant: [:], label: "default"))
    #expect(sample.status == .ok)
    #expect(
      sample.notes[.note]?.contains("read back after closing the timed store (GDBM locks the file") == true,
      "\(sample.notes)")
  }
}

@Suite("Memory that belongs to the backend")
struct MemoryGrowthTests {
  /// Through the binary: the test process's resident memory belongs to every test running in parallel.
  @Test("mem_growth_kib of a 10,000-article memory insert is tens of MB at most, beside a 400,000-message timeline")
  func growthIsTheOperations() throws {
    let samples = try runScenario(
      repetitions: 1,
      """
      backends:
        - backend: memory
      workloads:
        - workload: insert
          parameters: {count: 10000}
        - workload: timeline
          parameters: {messages: 400000, users: 5000}
      """)
    let workload = samples.header.firstIndex(of: "workload")!
    let growth = samples.header.firstIndex(of: "mem_growth_kib")!
    let rss = samples.header.firstIndex(of: "max_rss_kib")!
    let insert = try #require(samples.rows.first { $0[workload] == "insert" })
    let grown = try #require(Int(insert[growth]))
    let peak = try #require(Int(insert[rss]))
    #expect(grown > 0 && grown < 100 * 1024, "insert grew \(grown) KiB")
    #expect(grown < peak, "the growth (\(grown) KiB) is part of the process peak (\(peak) KiB)")
  }
}
