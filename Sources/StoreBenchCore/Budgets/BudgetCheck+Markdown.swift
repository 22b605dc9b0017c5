extension BudgetCheck {
  /// The verdict line every page opens with.
  public var verdictLine: String {
    let rows = Set(verdicts.map(\.row)).count
    let budgets = Set(verdicts.map(\.budget.path)).count
    if !broken.isEmpty {
      return
        "**Budgets: \(broken.count) broken** of \(verdicts.count) judgements (\(budgets) budgets on \(rows) rows of "
        + "\(run))" + (undecided.isEmpty ? "" : "; \(undecided.count) not measured enough")
    }
    return undecided.isEmpty
      ? "**Budgets: all kept** — \(budgets) budgets on \(rows) rows of \(run)"
      : "**Budgets: no answer yet** — \(undecided.count) of \(verdicts.count) judgements not measured enough "
        + "(fewer than \(Self.minimumRepetitions) repetitions that differ), the rest kept (\(budgets) budgets on "
        + "\(rows) rows of \(run))"
  }

  /// The whole check: the verdict, then every budget on every row.
  public func markdown() -> String {
    var lines = [verdictLine, "", "Budgets from `\(file)`; \(Self.method)", ""]
    lines += table(verdicts)
    return lines.joined(separator: "\n") + "\n"
  }

  /// For a CI page: the verdict, then only the broken and unjudged budgets, then where the full report is.
  public func summary(fullReport: String?) -> String {
    var lines = [verdictLine, ""]
    if !broken.isEmpty || !undecided.isEmpty { lines += table(broken + undecided) + [""] }
    if let fullReport { lines.append("Full report: \(fullReport)") }
    return lines.joined(separator: "\n") + "\n"
  }

  static let method =
    "a latency, count or bytes per operation is judged on the upper end of its median's 95% interval (on the "
    + "median, with its n, where too few repetitions give none); a size on its largest repetition; instructions and "
    + "allocations per operation on the count of their counting pass. A budget is kept or broken on "
    + "\(minimumRepetitions) repetitions, on repetitions that all agree, or on a counting pass's count; on fewer it is "
    + "not measured enough."

  private func table(_ verdicts: [Verdict]) -> [String] {
    ["| | budget | row | measured | limit |", "|---|---|---|---|---:|"]
      + verdicts.map { verdict in
        let cells = [
          verdict.outcome == .kept
            ? "kept" : verdict.outcome == .broken ? "**broken**" : "not measured enough",
          verdict.budget.name, verdict.row, verdict.evidence,
          verdict.budget.metric.unit.format(verdict.budget.limit),
        ]
        return "| " + cells.map(MarkdownTable.escape).joined(separator: " | ") + " |"
      }
  }
}
