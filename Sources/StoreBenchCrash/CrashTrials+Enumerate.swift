import Foundation
import StoreBenchCore

extension CrashTrials {
  /// One traced run and every crash state of it (``CrashStatePlan``), checked.
  public struct Enumeration: Sendable {
    public var plan: CrashStatePlan
    public var verdicts: CrashStateVerdicts
    public var unsynced: UnsyncedReport
  }

  /// The enumerated power-loss rows of this variant, or rows that say why it was not measured.
  func enumeratePowerLoss() throws -> [DurabilityRow] {
    try powerLossRows(.enumerated) { rows(try enumerate()) }
  }

  /// Power loss by enumeration: the layer is mounted on a fresh store directory, the writer commits batch 0, the
  /// layer settles, the writer commits `enumeratedBatches` more and closes the store, and the power is cut after
  /// it exits. Every crash state of the log is then written out and checked in a fresh checker process (each
  /// distinct image once), and judged against the batches acknowledged before its cut.
  public func enumerate() throws -> Enumeration {
    let directory = try WorkDirectory(in: workRoot, prefix: "storebench-crash-")
    defer { directory.remove() }
    let store = try directory.subdirectory("store")
    let layer = try PageCacheMount(executable: executable, mountpoint: store, stop: shouldStop)
    defer { layer.unmount() }
    let acknowledgements = try traceWriter(in: store, layer: layer)
    try layer.cut()
    let log = try layer.log(to: directory.url.appendingPathComponent("layer.log"))
    let plan = CrashStatePlan(
      log: log, acknowledgements: acknowledgements, bound: statesPerPoint, tear: tornWrites, seed: seed)
    let batches = (acknowledgements.map(\.batch).max() ?? 0) + 2
    var reports: [CrashBatches.Report] = []
    let checker = CrashImageChecker(self, batches: batches)
    defer { checker.close() }
    let images = try Self.imageDirectory() ?? directory
    defer { if images !== directory { images.remove() } }
    for (index, image) in plan.images.enumerated() {
      if shouldStop() { throw Stopped() }
      let target = images.url.appendingPathComponent("image-\(index)")
      try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
      try layer.writeState(end: image.end, keep: image.keep, tear: image.tear, into: target)
      reports.append(try checker.check(target))
      try? FileManager.default.removeItem(at: target)
    }
    return Enumeration(
      plan: plan, verdicts: CrashStateVerdicts(plan: plan, reports: reports),
      unsynced: UnsyncedReport(log: log, acknowledgements: acknowledgements))
  }

  /// A memory-backed directory for a run's images (in /dev/shm), or nil to write them beside the store. ext4 slows
  /// down creating files where many were just deleted (its inode allocator skips recently deleted inodes): writing
  /// and removing thousands of images of a file-per-record store made that allocator the run's main cost. An image
  /// is a crash state that is opened and checked, never timed, and needs no disk of its own. Directories a killed
  /// run left there are removed first (``WorkDirectory/removeAbandoned(in:)``).
  static func imageDirectory() throws -> WorkDirectory? {
    let root = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
    guard WorkDirectory.isMemoryBacked(root.path), access(root.path, W_OK) == 0,
      WorkDirectory.freeBytes(at: root) > 1 << 30
    else { return nil }
    _ = WorkDirectory.removeAbandoned(in: root)
    return try WorkDirectory(in: root, prefix: "storebench-images-")
  }

  /// Runs the writer for batch 0, settles the layer, lets it commit ``enumeratedBatches`` more and waits for it to
  /// close the store and exit; returns every acknowledgement with its time.
  func traceWriter(in store: URL, layer: PageCacheMount) throws -> [CrashAcknowledgement] {
    let child = try ChildProcess(
      executable: executable,
      job: CrashWriterJob(
        store: ChildStore.named(backend.name, settings: variant.description, directory: store.path),
        batch: batchSize, generator: generator, pauseAfterFirst: true, limit: enumeratedBatches + 1,
        delayedSync: delayedSync), input: true)
    bound(child, seconds: Self.traceSeconds, layer: layer)
    try child.spawn()
    var acknowledgements: [CrashAcknowledgement] = []
    let deadline = monotonicNanoseconds() + UInt64(Self.traceSeconds * 1e9)
    while acknowledgements.isEmpty, monotonicNanoseconds() < deadline, !child.ended, !child.giveUpIfDue() {
      acknowledgements += child.readLines(waitingMilliseconds: 50).compactMap(CrashAcknowledgement.init(line:))
    }
    guard !acknowledgements.isEmpty else {
      let outcome = child.killAndWait()
      try harnessFault("crash writer", outcome, layer: layer, failed: true)
      throw HarnessError(
        .crashTrial, "crash writer \(backend.name) [\(variant)] acknowledged nothing: \(outcome.errors)")
    }
    try layer.settle()
    if let droppedSync { try layer.dropSync(droppedSync) }
    try child.send("go")
    while !child.ended, monotonicNanoseconds() < deadline, !child.giveUpIfDue() {
      acknowledgements += child.readLines(waitingMilliseconds: 100).compactMap(CrashAcknowledgement.init(line:))
    }
    let outcome = child.ended ? child.wait() : child.killAndWait()
    let failed = outcome.exitCode != 0 || outcome.killedBySignal
    try harnessFault("crash writer", outcome, layer: layer, failed: failed)
    acknowledgements += outcome.remainingLines.compactMap(CrashAcknowledgement.init(line:))
    guard !failed else {
      throw HarnessError(
        .crashTrial,
        "crash writer \(backend.name) [\(variant)] \(outcome.how) before committing \(enumeratedBatches + 1) "
          + "batches on the page-cache layer: \(outcome.errors)")
    }
    return acknowledgements
  }

  /// How long the traced writer may take to commit its batches on the layer.
  static let traceSeconds = 300.0

  /// The rows of an enumeration: one per kind of state (`synced`, `prefix`, and `torn` when torn writes were
  /// modelled), each counting crash states — never batches re-counted across states.
  public func rows(_ enumeration: Enumeration) -> [DurabilityRow] {
    let verdicts = enumeration.verdicts
    let kinds: [(CrashStatePlan.StateKind, DurabilityRow.Image)] =
      [(.synced, .synced), (.prefix, .prefix)] + (tornWrites ? [(.torn, .torn)] : [])
    return kinds.map { kind, image in
      let tally = verdicts.tallies[kind] ?? CrashStateVerdicts.Tally()
      var row = DurabilityRow(
        backend: backend.name, variant: variant.description, settings: verdicts.settings, fault: .powerLoss,
        image: image)
      row.method = .enumerated
      row.trials = 1
      row.images = tally.states
      row.ackedBatches = verdicts.acknowledged
      row.lostBatches = tally.lostBatches.count
      row.partialBatches = tally.partialBatches.count
      row.corruptOpens = tally.corruptStates
      row.unrecoverable = tally.unreadableStates
      row.lostStates = tally.lostStates
      row.losingStates = tally.losingStates
      row.points = verdicts.points
      row.sampledPoints = verdicts.sampledPoints
      row.distinctImages = verdicts.images
      row.lossWindowMilliseconds = tally.lossWindow.map { Double($0) / 1e6 }
      row.lossDepth = tally.lossDepth
      if kind == .synced { row.unsynced = enumeration.unsynced }
      row.detail = [tally.firstLoss.map { "first loss: \($0)" }, backend.powerLossNote(variant)]
        .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "; ")
      return row
    }
  }
}
