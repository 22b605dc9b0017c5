import Foundation
import StoreBenchAnalysis
import StoreBenchCore

/// The sentence that says why the budget's rules stopped a strategy on one operation (``LatencyBudget``), from the
/// rows themselves: the operations timed, those over the budget and the slowest.
enum BudgetDropEvidence {
  /// nil unless a row of `rows` says the rules dropped the strategy (`budget_stop` dropped or certain).
  static func sentence(rows: [SampleTable.Row], measure: AdvicePlan.Measure, budget: AppProfile.Budget) -> String? {
    let ok = rows.filter { $0.status == .ok }
    guard let stop = ok.lazy.compactMap({ BudgetStop(rawValue: $0.budgetStop) }).first(where: { $0 != .cut })
    else { return nil }
    let limit = "\(Advice.number(budget.milliseconds)) ms"
    let name = measure.operation.rawValue
    let rule =
      stop == .certain
      ? "no further repetition can undo it"
      : "the early-drop rule (it stops a strategy that meets the budget at most "
        + "\(Int(LatencyBudget.errorRate * 100))% of the time; docs/MEASURING.md) stopped it"
    let reps = "\(ok.count) repetition\(ok.count == 1 ? "" : "s")"
    if measure.wholeRepetition {
      let times = ok.compactMap { row in
        row.values[.wallSeconds].map { $0 + (row.values[.firstReadSeconds] ?? 0) }
      }
      let over = times.filter { $0 * 1_000 > budget.milliseconds }.count
      let slowest = times.max().map(Advice.time) ?? "?"
      let percentile =
        stop == .certain
        ? "; the p\(budget.percentile) of \(AdvicePlan.minimumRepetitions)–\(AdvicePlan.maximumRepetitions) "
          + "repetitions is then over it" : ""
      let what =
        times.count == 1
        ? "its first \(name) took \(slowest), over \(limit)"
        : "\(over) of its first \(times.count) \(name) repetitions took over \(limit) (the slowest \(slowest))"
      return what + percentile + ": " + rule
    }
    let operations = Int(ok.compactMap { $0.values[.ops] }.reduce(0, +))
    let over = Int(ok.compactMap { $0.values[.overBudget] }.reduce(0, +))
    let slowest = ok.compactMap { $0.values[.maxLatency] }.max().map { Advice.time($0 / 1_000_000) } ?? "?"
    let cut = ok.filter { $0.budgetStop == BudgetStop.cut.rawValue }.count
    let cutText =
      cut == 0
      ? ""
      : "; \(cut == 1 ? "1 repetition" : "\(cut) repetitions") cut short once \(cut == 1 ? "its" : "their") own "
        + "p\(budget.percentile) was over the budget"
    return "\(over) of its first \(operations) \(name) operations, in \(reps), took over \(limit) (the "
      + "slowest \(slowest)\(cutText)): " + rule
  }
}
