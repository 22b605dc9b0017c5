import Foundation
import StoreBenchAnalysis

/// How old a save a power cut can take from a strategy, in the app's time: what a profile's
/// `durability: {survive: power-loss, loss_window_ms: W}` asks about (docs/POWER-LOSS.md, "The loss window").
///
/// The evidence is the enumerated crash states of a traced run (``CrashResult/Counts/Enumerated``): in each state,
/// the acknowledged saves it lost. Two figures come from them: `loss_window_ms`, the oldest lost save's age at its
/// cut on the writer's clock, and `loss_depth`, how many of the newest saves a state lost. The crash writer saves
/// back to back, the app does not: a lost save that waits for later saves to become durable waits, in the app, until
/// `loss_depth` later saves have been made. (The crash writer commits each save before acknowledging it,
/// auto-batching strategies included, so a save becomes durable at a sync made for it or for a later save, at the
/// end, or never; never on a timer.) The window in the app's time is therefore the larger of the writer's figure and
/// that wait on the app's cadence (``SaveCadence``): `loss_depth × 86,400,000 / saves a day` ms for an app that saves
/// steadily, and for one that saves in bursts, the wait of the last save before a pause, which crosses the pause —
/// an upper bound, never less than what the model shows.
/// A state that lost every save the run acknowledged shows no bound at all: the model has no periodic writeback, so
/// such a strategy's saves stay unsynced until it syncs, however old they are.
public struct LossWindow: Sendable, Equatable {
  public enum Outcome: Sendable, Equatable {
    /// No crash state lost an acknowledged save, and none was unreadable.
    case noLoss(states: Int)
    /// The oldest save a state lost, in the app's time, from the writer's figure and the depth.
    case bounded(milliseconds: Double, depth: Int, writerMilliseconds: Double, lostStates: Int, states: Int)
    /// Some state lost every save the run acknowledged (`depth` of `acknowledged`), or a store was unreadable.
    case unbounded(reason: String)
    /// No enumerated power-loss states: random cuts and kills cannot bound a window.
    case unmeasured
  }

  public let outcome: Outcome
  /// When the app saves: steadily (86,400,000 / saves a day ms apart) or in bursts.
  public let cadence: SaveCadence
  /// The app's interval between saves (within a burst), in ms.
  public var saveInterval: Double { cadence.everyMilliseconds }

  /// Judges `crash`'s enumerated power-loss states for an app that saves `savesPerDay` times a day, steadily.
  public init(crash: CrashResult?, savesPerDay: Double) {
    self.init(crash: crash, cadence: .steady(savesPerDay: savesPerDay))
  }

  /// Judges `crash`'s enumerated power-loss states for an app that saves on `cadence`.
  public init(crash: CrashResult?, cadence: SaveCadence) {
    self.cadence = cadence
    let kinds = [crash?.synced, crash?.prefix, crash?.torn].compactMap { $0 }
    guard !kinds.isEmpty, kinds.allSatisfy({ $0.enumerated != nil }) else {
      outcome = .unmeasured
      return
    }
    let states = kinds.map(\.states).reduce(0, +)
    if let unreadable = kinds.first(where: { $0.corrupt > 0 }) {
      outcome = .unbounded(
        reason: "\(unreadable.corrupt) crash state\(unreadable.corrupt == 1 ? " was" : "s were") unreadable")
      return
    }
    let lossy = kinds.filter { $0.lost > 0 }
    guard !lossy.isEmpty else {
      outcome = .noLoss(states: states)
      return
    }
    let depth = lossy.compactMap { $0.enumerated?.lossDepth }.max() ?? 0
    let acknowledged = lossy.map(\.acknowledged).max() ?? 0
    guard depth < acknowledged else {
      outcome = .unbounded(
        reason: "a crash state lost all \(MarkdownTable.grouped(Double(acknowledged))) saves the run "
          + "acknowledged: they stay unsynced until the strategy syncs, however old")
      return
    }
    let writer = lossy.compactMap { $0.enumerated?.lossWindowMilliseconds }.max() ?? 0
    outcome = .bounded(
      milliseconds: max(writer, cadence.wait(forLaterSaves: depth)), depth: depth, writerMilliseconds: writer,
      lostStates: lossy.compactMap { $0.enumerated?.lostStates }.reduce(0, +), states: states)
  }

  /// Whether no crash state loses a save acknowledged more than `window` ms before the cut.
  public func meets(_ window: Double) -> Bool {
    switch outcome {
    case .noLoss: true
    case .bounded(let milliseconds, _, _, _, _): milliseconds <= window
    case .unbounded, .unmeasured: false
    }
  }

  /// "loses saves up to 43.2 s old (the newest 1 save, lost in 58 of 160 crash states; 27.3 ms on the writer's
  /// clock)", for the answer's durability cell and verdict.
  public var phrase: String {
    switch outcome {
    case .noLoss(let states):
      return "loses no save in \(MarkdownTable.grouped(Double(states))) crash states"
    case .bounded(let milliseconds, let depth, let writer, let lostStates, let states):
      let wait =
        cadence.burst == nil
        ? "\(depth) × the app's \(Self.age(saveInterval)) between saves"
        : "the last save before a pause waits for \(depth == 1 ? "the next save" : "\(depth) later saves"), "
          + "across the pause (\(cadence.phrase))"
      return "loses saves up to \(Self.age(milliseconds)) old on a power cut (the newest "
        + "\(depth == 1 ? "save" : "\(depth) saves"), lost in \(MarkdownTable.grouped(Double(lostStates))) of "
        + "\(MarkdownTable.grouped(Double(states))) crash states; \(wait), \(Self.age(writer)) on the writer's "
        + "clock)"
    case .unbounded(let reason):
      return "no bound on a lost save's age: \(reason)"
    case .unmeasured:
      return "no loss window measured (it needs the enumerated crash states of a traced run)"
    }
  }

  /// "43.2 s", "850 ms", "4.0 h".
  static func age(_ milliseconds: Double) -> String {
    guard milliseconds.isFinite else { return "unbounded" }
    if milliseconds >= 3_600_000 { return String(format: "%.1f h", milliseconds / 3_600_000) }
    return milliseconds >= 1_000
      ? String(format: "%.1f s", milliseconds / 1_000) : String(format: "%.0f ms", milliseconds)
  }
}

extension LossWindow {
  /// advice.json's `loss_window` of a strategy.
  var record: AdviceRecord.LossWindowRecord {
    var entry = AdviceRecord.LossWindowRecord(
      saveIntervalMilliseconds: NullOr(saveInterval.isFinite ? saveInterval : nil), outcome: "unmeasured")
    if let burst = cadence.burst { (entry.savesPerBurst, entry.pauseMilliseconds) = (burst, cadence.pauseMilliseconds) }
    switch outcome {
    case .noLoss(let states):
      (entry.outcome, entry.states) = ("no-loss", states)
    case .bounded(let milliseconds, let depth, let writer, let lostStates, let states):
      entry.outcome = "bounded"
      (entry.windowMilliseconds, entry.lossDepth, entry.writerWindowMilliseconds) = (milliseconds, depth, writer)
      (entry.lostStates, entry.states) = (lostStates, states)
    case .unbounded(let reason):
      (entry.outcome, entry.reason) = ("unbounded", reason)
    case .unmeasured:
      break
    }
    return entry
  }
}
