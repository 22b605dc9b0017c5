import Foundation
import StoreBenchCore

/// `crash`'s child jobs: the writer that commits and acknowledges batches until it is killed, and the checkers that
/// reopen what it left.

/// Commit batches of `batch` articles of `generator`, acknowledging each, until killed or `limit` batches are
/// committed; with `pauseAfterFirst`, wait for a line on standard input after acknowledging the first;
/// `delayedSync`: a test seam (``TestDelayedSync``), nil in real runs.
public struct CrashWriterJob: ChildJob {
  public static let name = "crash-writer"
  public var store: ChildStore
  public var batch: Int
  public var generator: DatasetGenerator
  public var pauseAfterFirst = false
  public var limit = CrashTrials.batchLimit
  public var delayedSync: Int?

  public init(
    store: ChildStore, batch: Int, generator: DatasetGenerator, pauseAfterFirst: Bool = false,
    limit: Int = CrashTrials.batchLimit, delayedSync: Int? = nil
  ) {
    (self.store, self.batch, self.generator) = (store, batch, generator)
    (self.pauseAfterFirst, self.limit, self.delayedSync) = (pauseAfterFirst, limit, delayedSync)
  }

  public func perform(backends: BackendRegistry) throws -> ChildDone {
    let (descriptor, location) = try store.resolve(in: backends)
    try CrashBatches.write(
      descriptor: descriptor, location: location, size: batch, generator: generator, limit: limit,
      pauseAfterFirst: pauseAfterFirst, delayedSync: delayedSync)
    return ChildDone()
  }
}

/// Reopen the store after a crash and sort its articles into `batches` batches.
public struct CrashCheckJob: ChildJob {
  public static let name = "crash-check"
  public var store: ChildStore
  public var batch: Int
  public var generator: DatasetGenerator
  public var batches: Int

  public func perform(backends: BackendRegistry) throws -> CrashBatches.Report {
    let (descriptor, location) = try store.resolve(in: backends)
    return CrashBatches.check(
      descriptor: descriptor, location: location, size: batch, generator: generator, batches: batches)
  }
}

/// ``CrashCheckJob`` for many stores in one process (an enumerated run's images): read a store directory a line
/// from standard input, answer each with one report line, until the input ends; the store's own directory is not
/// used.
public struct CrashCheckEachJob: ChildJob {
  public static let name = "crash-check-each"
  public var store: ChildStore
  public var batch: Int
  public var generator: DatasetGenerator
  public var batches: Int

  public func perform(backends: BackendRegistry) throws -> ChildDone {
    let (descriptor, template) = try store.resolve(in: backends)
    while let directory = readLine(), !directory.isEmpty {
      let location = StoreLocation(directory: URL(fileURLWithPath: directory), variant: template.variant)
      let report = CrashBatches.check(
        descriptor: descriptor, location: location, size: batch, generator: generator, batches: batches)
      try CrashBatches.say(ChildAnswerLine.line(report), what: "answer the check of \(directory)")
    }
    return ChildDone()
  }
}

/// `verify-store`'s check in a fresh process: integrity check and full read, compared with `expectedChecksum` when
/// given.
public struct VerifyJob: ChildJob {
  public static let name = "verify"
  public var store: ChildStore
  public var expectedChecksum: String?

  public func perform(backends: BackendRegistry) throws -> StoreVerification {
    let (descriptor, location) = try store.resolve(in: backends)
    return StoreVerification.inspect(descriptor: descriptor, location: location, expectedChecksum: expectedChecksum)
  }
}
