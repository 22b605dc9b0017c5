import Foundation

extension CompareReport {
  /// The short page a CI step shows (`$GITHUB_STEP_SUMMARY`, a pull-request comment): the verdict line first, then
  /// only what regressed and what improved (time and counted costs alike), then where the full report is. Empty of
  /// tables when nothing changed.
  public static func summary(
    _ comparison: Comparison, durability: DurabilityComparison?, underpoweredAllowed: Bool, fullReport: String?
  ) -> String {
    let regressions = comparison.findings.filter { $0.verdict == .regression }
    let improvements = comparison.findings.filter { $0.verdict == .improvement }
    let durabilityRegressed = durability?.hasRegression == true
    let verdict: String
    if !comparison.problems.isEmpty {
      verdict = "**storebench compare: the gate cannot pass** — \(comparison.problems.count) problem(s)"
    } else if !regressions.isEmpty || durabilityRegressed {
      verdict =
        "**storebench compare: \(regressions.count) regression(s)**"
        + (durabilityRegressed ? " and a durability regression" : "")
        + (improvements.isEmpty ? "" : ", \(improvements.count) improvement(s)")
    } else if comparison.hasUnderpowered && !underpoweredAllowed {
      verdict =
        "**storebench compare: underpowered** — no regression found, but some rows had too few repetitions"
    } else {
      verdict =
        "**storebench compare: no regression**"
        + (improvements.isEmpty ? "" : " — \(improvements.count) improvement(s)")
    }
    var lines = [verdict, ""]
    if !comparison.problems.isEmpty {
      lines += comparison.problems.map { "- \(MarkdownTable.escape($0))" } + [""]
    }
    for (title, findings) in [("Regressed", regressions), ("Improved", improvements)] where !findings.isEmpty {
      lines += [
        "**\(title)**", "",
        "| workload | backend | variant | size | metric | baseline | current | ratio | 95% CI |",
        "|---|---|---|---:|---|---:|---:|---:|---:|",
      ]
      for f in findings {
        let ci = f.interval.map { String(format: "%.3f–%.3f", $0.lowerBound, $0.upperBound) } ?? "–"
        let e = MarkdownTable.escape
        lines.append(
          "| \(e(f.key.workload)) | \(e(f.key.backend)) | \(e(f.key.variant)) | \(f.key.size) | \(f.metric.name) | "
            + "\(format(f.baselineMedian, f.metric)) (n=\(f.baselineCount)) | "
            + "\(format(f.currentMedian, f.metric)) (n=\(f.currentCount)) | \(String(format: "%.3f", f.ratio)) | \(ci) |"
        )
      }
      lines.append("")
    }
    if let durability, durability.hasRegression || durability.hasImprovement { lines += [durability.markdown] }
    if let fullReport { lines.append("Full report: \(fullReport)") }
    return lines.joined(separator: "\n") + "\n"
  }
}
