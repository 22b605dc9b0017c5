import Foundation
import StoreBenchCore

/// One checker process for every image of an enumerated run (``CrashCheckEachJob``):
/// a fresh process per image spent most of its time starting up (linking, the registry, argument parsing), not
/// opening the store. Each image is still opened by the real library in a process other than the writer's, in a
/// directory of its own. A checker killed by a signal (a library that crashed on a damaged image) counts that image
/// as unreadable, as a per-image checker's death did, and the next image gets a fresh checker.
final class CrashImageChecker {
  private let trials: CrashTrials
  private let batches: Int
  private var child: ChildProcess?
  /// How long one image's check may take before the checker is taken for hung.
  static let timeoutMilliseconds = 300_000

  init(_ trials: CrashTrials, batches: Int) {
    (self.trials, self.batches) = (trials, batches)
  }

  /// The checker's report on the store in `directory`.
  func check(_ directory: URL) throws -> CrashBatches.Report {
    let child = try running()
    try child.send(directory.path)
    if let line = child.nextLine(waitingMilliseconds: Self.timeoutMilliseconds),
      let report = ChildAnswerLine.decode(CrashBatches.Report.self, line)
    {
      return report
    }
    let hung = !child.ended
    let outcome = hung ? child.killAndWait() : child.wait()
    self.child = nil
    try trials.harnessFault("crash checker", outcome)
    if outcome.killedBySignal && !hung { return .checkerKilled(by: outcome.signal) }
    throw HarnessError(
      .crashTrial,
      "crash checker \(trials.backend.name) [\(trials.variant)] on \(directory.lastPathComponent) "
        + (hung ? "answered nothing in \(Self.timeoutMilliseconds / 1_000) s" : outcome.how)
        + ": \(outcome.errors)")
  }

  /// Ends the checker (its input closes; it exits).
  func close() {
    guard let child else { return }
    child.closeInput()
    _ = child.wait()
    self.child = nil
  }

  private func running() throws -> ChildProcess {
    if let child, !child.ended { return child }
    let child = try ChildProcess(
      executable: trials.executable,
      job: CrashCheckEachJob(
        store: ChildStore.named(trials.backend.name, settings: trials.variant.description, directory: ""),
        batch: trials.batchSize, generator: trials.generator, batches: batches),
      input: true)
    trials.bound(child, seconds: .infinity)
    try child.spawn()
    self.child = child
    return child
  }
}
