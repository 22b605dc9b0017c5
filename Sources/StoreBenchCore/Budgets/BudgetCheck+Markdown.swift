extension BudgetCheck {
    /// The verdict line every page opens with.
    public var verdictLine: String {
        let rows = Set(verdicts.map(\.row)).count
        let budgets = Set(verdicts.map(\.budget.path)).count
        return broken.isEmpty
            ? "**Budgets: all kept** — \(budgets) budgets on \(rows) rows of \(run)"
            : "**Budgets: \(broken.count) broken** of \(verdicts.count) judgements (\(budgets) budgets on \(rows) rows of "
                + "\(run))"
    }

    /// The whole check: the verdict, then every budget on every row.
    public func markdown() -> String {
        var lines = [verdictLine, "", "Budgets from `\(file)`; \(Self.method)", ""]
        lines += table(verdicts)
        return lines.joined(separator: "\n") + "\n"
    }

    /// For a CI page: the verdict, then only the broken budgets, then where the full report is.
    public func summary(fullReport: String?) -> String {
        var lines = [verdictLine, ""]
        if !broken.isEmpty { lines += table(broken) + [""] }
        if let fullReport { lines.append("Full report: \(fullReport)") }
        return lines.joined(separator: "\n") + "\n"
    }

    static let method =
        "a latency, count or bytes per operation is judged on the upper end of its median's 95% interval (on the "
        + "median, with its n, where too few repetitions give none); a size on its largest repetition."

    private func table(_ verdicts: [Verdict]) -> [String] {
        ["| | budget | row | measured | limit |", "|---|---|---|---|---:|"]
            + verdicts.map { verdict in
                let cells = [
                    verdict.kept ? "kept" : "**broken**", verdict.budget.name, verdict.row, verdict.evidence,
                    verdict.budget.metric.unit.format(verdict.budget.limit),
                ]
                return "| " + cells.map(MarkdownTable.escape).joined(separator: " | ") + " |"
            }
    }
}
