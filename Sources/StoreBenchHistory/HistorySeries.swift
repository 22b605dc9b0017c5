import Foundation
import StoreBenchAnalysis

/// One row's values over the history: the same machine, scenario hash, workload, strategy, size, parameters and
/// dataset fingerprint, one metric. Runs that differ in any of those are never in one series.
public struct HistorySeries: Sendable {
  public struct Key: Hashable, Sendable, Comparable {
    public var machine: String
    public var scenarioHash: String
    /// The row, its variant as today's binary names it (settings added since at their defaults).
    public var row: RowKey
    public var dataset: String
    public var metric: Metric

    public var workload: String { row.workload }
    public var backend: String { row.backend }
    public var variant: String { row.variant }
    public var size: Int { row.size }
    public var parameters: String { row.parameters }

    /// The row as people read it, the same name `storebench export` gives it.
    public var rowName: String {
      "\(workload)/\(backend) [\(variant)]/\(size)" + (parameters.isEmpty ? "" : " (\(parameters))")
    }
    /// The machine and scenario the series belongs to: ``HistoryRun/group`` of its runs.
    public var group: String { HistoryRun.group(machine: machine, scenarioHash: scenarioHash) }
    /// The strategy: one line on a workload's chart.
    public var strategy: String { row.strategy }

    public static func < (a: Self, b: Self) -> Bool {
      if (a.machine, a.scenarioHash, a.workload) != (b.machine, b.scenarioHash, b.workload) {
        return (a.machine, a.scenarioHash, a.workload) < (b.machine, b.scenarioHash, b.workload)
      }
      return (a.backend, a.variant, a.size, a.parameters, a.dataset, a.metric) < (
        b.backend, b.variant, b.size, b.parameters, b.dataset, b.metric
      )
    }
  }

  /// What a series follows: the median time, or a counted cost per operation.
  public enum Metric: Sendable, CaseIterable, Comparable {
    case time, syncs, filesCreated, renames, writtenBytes
    /// Counted by a run's counting passes (`run --count`).
    case instructions, allocations

    /// The summary column the series follows.
    public var column: ColumnID {
      switch self {
      case .time: .statistic(.medianSeconds)
      case .syncs: .median(.syncsPerOp)
      case .filesCreated: .median(.filesCreatedPerOp)
      case .renames: .median(.renamesPerOp)
      case .writtenBytes: .median(.writtenBytesPerOp)
      case .instructions: .median(.instructionsPerOp)
      case .allocations: .median(.allocationsPerOp)
      }
    }

    /// The samples.csv column the series' medians are of: the metric's name for `compare` and accepted changes.
    public var sampleColumn: SampleColumn {
      switch self {
      case .time: .wallSeconds
      case .syncs: .syncsPerOp
      case .filesCreated: .filesCreatedPerOp
      case .renames: .renamesPerOp
      case .writtenBytes: .writtenBytesPerOp
      case .instructions: .instructionsPerOp
      case .allocations: .allocationsPerOp
      }
    }

    public var label: String {
      switch self {
      case .time: "median time (s)"
      case .syncs: "syncs per operation"
      case .filesCreated: "files created per operation"
      case .renames: "renames per operation"
      case .writtenBytes: "bytes written per operation"
      case .instructions: "instructions per operation"
      case .allocations: "allocations per operation"
      }
    }
    /// What ``HistoryCheck`` adds before taking the log: nothing for time (never 0), a hundredth of a count for
    /// counts per operation (often 0), a byte for bytes.
    public var offset: Double {
      switch self {
      case .time: 0
      case .writtenBytes: 1
      case .syncs, .filesCreated, .renames, .instructions, .allocations: 0.01
      }
    }
    /// Counts are deterministic for a given build: their series have no run-to-run noise of their own.
    public var isCount: Bool { self != .time }

    public static func < (a: Self, b: Self) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
  }

  public struct Point: Sendable {
    public var run: HistoryRun
    public var rowKey: String
    public var value: Double
    /// The median's 95% interval in that run, when it had one.
    public var interval: ClosedRange<Double>?
    public var n: Int
  }

  public var key: Key
  /// Oldest commit first.
  public var points: [Point]

  /// Builds every series of `rows`: a point per run where the row was ok and the metric present (a metric a run did
  /// not record is absent, never zero). `variantName` names a stored variant as today's binary does.
  public static func build(
    runs: [HistoryRun], rows: [HistoryRow],
    variantName: (String, String) -> String = { $1 }
  ) -> [HistorySeries] {
    let byID = Dictionary(uniqueKeysWithValues: runs.map { ($0.id, $0) })
    let position = Dictionary(uniqueKeysWithValues: runs.enumerated().map { ($0.element.id, $0.offset) })
    var series: [Key: [Point]] = [:]
    var names: [String: String] = [:]
    for row in rows {
      guard let run = byID[row.run] else { continue }
      let nameKey = row.key.backend + "\u{1F}" + row.key.variant
      let variant = names[nameKey] ?? variantName(row.key.backend, row.key.variant)
      names[nameKey] = variant
      for metric in Metric.allCases {
        guard let value = row.cells[metric.column].flatMap(Double.init), value.isFinite else { continue }
        let key = Key(
          machine: run.machine, scenarioHash: run.scenarioHash,
          row: RowKey(
            scenario: "", workload: row.key.workload, backend: row.key.backend, variant: variant,
            size: row.key.size, parameters: row.key.parameters),
          dataset: row.dataset, metric: metric)
        var interval: ClosedRange<Double>?
        if metric == .time, let low = row.cells[.intervalLow].flatMap(Double.init),
          let high = row.cells[.intervalHigh].flatMap(Double.init), low <= high
        {
          interval = low...high
        }
        series[key, default: []].append(
          Point(run: run, rowKey: row.key.joinKey, value: value, interval: interval, n: row.n))
      }
    }
    return series.map { key, points in
      HistorySeries(key: key, points: points.sorted { position[$0.run.id]! < position[$1.run.id]! })
    }.sorted { $0.key < $1.key }
  }
}
