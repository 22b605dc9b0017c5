import Foundation
import StoreBenchContract
import StoreBenchMeasure

/// Renders a ``Comparison`` for people (Markdown, e.g. a pull-request comment) and for scripts (CSV).
public enum CompareReport {
  public static func markdown(_ comparison: Comparison, options: Comparison.Options) -> String {
    let counts = Dictionary(grouping: comparison.findings, by: \.verdict).mapValues(\.count)
    var lines = ["### storebench compare", ""]
    if !comparison.problems.isEmpty {
      lines +=
        ["**The gate cannot pass**", ""] + comparison.problems.map { "- \(MarkdownTable.escape($0))" } + [""]
    }
    lines += [
      "\(counts[.regression] ?? 0) regression(s), \(counts[.underpowered] ?? 0) underpowered, "
        + "\(counts[.improvement] ?? 0) improvement(s), \(counts[.withinDrift] ?? 0) within drift, "
        + "\(counts[.inconclusive] ?? 0) inconclusive, \(counts[.unchanged] ?? 0) unchanged"
        + (counts[.accepted].map { ", \($0) accepted " } ?? " ")
        + "(threshold ±\(percent(options.threshold)), alpha \(options.alpha), "
        + "identical repetitions ±\(percent(options.deterministicThreshold)), bytes at least "
        + "\(MarkdownTable.grouped(options.minimumBytes)) B"
        + (options.countTolerances.isEmpty
          ? "" : "; stated count tolerances: " + options.countTolerances.map { "\($0)" }.joined(separator: ", "))
        + ")",
      "",
      options.paired
        ? "Time judged on paired rounds (interleaved in one job): no drift allowance."
        : (comparison.drift.map {
          "Two separate runs: time must also exceed the drift between them, ±"
            + percent(($0.allowance * 100).rounded() / 100)
            + ($0.rows > 0
              ? " (measured on \($0.rows) rows; "
                + String(format: "common shift %.2f×", $0.shift) + ")" : " (given)")
            + ". A smaller change needs `storebench ab` (interleaved)."
        } ?? ""),
      "",
      "| verdict | workload | backend | variant | size | metric | baseline | current | ratio | 95% CI | p | judged by |",
      "|---|---|---|---|---:|---|---:|---:|---:|---:|---:|---|",
    ]
    for f in comparison.findings {
      let ci = f.interval.map { String(format: "%.3f–%.3f", $0.lowerBound, $0.upperBound) } ?? "–"
      let p = f.pValue.map { String(format: "%.4f", $0) } ?? "–"
      let e = MarkdownTable.escape
      lines.append(
        "| \(f.verdict.rawValue) | \(e(f.key.workload)) | \(e(f.key.backend)) | \(e(f.key.variant)) | \(f.key.size) | "
          + "\(f.metric.name) | \(format(f.baselineMedian, f.metric)) (n=\(f.baselineCount)) | "
          + "\(format(f.currentMedian, f.metric)) (n=\(f.currentCount)) | "
          + "\(String(format: "%.3f", f.ratio)) | \(ci) | \(p) | \(e(f.method)) |")
    }
    let counted = comparison.findings.filter {
      $0.metric.isCount && ($0.verdict == .regression || $0.verdict == .improvement)
    }
    if !counted.isEmpty {
      lines +=
        ["", "**Counted costs that changed**", ""]
        + counted.map { "- \(MarkdownTable.escape(countChange($0)))" }
    }
    if !comparison.warnings.isEmpty {
      lines += ["", "**Warnings**", ""] + comparison.warnings.map { "- \(MarkdownTable.escape($0))" }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// "regression: lmdb [txn=each] insert (size 100): syncs_per_op 2.00 → 3.00".
  public static func countChange(_ f: Comparison.Finding) -> String {
    "\(f.verdict.rawValue): \(f.key.backend) [\(f.key.variant)] \(f.key.workload) (size \(f.key.size)): "
      + "\(f.metric.name) \(format(f.baselineMedian, f.metric)) → \(format(f.currentMedian, f.metric))"
  }

  public static let csvHeader = [
    "verdict", "scenario", "workload", "backend", "variant", "size", "metric", "baseline_median", "current_median",
    "baseline_n", "current_n", "ratio", "ci95_low", "ci95_high", "p_value", "method",
  ]

  public static func csv(_ comparison: Comparison) throws -> Data {
    try CSVFormat.encode(
      [csvHeader]
        + comparison.findings.map { f in
          [
            f.verdict.rawValue, f.key.scenario, f.key.workload, f.key.backend, f.key.variant,
            String(f.key.size),
            f.metric.name, number(f.baselineMedian), number(f.currentMedian), String(f.baselineCount),
            String(f.currentCount), number(f.ratio), f.interval.map { number($0.lowerBound) } ?? "",
            f.interval.map { number($0.upperBound) } ?? "", f.pValue.map(number) ?? "", f.method,
          ]
        })
  }

  static func number(_ value: Double) -> String { String(format: "%.9g", value) }
  static func percent(_ value: Double) -> String { String(format: "%g%%", value * 100) }

  /// A metric's value for people, by its unit: durations in µs/ms/s, bytes and counts as whole numbers with
  /// thousands separators, rates to three significant digits.
  static func format(_ value: Double, _ metric: Comparison.Metric) -> String {
    switch metric.column.unit {
    case .seconds: MarkdownTable.duration(value)
    case .microseconds: MarkdownTable.duration(value / 1_000_000)
    case .bytes: MarkdownTable.grouped(value) + " B"
    case .kibibytes: MarkdownTable.grouped(value) + " KiB"
    case .count: MarkdownTable.grouped(value)
    case .countPerOp: String(format: "%.2f", value)
    case .bytesPerOp: String(format: "%.1f B", value)
    default: String(format: "%.3g", value)
    }
  }

  /// The comparison for scripts: problems, warnings and every finding, numbers as JSON numbers.
  public static func json(_ comparison: Comparison, options: Comparison.Options) throws -> Data {
    let findings: [[String: Any]] = comparison.findings.map { f in
      var object: [String: Any] = [
        "verdict": f.verdict.rawValue, "scenario": f.key.scenario, "workload": f.key.workload,
        "backend": f.key.backend, "variant": f.key.variant, "size": f.key.size, "metric": f.metric.name,
        "baseline_median": f.baselineMedian, "current_median": f.currentMedian, "baseline_n": f.baselineCount,
        "current_n": f.currentCount, "ratio": f.ratio.isFinite ? f.ratio : NSNull(),
      ]
      object["ci95_low"] = f.interval.map { $0.lowerBound } ?? NSNull()
      object["ci95_high"] = f.interval.map { $0.upperBound } ?? NSNull()
      object["p_value"] = f.pValue ?? NSNull()
      object["method"] = f.method
      return object
    }
    let document: [String: Any] = [
      "problems": comparison.problems, "warnings": comparison.warnings, "findings": findings,
      "options": [
        "threshold": options.threshold, "alpha": options.alpha,
        "deterministic_threshold": options.deterministicThreshold, "minimum_bytes": options.minimumBytes,
        "paired": options.paired, "drift": comparison.drift.map { $0.allowance as Any } ?? NSNull(),
        "count_tolerances": options.countTolerances.map(\.description),
      ],
    ]
    return try JSONSerialization.data(
      withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
      + Data("\n".utf8)
  }
}
