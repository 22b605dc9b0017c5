import StoreBenchAnalysis

extension HistoryCheck.Result {
  /// The short page a CI step shows: the verdict line first (the same words as the text's last line), then only the
  /// series the newest commit regressed or improved, then where the full text is.
  public func summary(fullReport: String?) -> String {
    let regressions = self.regressions
    let improvements = newest.filter { $0.verdict == .improvement }
    let verdict =
      "**storebench history check: \(self.verdict)**"
      + (regressions.isEmpty && !improvements.isEmpty ? " — \(improvements.count) series improved" : "")
    var lines = [verdict, ""]
    for (title, items) in [("Regressed", regressions), ("Improved", improvements)] where !items.isEmpty {
      lines += [
        "**\(title)**", "", "| row | metric | ratio | z | p | earlier runs |", "|---|---|---:|---:|---:|---:|",
      ]
      for item in items.sorted(by: { ($0.ratio ?? 1) > ($1.ratio ?? 1) }) {
        lines.append(
          "| \(MarkdownTable.escape(item.key.rowName)) | \(item.key.metric.label) | "
            + "×\(Self.ratio(item.ratio ?? 1)) | "
            + String(format: "%.1f | %.2g | %d |", item.z ?? 0, item.p ?? 1, item.baseline))
      }
      lines.append("")
    }
    let accepted = newest.filter { $0.verdict == .accepted }
    if !accepted.isEmpty {
      lines += ["**Accepted**", "", "| row | metric | ratio | entry | reason |", "|---|---|---:|---|---|"]
      for item in accepted {
        guard let match = item.accepted?.match else { continue }
        let e = MarkdownTable.escape
        lines.append(
          "| \(e(item.key.rowName)) | \(item.key.metric.label) | ×\(Self.ratio(item.ratio ?? 1)) | "
            + "\(e(match.path)) | \(e(match.reason)) |")
      }
      lines.append("")
    }
    if !warnings.isEmpty { lines += warnings.map { "- \(MarkdownTable.escape($0))" } + [""] }
    if let fullReport { lines.append("Full report: \(fullReport)") }
    return lines.joined(separator: "\n") + "\n"
  }
}
