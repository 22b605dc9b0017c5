import Foundation
import StoreBenchCore

#if canImport(Glibc)
  import Glibc
#endif

/// `storebench crash`: kills a writer child at seeded random moments and checks what survived in a fresh process.
public struct CrashTrials {
  public let executable: URL
  public let backend: BackendDescriptor
  public let variant: Variant
  public let workRoot: URL
  /// Seed of the articles and of the kill moments.
  public let seed: UInt64
  /// Articles per batch (one app operation).
  public var batchSize = defaultBatchSize
  /// The articles' record shape (`--param summary_bytes=…`): an app's own record size.
  public var shape = RecordShape()
  /// The kill comes 1…this many ms after the first acknowledgement.
  public var maxDelayMilliseconds = defaultMaxDelayMilliseconds

  /// Checked before every trial: when it returns true, ``run(trials:)`` throws ``Stopped`` (a signal arrived).
  public var shouldStop: () -> Bool = { false }

  /// The trials of a variant were stopped before they finished; its row would be incomplete.
  public struct Stopped: Error {}

  public static let defaultBatchSize = 20
  public static let defaultMaxDelayMilliseconds = 200

  public init(executable: URL, backend: BackendDescriptor, variant: Variant, workRoot: URL, seed: UInt64) {
    self.executable = executable
    self.backend = backend
    self.variant = variant
    self.workRoot = workRoot
    self.seed = seed
  }

  /// The articles' generator: the seed and the record shape, as the child jobs carry it.
  var generator: DatasetGenerator { DatasetGenerator(seed: seed, shape: shape) }

  /// The batches a writer commits at most (it is killed long before).
  public static let batchLimit = 1_000_000

  /// What to do to the writer.
  public var fault = CrashFault.kill
  /// `prefix` images written per power cut (besides the one `synced` image).
  public var prefixImages = defaultPrefixImages
  public static let defaultPrefixImages = 3

  /// How power cuts are chosen: every crash state of a traced run, or random moments.
  public var cuts = DurabilityRow.Method.enumerated
  /// Enumeration: batches committed after the settled batch 0 in the traced run.
  public var enumeratedBatches = defaultEnumeratedBatches
  public static let defaultEnumeratedBatches = 20
  /// Enumeration: prefix states a persistence point gets at most (a seeded sample beyond).
  public var statesPerPoint = CrashStatePlan.defaultBound
  /// Enumeration: also the torn states (a write spanning several 4 KiB pages kept in part; `--tear page`).
  public var tornWrites = false
  /// A test seam: the layer loses this file sync after the settle (as if the writer skipped it); nil in real runs.
  public var droppedSync: Int?
  /// A test seam (``TestDelayedSync``): the traced writer syncs its store only this many ms after an
  /// acknowledgement; nil in real runs.
  public var delayedSync: Int?

  /// Runs until `trials` trials have counted (an attempt that tested nothing is retried, at most `trials` times).
  /// A kill gives one row (`live`); a power cut two (`synced`, `prefix`), or rows that say why it was not
  /// measured.
  public func run(trials: Int) throws -> [DurabilityRow] {
    switch fault {
    case .kill:
      var row = DurabilityRow(backend: backend.name, variant: variant.description, fault: .kill, image: .live)
      row.retries = try repeatTrials(trials) { store, delay in
        guard let acked = try killWriter(in: store, afterMilliseconds: delay) else { return false }
        row.count(acked: acked, report: try checkStore(store, batches: (acked.max() ?? 0) + 2))
        row.trials += 1
        return true
      }
      return [row]
    case .powerLoss where cuts == .enumerated:
      return try enumeratePowerLoss()
    case .powerLoss:
      return try cutPower(trials: trials)
    }
  }

  /// Runs `body` in a fresh store directory with a seeded delay until it has returned true `trials` times;
  /// returns how many attempts returned false (tested nothing; at most `trials` of them).
  func repeatTrials(_ trials: Int, _ body: (URL, Int) throws -> Bool) throws -> Int {
    var retries = 0
    var rng = SplitMix64.forItem(seed: seed, stream: fault == .kill ? 0x6B69_6C6C : 0x706F_7765, index: 0)
    var counted = 0
    while counted < trials {
      if shouldStop() { throw Stopped() }
      guard retries <= trials else {
        throw HarnessError(
          .crashTrial,
          "\(backend.name) [\(variant)]: \(retries) attempts tested nothing (no batch acknowledged before the \(fault.rawValue))"
        )
      }
      let delay = 1 + Int(rng.next() % UInt64(maxDelayMilliseconds))
      let directory = try WorkDirectory(in: workRoot, prefix: "storebench-crash-")
      defer { directory.remove() }
      if try body(try directory.subdirectory("store"), delay) { counted += 1 } else { retries += 1 }
    }
    return retries
  }

