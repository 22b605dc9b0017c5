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
    let confirmed = comparison.findings.filter { $0.confirmation?.confirmed == true }
    let cleared = comparison.findings.filter { $0.confirmation?.confirmed == false }
    if !confirmed.isEmpty || !cleared.isEmpty {
      lines += [
        "**Confirm pass**: \(confirmed.count) flagged finding(s) confirmed on fresh rounds, \(cleared.count) cleared",
        "",
        "| outcome | workload | backend | variant | size | metric | first pass | confirm rounds | now |",
        "|---|---|---|---|---:|---|---:|---:|---|",
      ]
      for f in confirmed + cleared {
        guard let look = f.confirmation else { continue }
        let e = MarkdownTable.escape
        let first =
          "\(look.verdict.rawValue) \(String(format: "%.3f", look.ratio))× (\(look.rounds) rounds)"
        let now =
          "\(f.verdict.rawValue)"
          + (f.interval.map { String(format: ", 95%% CI %.3f–%.3f", $0.lowerBound, $0.upperBound) } ?? "")
        lines.append(
          "| \(look.confirmed ? "confirmed" : "cleared") | \(e(f.key.workload)) | \(e(f.key.backend)) | "
            + "\(e(f.key.variant)) | \(f.key.size) | \(f.metric.name) | \(first) | \(look.confirmRounds) | \(now) |")
      }
      lines.append("")
    }
    let accepted = comparison.findings.filter { $0.accepted != nil }
    if !accepted.isEmpty {
      lines += [
        "**Accepted** (\(accepted.count): changes a team meant to make, passed with their reasons)", "",
        "| workload | backend | variant | size | metric | ratio | entry | reason |",
        "|---|---|---|---:|---|---:|---|---|",
      ]
      for f in accepted {
        let e = MarkdownTable.escape
        lines.append(
          "| \(e(f.key.workload)) | \(e(f.key.backend)) | \(e(f.key.variant)) | \(f.key.size) | \(f.metric.name) | "
            + "\(String(format: "%.3f", f.ratio)) | \(e(f.accepted!.path)) | \(e(f.accepted!.reason)) |")
      }
      lines.append("")
    }
    let stale = comparison.warnings.filter { $0.hasPrefix("accepted change ") }
    if !stale.isEmpty { lines += stale.map { "- \(MarkdownTable.escape($0))" } + [""] }
    if let durability, durability.hasRegression || durability.hasImprovement { lines += [durability.markdown] }
    if let fullReport { lines.append("Full report: \(fullReport)") }
    return lines.joined(separator: "\n") + "\n"
  }
}
