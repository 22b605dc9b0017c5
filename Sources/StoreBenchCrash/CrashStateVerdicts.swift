import Foundation
import StoreBenchCore

/// What the checker found in each crash state of a ``CrashStatePlan``, counted per kind of state: how many states
/// lost an acknowledged batch or came back unreadable, which batches were lost, and the **loss window** — for each
/// state, the age of the oldest acknowledged batch it lost at the (latest) moment of its cut; the largest over the
/// states is how old a lost save can be.
public struct CrashStateVerdicts: Sendable {
  /// One kind of state's counts.
  public struct Tally: Sendable, Equatable {
    public var states = 0
    /// States that lost at least one acknowledged batch (a damaged or unreadable state loses all it held).
    public var lostStates = 0
    /// States that lost a save: an acknowledged batch missing, or a store unreadable or damaged — which loses every
    /// save it held, even one destroyed before the run's first acknowledgement (it held the settled batch 0).
    public var losingStates = 0
    /// States whose store did not open or read, failed its integrity check, or held foreign articles.
    public var corruptStates = 0
    /// States whose store did not open or read at all.
    public var unreadableStates = 0
    /// Distinct acknowledged batches lost in at least one state.
    public var lostBatches: Set<Int> = []
    /// Batches present in part in at least one state.
    public var partialBatches: Set<Int> = []
    /// The largest age of a lost batch at its state's cut (nanoseconds; nil when nothing was lost).
    public var lossWindow: UInt64?
    /// The loss window in acknowledgements: how many of the acknowledgements before a losing state's cut are the
    /// oldest lost one or newer (1: only the newest save can be lost), the largest over the states. An app's
    /// rate of saves turns it into the app's time, which the writer's back-to-back clock is not.
    public var lossDepth: Int?
    /// The first state that lost something, described ("a cut after 1,204 operations (after a sync): …").
    public var firstLoss: String?
  }

  public var tallies: [CrashStatePlan.StateKind: Tally] = [:]
  /// Persistence points, and those whose prefix states were sampled.
  public var points = 0, sampledPoints = 0
  /// Distinct images checked.
  public var images = 0
  /// Batches acknowledged in the run (after the settled batch 0), each once.
  public var acknowledged = 0
  /// The settings the reopened stores report.
  public var settings = ""
  /// Per state (as ``CrashStatePlan/states``): the acknowledged batches it lost, and whether it was corrupt.
  public var stateLosses: [(lost: [Int], corrupt: Bool)] = []

  /// Judges every state of `plan` by the report of its image (`reports[image]`).
  public init(plan: CrashStatePlan, reports: [CrashBatches.Report]) {
    precondition(reports.count == plan.images.count, "one report per distinct image")
    points = plan.points.count
    sampledPoints = plan.points.filter(\.sampled).count
    images = plan.images.count
    acknowledged = Set(plan.points.last?.acknowledged.map(\.batch) ?? []).count
    settings = reports.first { $0.opened }?.settings ?? ""
    for state in plan.states {
      let point = plan.points[state.point]
      let report = reports[state.image]
      var tally = tallies[state.kind] ?? Tally()
      tally.states += 1
      let corrupt = report.isCorrupt
      let kept = report.keptBatches
      let lost = point.acknowledged.filter { !kept.contains($0.batch) }
      if !report.opened { tally.unreadableStates += 1 }
      if corrupt { tally.corruptStates += 1 }
      if corrupt || !lost.isEmpty { tally.losingStates += 1 }
      tally.partialBatches.formUnion(report.partialBatches)
      stateLosses.append((lost.map(\.batch), corrupt))
      if !lost.isEmpty {
        tally.lostStates += 1
        tally.lostBatches.formUnion(lost.map(\.batch))
        let oldest = lost.map(\.time).min()!
        let age = point.time > oldest ? point.time - oldest : 0
        tally.lossWindow = max(tally.lossWindow ?? 0, age)
        let depth = point.acknowledged.filter { $0.time >= oldest }.count
        tally.lossDepth = max(tally.lossDepth ?? 0, depth)
      }
      if (corrupt || !lost.isEmpty) && tally.firstLoss == nil {
        tally.firstLoss = Self.describe(state, at: point, lost: lost.count, report: report)
      }
      tallies[state.kind] = tally
    }
  }

  /// "a cut after 1,204 operations (after a sync), 3 pending kept: lost 2 of 14 acknowledged batches".
  static func describe(
    _ state: CrashStatePlan.State, at point: CrashStatePlan.Point, lost: Int, report: CrashBatches.Report
  ) -> String {
    let moment = point.kinds.sorted().map(\.rawValue).joined(separator: ", ")
    let kept =
      switch state.kind {
      case .synced: "the synced state"
      case .prefix: "\(state.keep) pending operations kept"
      case .torn: "\(state.keep) pending operations kept and \(state.tear) pages of the next write"
      }
    let what =
      lost > 0
      ? "lost \(lost) of \(point.acknowledged.count) acknowledged batches"
      : "no acknowledged batch lost"
    let damage =
      report.opened
      ? (report.integrity == "ok" ? "" : "; integrity: \(report.integrity)") : "; unreadable: \(report.integrity)"
    return "a cut after \(point.end) operations (\(moment)), \(kept): \(what)\(damage)"
  }
}