  /// Starts a writer, kills it `delay` ms after its first acknowledgement, and returns the acknowledged batches;
  /// nil when the attempt tested nothing (no acknowledgement, or the writer was no longer running). With
  /// `afterFirst`, the writer waits after its first acknowledgement until `afterFirst` has returned, and the
  /// delay counts from then.
  func killWriter(
    in store: URL, afterMilliseconds delay: Int, layer: PageCacheMount? = nil,
    afterFirst: (() throws -> Void)? = nil
  ) throws -> [Int]? {
    let child = try ChildProcess(
      executable: executable,
      job: CrashWriterJob(
        store: ChildStore.named(backend.name, settings: variant.description, directory: store.path),
        batch: batchSize, generator: generator, pauseAfterFirst: afterFirst != nil), input: afterFirst != nil)
    bound(child, seconds: Self.writerSeconds, layer: layer)
    try child.spawn()
    var acked: [Int] = []
    let firstDeadline = monotonicNanoseconds() + 30_000_000_000
    while acked.isEmpty, monotonicNanoseconds() < firstDeadline, !child.ended, !child.giveUpIfDue() {
      acked += child.readLines(waitingMilliseconds: 50).compactMap { CrashAcknowledgement(line: $0)?.batch }
    }
    guard !acked.isEmpty else {
      let outcome = child.killAndWait()
      try harnessFault("crash writer", outcome, layer: layer, failed: true)
      throw HarnessError(
        .crashTrial, "crash writer \(backend.name) [\(variant)] acknowledged nothing: \(outcome.errors)")
    }
    if let afterFirst {
      try afterFirst()
      try child.send("go")
    }
    let killAt = monotonicNanoseconds() + UInt64(delay) * 1_000_000
    while !child.ended, !child.giveUpIfDue() {
      let now = monotonicNanoseconds()
      if now >= killAt { break }
      acked += child.readLines(waitingMilliseconds: Int32(min(100, max(1, (killAt - now) / 1_000_000))))
        .compactMap { CrashAcknowledgement(line: $0)?.batch }
    }
    let outcome = child.killAndWait()
    try harnessFault(
      "crash writer", outcome, layer: layer, failed: !outcome.killedBySignal && outcome.exitCode != 0)
    acked += outcome.remainingLines.compactMap { CrashAcknowledgement(line: $0)?.batch }
    if outcome.killedBySignal { return acked }
    if outcome.exitCode != 0 {
      throw HarnessError(
        .crashTrial, "crash writer \(backend.name) [\(variant)] \(outcome.how): \(outcome.errors)")
    }
    return nil
  }

  /// Reopens the store in a fresh checker process; a checker killed by a signal (a crash inside a C library)
  /// counts as an unrecoverable store.
  func checkStore(_ store: URL, batches: Int) throws -> CrashBatches.Report {
    let child = try ChildProcess(
      executable: executable,
      job: CrashCheckJob(
        store: ChildStore.named(backend.name, settings: variant.description, directory: store.path),
        batch: batchSize, generator: generator, batches: batches))
    bound(child, seconds: Double(CrashImageChecker.timeoutMilliseconds) / 1_000)
    try child.spawn()
    let outcome = child.wait()
    try harnessFault("crash checker", outcome)
    if outcome.killedBySignal { return .checkerKilled(by: outcome.signal) }
    guard let report = outcome.answer(to: CrashCheckJob.self) else {
      throw HarnessError(
        .crashTrial, "crash checker \(backend.name) [\(variant)] \(outcome.how): \(outcome.errors)")
    }
    return report
  }

  /// How long a writer of a random cut may run: its first acknowledgement (30 s at most), the kill's delay, and
  /// the layer's settle between them.
  static let writerSeconds = 120.0

  /// Bounds every wait on `child` by `seconds` and by ``shouldStop`` (asked every 100 ms): the child's process group
  /// is killed then and the wait ends. A writer on the page-cache layer may be blocked inside the layer's file system
  /// (a stopped or hung server): the layer's server is killed with it, which aborts the mount and frees the writer.
  func bound(_ child: ChildProcess, seconds: Double, layer: PageCacheMount? = nil) {
    child.limit(seconds: seconds, stop: shouldStop)
    if let layer {
      child.onGiveUp = { layer.abort() }
      child.giveUpWhen = { layer.serverStopped }
    }
  }

  /// The one check of a child's outcome for faults of the harness, never the variant's: a bounded wait that gave up
  /// on it throws ``Stopped`` for a signal's request, else a harness fault naming the child (`what`), why it was
  /// killed, and the layer's server when that was stopped or gone; and a child that `failed` while the layer's
  /// server is gone (nobody stopped it) failed because the file system under it went away.
  func harnessFault(
    _ what: String, _ outcome: ChildProcess.Outcome, layer: PageCacheMount? = nil, failed: Bool = false
  ) throws {
    if outcome.gaveUp != nil {
      if shouldStop() { throw Stopped() }
      // The layer's server named (it was stopped, or killed while the child waited in its file system): the
      // harness failed there, not the variant on the model.
      let named = outcome.gaveUp?.contains("page-cache layer server") == true
      let note = named ? nil : layer?.serverNote
      throw HarnessError(
        named || note != nil ? .pageCacheLayer : .crashTrial,
        "\(what) \(backend.name) [\(variant)] \(outcome.how)\(note.map { "; \($0)" } ?? "")")
    }
    guard failed, let gone = layer?.serverGone else { return }
    throw HarnessError(
      .pageCacheLayer,
      "\(gone); the \(what) \(backend.name) [\(variant)] \(outcome.how)"
        + (outcome.errors.isEmpty ? "" : ": \(outcome.errors)"))
  }
}
