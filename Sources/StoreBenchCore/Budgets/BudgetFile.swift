import Foundation
import Yams

/// A budgets file (`storebench check --budgets FILE RUN`): absolute limits a team sets on its rows, read strictly
/// like scenarios and profiles.
///
/// ```yaml
/// budgets:
///   - name: opening a conversation     # optional, for messages
///     workload: open-parent            # shell-style globs over the rows; each defaults to *
///     backend: sqlite
///     variant: "*journal=wal*"
///     metric: p99_us                   # BudgetMetric
///     max: 50ms                        # in the metric's unit, or with a unit: 800us, 50ms, 2s; 200MB, 1GiB
///   - {workload: parent-save, metric: written_bytes_per_day, ops_per_day: 20000, max: 1GB}
/// ```
public struct BudgetFile: Sendable {
  public struct Budget: Sendable {
    public var name: String
    public var workload: String
    public var backend: String
    public var variant: String
    public var metric: BudgetMetric
    /// The limit in the metric's unit (µs, a count, bytes).
    public var limit: Double
    /// `written_bytes_per_day`: app operations a day.
    public var opsPerDay: Double?
    /// `budgets[3]`.
    public var path: String
  }

  public var file: String
  public var budgets: [Budget]

  static let topKeys = ["budgets"]
  static let budgetKeys = ["name", "workload", "backend", "variant", "metric", "max", "ops_per_day"]

  /// Reads and parses the file at `path` (at most 1 MiB).
  public static func read(_ path: String) throws -> BudgetFile {
    try parse(NodeReader.contents(ofFile: path, kind: "budgets file", maximumBytes: 1 << 20), file: path)
  }

  public static func parse(_ data: Data, file: String) throws -> BudgetFile {
    guard let root = try NodeReader.document(data, file: file) else {
      throw ScenarioError(file: file, path: "", message: "the file is empty; it needs a list of budgets")
    }
    let reader = NodeReader(file: file)
    let top = try reader.mapping(root, at: "", allowed: topKeys)
    let items = try reader.sequence(top["budgets"], at: "budgets", nonEmpty: true)
    let budgets = try items.enumerated().map { index, node in try budget(node, at: "budgets[\(index)]", reader) }
    return BudgetFile(file: file, budgets: budgets)
  }

  static func budget(_ node: Node, at path: String, _ reader: NodeReader) throws -> Budget {
    let map = try reader.mapping(node, at: path, allowed: budgetKeys)
    let metricName = try reader.string(map["metric"], at: "\(path).metric", required: true)!
    guard let metric = BudgetMetric(name: metricName) else {
      throw reader.error(
        "\(path).metric",
        "unknown metric '\(metricName)'; metrics: \(BudgetMetric.allCases.map(\.name).joined(separator: ", "))"
      )
    }
    let maxText = try reader.string(map["max"], at: "\(path).max", required: true)!
    guard let limit = metric.unit.parse(maxText), limit >= 0 else {
      throw reader.error("\(path).max", "'\(maxText)' is not a limit in \(metric.unit.words)")
    }
    let opsPerDay = try reader.decimal(map["ops_per_day"], at: "\(path).ops_per_day", range: 0...1e12)
    if metric == .writtenBytesPerDay, opsPerDay == nil {
      throw reader.error("\(path).ops_per_day", "required for written_bytes_per_day: the app's operations a day")
    }
    if metric != .writtenBytesPerDay, opsPerDay != nil {
      throw reader.error("\(path).ops_per_day", "only written_bytes_per_day takes ops_per_day")
    }
    let pattern = { (key: String) in try reader.string(map[key], at: "\(path).\(key)", required: false) ?? "*" }
    let (workload, backend, variant) = (try pattern("workload"), try pattern("backend"), try pattern("variant"))
    let name =
      try reader.string(map["name"], at: "\(path).name", required: false)
      ?? "\(metric.name) ≤ \(maxText) for \(workload) on \(backend)[\(variant)]"
    return Budget(
      name: name, workload: workload, backend: backend, variant: variant, metric: metric, limit: limit,
      opsPerDay: opsPerDay, path: path)
  }
}

