import Foundation
import StoreBenchCore

#if canImport(Glibc)
  import Glibc
#endif

/// The two child sides of `storebench crash`: the writer that commits batches of articles and acknowledges each
/// on standard output, and the checker that reopens the store afterwards and reports what survived.
///
/// Batch `b` holds the articles `b × size ..< (b + 1) × size` of the seed's generator (in the run's record shape), so
/// the checker can tell
/// complete, partial and lost batches from the store's content alone.
public enum CrashBatches {
  /// The articles of batch `index`.
  public static func batch(_ index: Int, size: Int, generator: DatasetGenerator) -> [Article] {
    (index * size..<(index + 1) * size).map(generator.article(at:))
  }

  /// Runs in the writer child: commits batch after batch, one app operation each, and when the timed path would
  /// consider the operation done (its unit of work returned and any pending batch committed, as the clock does)
  /// writes the batch number, a space, the CLOCK_MONOTONIC time in nanoseconds and a newline to standard output
  /// (``CrashAcknowledgement``). Stops after `limit` batches and closes the store. With
  /// `pauseAfterFirst` it reads one line from standard input after the first acknowledgement (the power-loss
  /// trial settles the store there).
  public static func write(
    descriptor: BackendDescriptor, location: StoreLocation, size: Int, generator: DatasetGenerator, limit: Int,
    pauseAfterFirst: Bool = false, delayedSync: Int? = nil
  ) throws {
    let store = try descriptor.open(location, as: (any ArticleStore).self)
    var oldestUnsynced: UInt64?
    for index in 0..<limit {
      let articles = batch(index, size: size, generator: generator)
      try store.unitOfWork {
        for article in articles { try store.insert(article) }
      }
      // The clock stops after commitPending (RepetitionRunner): acknowledge at the same point.
      try store.commitPending()
      let acknowledged = monotonicNanoseconds()
      try say("\(index) \(acknowledged)", what: "acknowledge batch \(index)")
      if index == 0 && pauseAfterFirst && readLine() == nil {
        throw HarnessError(.crashTrial, "the parent closed the writer's input before it could go on")
      }
      if let delayedSync, index > 0 {
        try TestDelayedSync.pace(
          delayedSync, acknowledged: acknowledged, oldest: &oldestUnsynced, directory: location.directory)
      }
    }
    try store.close()
  }

  /// Writes `line` to the parent (``ChildLine/say(_:what:part:)``); a failure is the crash trial's.
  static func say(_ line: String, what: String) throws {
    try ChildLine.say(line, what: what, part: .crashTrial)
  }

  /// What the checker found in a store after the writer was killed.
  public struct Report: Codable, Sendable {
    /// False when the store could not be opened (or read) at all.
    public var opened: Bool
    /// "ok", or the integrity check's or the open's error.
    public var integrity: String
    /// The settings the reopened store reports in force ("" when it did not open).
    public var settings: String
    public var completeBatches: [Int]
    public var partialBatches: [Int]
    /// Articles that are not the generator's (changed content or unknown uids).
    public var foreignArticles: Int

    /// A checker killed by `signal` (a crash inside a C library on a damaged store): the store counts as
    /// unreadable.
    static func checkerKilled(by signal: Int32) -> Report {
      Report(
        opened: false, integrity: "checker killed by signal \(signal)", settings: "", completeBatches: [],
        partialBatches: [], foreignArticles: 0)
    }

    /// The store did not open or read, failed its integrity check, or held articles the writer never wrote.
    public var isCorrupt: Bool { !opened || integrity != "ok" || foreignArticles > 0 }

    /// The batches the store kept: its complete ones, or none when it is damaged — a damaged store is not
    /// trusted with any of its saves, so every save it held counts as lost.
    public var keptBatches: Set<Int> { isCorrupt ? [] : Set(completeBatches) }

    public init(
      opened: Bool, integrity: String, settings: String, completeBatches: [Int], partialBatches: [Int],
      foreignArticles: Int
    ) {
      (self.opened, self.integrity, self.settings) = (opened, integrity, settings)
      (self.completeBatches, self.partialBatches, self.foreignArticles) =
        (completeBatches, partialBatches, foreignArticles)
    }
  }

  /// Runs in the checker child: opens the store, runs the backend's integrity check, reads every article and
  /// sorts them into batches `0..<batches`.
  public static func check(
    descriptor: BackendDescriptor, location: StoreLocation, size: Int, generator: DatasetGenerator, batches: Int
  ) -> Report {
    var expected: [String: (batch: Int, article: Article)] = [:]
    for index in 0..<batches {
      for article in batch(index, size: size, generator: generator) { expected[article.uid] = (index, article) }
    }
    let store: any ArticleStore
    do {
      store = try descriptor.open(location, as: (any ArticleStore).self)
    } catch {
      return Report(
        opened: false, integrity: "open failed: \(error)", settings: "", completeBatches: [],
        partialBatches: [], foreignArticles: 0)
    }
    defer { try? store.close() }
    var integrity = "ok"
    do { try store.checkIntegrity() } catch { integrity = "\(error)" }
    let articles: [Article]
    do {
      articles = try store.allArticles()
    } catch {
      return Report(
        opened: false, integrity: "reading failed: \(error)", settings: store.effectiveSettings,
        completeBatches: [], partialBatches: [], foreignArticles: 0)
    }
    var present = [Int](repeating: 0, count: batches)
    var foreign = 0
    for article in articles {
      guard let known = expected[article.uid], known.article == article else {
        foreign += 1
        continue
      }
      present[known.batch] += 1
    }
    return Report(
      opened: true, integrity: integrity, settings: store.effectiveSettings,
      completeBatches: present.indices.filter { present[$0] == size },
      partialBatches: present.indices.filter { present[$0] > 0 && present[$0] < size },
      foreignArticles: foreign)
  }
}
