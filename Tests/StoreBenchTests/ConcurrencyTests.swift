import Foundation
import StoreBenchBackends
import StoreBenchCore
import Synchronization
import Testing

/// The code that runs on two threads: `sync-while-reading` on every backend's sharing idiom, the memory backend's
/// volumes opened from many threads, and the interrupt request raised from another thread. Run it under the thread
/// sanitizer with `scripts/tsan` (docs/ARCHITECTURE.md).
@Suite("Concurrency")
struct ConcurrencyTests {
  /// Each backend at its defaults, plus the sharing idioms that differ by setting (WAL readers, a DatabasePool).
  static let cases: [BackendCase] =
    BackendRegistry.standard().names.map {
      BackendCase(backend: $0, variant: [:], label: "default")
    } + [
      BackendCase(
        backend: "sqlite", variant: ["journal": "wal", "sync": "normal"], label: "journal=wal sync=normal"),
      BackendCase(backend: "grdb", variant: ["writer": "pool"], label: "writer=pool"),
    ]

  @Test(
    "sync-while-reading: the UI thread's reads and the sync's writes verify on every sharing idiom",
    arguments: cases)
  func syncWhileReading(_ backend: BackendCase) throws {
    let sample = try WorkloadContractTests.sample(
      SyncWhileReadingWorkload(),
      ["count": 600, "batch": 50, "stored": 400, "messages": 300, "users": 30, "screen": 40], on: backend)
    try #require(sample.status == .ok, "\(sample.error)")
    #expect(Int(sample.notes[.reads] ?? "") ?? 0 >= 1)
    #expect(sample.latency != nil)
  }

  @Test("memory volumes: stores opened on many threads at once share one directory's collections")
  func memoryVolumesAcrossThreads() throws {
    let temp = try TemporaryDirectory()
    let descriptor = try #require(BackendRegistry.standard()["memory"])
    let location = StoreLocation(directory: temp.url, variant: try descriptor.variant())
    let failures = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      do {
        let store = try descriptor.open(location, as: (any ArticleStore).self)
        try store.unitOfWork {
          for index in 0..<50 {
            try store.insert(
              Article(
                uid: "t\(thread)-\(index)", feedID: Int64(thread), title: "x", summary: "y",
                published: Date(timeIntervalSince1970: 0), read: false))
          }
        }
        try store.close()
      } catch {
        failures.withLock { $0.append("\(error)") }
      }
    }
    #expect(failures.withLock { $0 }.isEmpty)
    let reader = try descriptor.open(location, as: (any ArticleStore).self)
    #expect(try reader.allUIDs().count == 8 * 50)
  }

  @Test("an interrupt raised on another thread is seen by the run's thread")
  func interruptAcrossThreads() {
    let request = InterruptRequest()
    let raised = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      request.request(SIGINT)
      raised.signal()
    }
    raised.wait()
    #expect(request.signal == SIGINT)
  }
}