/// What a budget can limit, by the samples.csv column it reads and how a row's repetitions are judged. Its name in
/// a budget file is the column's, except for the two limits that scale a column (a day's bytes, peak memory).
public enum BudgetMetric: CaseIterable, Sendable {
  case p50, p90, p99, p999, maxLatency, syncsPerOp, writeCallsPerOp, writtenBytesPerOp, filesCreatedPerOp
  case writtenBytesPerDay, storeBytes, storeAllocatedBytes, peakMemory
  /// Counted in a counting pass (`storebench run --count`): one exact count per row.
  case instructionsPerOp, allocationsPerOp, allocatedBytesPerOp

  /// The samples.csv column.
  public var column: SampleColumn {
    switch self {
    case .p50: .p50
    case .p90: .p90
    case .p99: .p99
    case .p999: .p999
    case .maxLatency: .maxLatency
    case .syncsPerOp: .syncsPerOp
    case .writeCallsPerOp: .writeCallsPerOp
    case .writtenBytesPerOp, .writtenBytesPerDay: .writtenBytesPerOp
    case .filesCreatedPerOp: .filesCreatedPerOp
    case .storeBytes: .storeBytes
    case .storeAllocatedBytes: .storeAllocatedBytes
    case .peakMemory: .maxRSSKiB
    case .instructionsPerOp: .instructionsPerOp
    case .allocationsPerOp: .allocationsPerOp
    case .allocatedBytesPerOp: .allocatedBytesPerOp
    }
  }

  /// The metric's name in a budget file.
  public var name: String {
    switch self {
    case .writtenBytesPerDay: "written_bytes_per_day"
    case .peakMemory: "peak_memory_bytes"
    default: column.rawValue
    }
  }

  /// The metric a budget file calls `name`.
  public init?(name: String) {
    guard let metric = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = metric
  }

  /// The factor from the column's unit to the metric's.
  var scale: Double { self == .peakMemory ? 1024 : 1 }

  /// Whether the limit holds for the largest repetition (a size: the store and the process only grow) rather than
  /// for the median's interval.
  public var judgedOnLargest: Bool { [.storeBytes, .storeAllocatedBytes, .peakMemory].contains(self) }

  /// The counting pass that counts the metric (its row is the case's `counted` one); nil: the timed repetitions.
  public var pass: CountingPass? { column.countedCost?.cost.pass }

  public var unit: BudgetUnit {
    switch self {
    case .p50, .p90, .p99, .p999, .maxLatency: .microseconds
    case .syncsPerOp, .writeCallsPerOp, .filesCreatedPerOp, .instructionsPerOp, .allocationsPerOp: .count
    default: .bytes
    }
  }
}

/// A budget's unit: how its limit is written and its values printed.
public enum BudgetUnit: Sendable {
  case microseconds, count, bytes

  var words: String {
    switch self {
    case .microseconds: "microseconds (a number, or with us, ms, s)"
    case .count: "a count per operation"
    case .bytes: "bytes (a number, or with kB, MB, GB, KiB, MiB, GiB)"
    }
  }

  /// `50ms` → 50,000 µs; `1GB` → 1e9 bytes; a bare number is in the unit itself.
  func parse(_ text: String) -> Double? {
    let trimmed = text.replacingOccurrences(of: "_", with: "").trimmingCharacters(in: .whitespaces)
    let suffixes: [(String, Double)] =
      switch self {
      case .microseconds: [("us", 1), ("µs", 1), ("ms", 1e3), ("s", 1e6)]
      case .count: []
      case .bytes:
        [
          ("KiB", 1024), ("MiB", 1_048_576), ("GiB", 1_073_741_824), ("kB", 1e3), ("KB", 1e3), ("MB", 1e6),
          ("GB", 1e9), ("B", 1),
        ]
      }
    for (suffix, factor) in suffixes where trimmed.hasSuffix(suffix) {
      guard let number = Double(trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)),
        number.isFinite
      else { return nil }
      return number * factor
    }
    guard let number = Double(trimmed), number.isFinite else { return nil }
    return number
  }

  /// `12.3 ms`, `1.04`, `1.2 GB`.
  func format(_ value: Double) -> String {
    switch self {
    case .microseconds: MarkdownTable.duration(value / 1e6)
    case .count: value == value.rounded() ? String(Int(value)) : String(format: "%.3g", value)
    case .bytes:
      value >= 1e9
        ? String(format: "%.2f GB", value / 1e9)
        : value >= 1e6 ? String(format: "%.1f MB", value / 1e6) : MarkdownTable.grouped(value) + " B"
    }
  }
}
