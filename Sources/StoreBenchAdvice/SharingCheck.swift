import StoreBenchAnalysis
import StoreBenchSharing

/// Whether a strategy keeps a profile's `processes` need, from its `shared` rows: no acknowledged update lost (last
/// writer wins), and no more refused attempts (`SQLITE_BUSY`, `GDBM_CANT_BE_WRITER`) per operation than the profile
/// allows. Counted over every ok repetition. A lost update is a proof on its own; "none lost" needs the first look's
/// repetitions in which the extension was exercised (it worked beside the app: `extension_ops`).
public struct SharingCheck: Sendable, Equatable {
  public let lostUpdates: Int
  /// Stored records destroyed by a rewrite from a copy read in part (``SharedVerification``): worse than lost.
  public let destroyed: Int
  public let refusals: Int
  public let operations: Int
  public let repetitions: Int
  /// Repetitions in which the extension worked beside the app, and the fewest "none lost" needs.
  public let exercised: Int
  public let minimum: Int
  /// The profile's allowance, in percent of the operations.
  public let allowedPercent: Double

  public enum Outcome: Sendable, Equatable { case met, fails, notMeasuredEnough }

  public var outcome: Outcome {
    if lostUpdates > 0 || destroyed > 0 || (exercised >= minimum && refusedPercent > allowedPercent) {
      return .fails
    }
    return exercised >= minimum ? .met : .notMeasuredEnough
  }

  /// "not exercised enough (the extension worked beside the app in 3 of 8 repetitions; 8 needed)".
  public var missing: String {
    "not exercised enough (the extension worked beside the app in \(exercised) of \(repetitions) repetition"
      + "\(repetitions == 1 ? "" : "s"); \(minimum) needed)"
  }

  /// Refused attempts per 100 acknowledged operations.
  public var refusedPercent: Double { operations > 0 ? Double(refusals) * 100 / Double(operations) : 0 }
  public var met: Bool { outcome == .met }

  /// The check of the `shared` rows among `rows`; nil when the profile has no other process or no row ran.
  public init?(rows: [SampleTable.Row], profile: AppProfile, workload: String) {
    guard let processes = profile.processes else { return nil }
    let ok = rows.filter { $0.key.workload == workload && $0.status == .ok }
    guard !ok.isEmpty else { return nil }
    func total(_ column: SampleColumn) -> Int { Int(ok.compactMap { $0.values[column] }.reduce(0, +)) }
    lostUpdates = total(.lostUpdates)
    destroyed = total(.destroyedRecords)
    refusals = total(.refusals)
    operations = total(.ops)
    repetitions = ok.count
    exercised = ok.filter { ($0.values[.extensionOps] ?? 0) > 0 }.count
    minimum = AdvicePlan.minimumRepetitions
    allowedPercent = processes.refusedPercent
  }

  /// The evidence in words: `12 lost updates and 3 refusals in 1,204 operations (0.2%; allowed 0%), 8 repetitions`.
  public var phrase: String {
    (destroyed > 0 ? "\(destroyed) stored record\(destroyed == 1 ? "" : "s") destroyed, " : "")
      + "\(lostUpdates) lost update\(lostUpdates == 1 ? "" : "s") and \(refusals) refused attempt"
      + "\(refusals == 1 ? "" : "s") in \(operations) operations of the app and its extension ("
      + String(format: "%.1f%%; allowed %@%%", refusedPercent, Advice.number(allowedPercent))
      + "), \(repetitions) repetition\(repetitions == 1 ? "" : "s"), the extension exercised in \(exercised)"
  }
}
