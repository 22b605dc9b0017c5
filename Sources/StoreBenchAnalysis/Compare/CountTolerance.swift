import Foundation

/// A stated tolerance for a count that moves between identical runs more than compare's exact one
/// (`--deterministic-threshold`, ±1%): `ROWS:METRIC=PERCENT`, as `compare --count-tolerance` reads it. ROWS is a
/// shell-style glob over the row's workload, its `backend[variant]` or its backend (as `--filter` matches rows);
/// METRIC a counted metric (`instructions_per_op`). A count judged exactly — a counting pass's one count per row, or
/// repetitions identical on both sides — of a matching row and metric is held to PERCENT instead; the finding's
/// method names the tolerance that judged it, so a widened gate is seen, not hidden.
///
/// The tolerance is a measurement to state, not a knob to turn until a gate passes: `scripts/count-gate` states the
/// one it uses beside the runs that measured it (docs/COMPARING.md, "How much the counts move").
public struct CountTolerance: Sendable, Equatable, CustomStringConvertible {
  /// The rows' glob.
  public let rows: String
  /// The metric's name.
  public let metric: String
  /// The relative change a count may show and still be unchanged (0.08 = 8%).
  public let fraction: Double

  public init(rows: String, metric: String, fraction: Double) {
    (self.rows, self.metric, self.fraction) = (rows, metric, fraction)
  }

  /// `ROWS:METRIC=PERCENT` (PERCENT as `8%` or `0.08`); nil when it is not of that form. The row glob may hold `:`
  /// (a variant's settings), so the metric is what follows the last `:` before the `=`.
  public init?(parsing text: String) {
    guard let equals = text.lastIndex(of: "=") else { return nil }
    let head = text[..<equals]
    guard let colon = head.lastIndex(of: ":") else { return nil }
    let rows = String(head[..<colon]).trimmingCharacters(in: .whitespaces)
    let metric = String(head[head.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
    var amount = String(text[text.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
    let isPercent = amount.hasSuffix("%")
    if isPercent { amount.removeLast() }
    guard !rows.isEmpty, !metric.isEmpty, let number = Double(amount), number.isFinite, number >= 0,
      isPercent ? number < 100 : number < 1
    else { return nil }
    self.init(rows: rows, metric: metric, fraction: isPercent ? number / 100 : number)
  }

  /// Whether it covers `metric` on the row: its glob matches the workload, `backend[variant]` or the backend.
  public func covers(_ key: ComparisonKey, metric: String) -> Bool {
    guard metric == self.metric else { return false }
    return GlobPattern.matches(rows, key.workload) || GlobPattern.matches(rows, "\(key.backend)[\(key.variant)]")
      || GlobPattern.matches(rows, key.backend)
  }

  public var description: String {
    "\(rows):\(metric)=\(String(format: "%g", fraction * 100))%"
  }

  /// The threshold a count of `metric` on the row is judged against, and the stated tolerance that set it (nil: the
  /// exact one). The first tolerance that covers the row wins.
  static func threshold(
    for key: ComparisonKey, metric: String, in tolerances: [CountTolerance], exact: Double
  ) -> (fraction: Double, stated: CountTolerance?) {
    guard let stated = tolerances.first(where: { $0.covers(key, metric: metric) }) else { return (exact, nil) }
    return (stated.fraction, stated)
  }
}
