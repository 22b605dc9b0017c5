import Foundation
import StoreBenchAnalysis

/// `storebench export`: a run's summary in the formats the continuous-benchmarking tools read — the Bencher Metric
/// Format (`{benchmark: {measure: {value, lower_value, upper_value}}}`) and github-action-benchmark's
/// `customSmallerIsBetter` (`[{name, unit, value, range, extra}]`). Only ok rows; the median with its 95% interval
/// where
/// the row has one, and the counted costs where counted. Benchmark names are stable across runs: workload, strategy
/// (backend and variant), size and parameters, so a history kept by those tools matches the same row every time.
public enum Export {
  public enum Format: String, CaseIterable, Sendable {
    case bmf
    case githubActionBenchmark = "github-action-benchmark"
  }

  /// One ok row of a summary.csv.
  public struct Row: Sendable, Equatable {
    public var name: String
    public var median: Double
    public var interval: ClosedRange<Double>?
    public var n: Int
    /// Counted costs per operation (`syncs_per_op`, …) where counted.
    public var counts: [String: Double]
  }

  /// The counts exported beside the time: what the count gate judges.
  public static let countColumns: [SampleColumn] = [
    .syncsPerOp, .filesCreatedPerOp, .renamesPerOp, .writtenBytesPerOp,
  ]

  /// The ok rows of a summary.csv's text. `variantName` names a variant as today's binary does (settings added
  /// since the run at their defaults, ``BackendRegistry/currentVariantText(backend:variant:)``), so an older run's
  /// rows keep the names of today's.
  public static func rows(
    summaryCSV text: String, source: String,
    variantName: (String, String) -> String = { $1 }
  ) throws -> [Row] {
    try StrictCSV.check(text, source: source)
    let (header, cells) = try CSVFormat.decode(text)
    return try rows(header: header, cells: cells, source: source, variantName: variantName)
  }

  /// The ok rows of a run folder's summary (read and checked by ``RunFolder``).
  public static func rows(_ folder: RunFolder, variantName: (String, String) -> String = { $1 }) throws -> [Row] {
    try rows(
      header: folder.summary.header, cells: folder.summary.rows,
      source: folder.url.appendingPathComponent("summary.csv").path, variantName: variantName)
  }

  static func rows(header: [String], cells: [[String]], source: String, variantName: (String, String) -> String)
    throws -> [Row]
  {
    let index = Dictionary(header.enumerated().map { ($0.element, $0.offset) }) { first, _ in first }
    let required =
      [SampleColumn.workload, .backend, .variant, .size, .status].map(ColumnID.sample)
      + [.statistic(.n), .statistic(.medianSeconds)]
    for column in required.map(\.name) where index[column] == nil {
      throw CompareError("\(source): not a storebench summary.csv (no \(column) column)")
    }
    return cells.compactMap { row -> Row? in
      func cell(_ id: ColumnID) -> String { index[id.name].map { row[$0] } ?? "" }
      func cell(_ column: SampleColumn) -> String { cell(.sample(column)) }
      guard cell(.status) == RowStatus.ok.rawValue, let median = Double(cell(.statistic(.medianSeconds))) else {
        return nil
      }
      let low = Double(cell(.statistic(.intervalLow)))
      let high = Double(cell(.statistic(.intervalHigh)))
      let parameters = cell(.parameters)
      let name =
        "\(cell(.workload))/\(cell(.backend)) [\(variantName(cell(.backend), cell(.variant)))]/\(cell(.size))"
        + (parameters.isEmpty ? "" : " (\(parameters))")
      var counts: [String: Double] = [:]
      for column in countColumns {
        if let value = Double(cell(.median(column))) { counts[column.rawValue] = value }
      }
      return Row(
        name: name, median: median, interval: low.flatMap { low in high.map { low...$0 } },
        n: Int(cell(.statistic(.n))) ?? 0, counts: counts)
    }
  }

  /// The rows in `format`, as JSON (keys sorted, so the same run always gives the same bytes).
  public static func encode(_ rows: [Row], as format: Format) throws -> Data {
    let object: Any
    switch format {
    case .bmf:
      var benchmarks: [String: Any] = [:]
      for row in rows {
        var latency: [String: Double] = ["value": row.median * 1e9]
        if let interval = row.interval {
          latency["lower_value"] = interval.lowerBound * 1e9
          latency["upper_value"] = interval.upperBound * 1e9
        }
        var measures: [String: Any] = ["latency": latency]
        for (column, value) in row.counts { measures[column] = ["value": value] }
        benchmarks[row.name] = measures
      }
      object = benchmarks
    case .githubActionBenchmark:
      var entries: [[String: Any]] = []
      for row in rows {
        var entry: [String: Any] = [
          "name": row.name, "unit": "s", "value": row.median,
          "extra": "median of \(row.n) repetitions"
            + (row.interval.map {
              String(format: "; 95%% interval of the median %.9g–%.9g s", $0.lowerBound, $0.upperBound)
            } ?? "; too few repetitions for an interval"),
        ]
        if let interval = row.interval {
          entry["range"] = String(
            format: "± %.9g", max(row.median - interval.lowerBound, interval.upperBound - row.median))
        }
        entries.append(entry)
        for (column, value) in row.counts.sorted(by: { $0.key < $1.key }) {
          entries.append([
            "name": "\(row.name) \(column)",
            "unit": column.replacingOccurrences(of: "_per_op", with: "/op"),
            "value": value, "extra": "median of \(row.n) repetitions, counted",
          ])
        }
      }
      object = entries
    }
    return try JSONSerialization.data(
      withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
      + Data("\n".utf8)
  }
}
