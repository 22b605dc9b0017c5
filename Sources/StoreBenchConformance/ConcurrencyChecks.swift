import Foundation
import StoreBenchCore
import Synchronization

/// ``ContractCheck/concurrency``: the store's one-thread-at-a-time rule leaves no shared state between stores, and a
/// store that plays the sharing role shares itself with a second thread as it says.
enum ConcurrencyChecks {
  static let threads = 4

  static func run(_ context: ContractContext) throws -> ContractResult.Outcome {
    guard context.backend.roles.contains(.articles) else { return context.lacking(.articles) }
    var covered = try separateStores(context)
    if context.backend.roles.contains(.sharing) {
      let parameters = ["count": 600, "batch": 50, "stored": 400, "messages": 300, "users": 30, "screen": 40]
      let workload = SyncWhileReadingWorkload()
      var values = workload.defaultParameters
      for (name, value) in parameters { values.set(name, value) }
      let sample = try WorkloadChecks.runOnce(workload, values, context.backend, context.variant, context)
      try expect(sample.status == .ok, "sync-while-reading: \(sample.status): \(sample.error)")
      try expect(
        Int(sample.notes[.reads] ?? "") ?? 0 >= 1, "sync-while-reading: the reading thread read nothing")
      covered += "; sync-while-reading verified (\(sample.notes[.reads] ?? "0") reads)"
    }
    return .passed(covered)
  }

  /// Stores in separate directories, written on separate threads at once: each holds exactly its own articles.
  static func separateStores(_ context: ContractContext) throws -> String {
    try context.withDirectory { work in
      let directories = try (0..<threads).map { try work.subdirectory("store-\($0)") }
      let batches = (0..<threads).map { thread in
        DatasetGenerator(seed: 100 + UInt64(thread)).articles(count: 100).map { article in
          var article = article
          article.uid = "thread\(thread)-\(article.uid)"
          return article
        }
      }
      let failures = Mutex<[String]>([])
      DispatchQueue.concurrentPerform(iterations: threads) { thread in
        do {
          let store = try context.backend.open(
            context.location(directories[thread]), as: (any ArticleStore).self)
          try store.unitOfWork {
            for article in batches[thread] { try store.insert(article) }
          }
          try store.close()
        } catch {
          failures.withLock { $0.append("thread \(thread): \(error)") }
        }
      }
      let failed = failures.withLock { $0 }
      try expect(
        failed.isEmpty, "stores written on \(threads) threads at once: \(failed.joined(separator: "; "))")
      for thread in 0..<threads {
        let store = try context.backend.open(context.location(directories[thread]), as: (any ArticleStore).self)
        defer { try? store.close() }
        let found = Checksum.articles(try store.allArticles())
        try expect(
          found.hex == Checksum.articles(batches[thread]).hex,
          "the store written on thread \(thread) holds \(found.count) articles, not its own 100")
      }
      return "\(threads) stores written on \(threads) threads at once, each holding its own articles"
    }
  }
}
