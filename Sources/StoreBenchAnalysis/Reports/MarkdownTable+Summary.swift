extension MarkdownTable {
  /// The human summary printed by `run`: one Markdown table row per result row.
  public static func render(_ rows: [SummaryBuilder.Row]) -> String {
    var lines = [
      "| workload | backend | variant | size | n | median | 95% CI of the median | ops/s | noise | status |",
      "|---|---|---|---:|---:|---:|---:|---:|---|---|",
    ]
    for row in rows {
      let s = row.statistics
      let ci =
        s?.medianInterval.map { "\(duration($0.low))–\(duration($0.high))" }
        ?? s.map { "none (n=\($0.n): too few)" } ?? "–"
      let status = row.status == .ok ? "ok" : "\(row.status.rawValue): \(escape(shortened(row.error, to: 100)))"
      lines.append(
        "| \(row.key.workload) | \(row.key.backend) | \(escape(row.key.variant)) | \(row.key.size) | \(s?.n ?? 0) | "
          + "\(s.map { duration($0.median) } ?? "–") | \(ci) | "
          + "\(row.medianOpsPerSecond.map { String(format: "%.0f", $0) } ?? "–") | "
          + "\(row.noise.isEmpty ? "" : "⚠ " + row.noise) | \(status) |")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `text` cut at the last word boundary before `limit` characters, with an ellipsis when cut.
}
