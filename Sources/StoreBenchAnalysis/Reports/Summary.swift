import Foundation
import StoreBenchContract
import StoreBenchMeasure

/// Accumulates the repetitions of each row and produces `summary.csv` rows (``ReportColumns/summary``). Keeps
/// only the numbers it needs.
public struct SummaryBuilder {
  struct Accumulator {
    var wall: [Double] = []
    /// Ok repetitions' values of every sample column summarized by its median.
    var values: [SampleColumn: [Double]] = [:]
    /// Sums over ok repetitions, for the contention flag (one repetition is often shorter than a clock tick).
    var wallTotal = 0.0
    var otherCPUTotal = 0.0
    /// Repetition and preparation seconds over the written repetitions (for `prepare_share`).
    var repetitionTotal = 0.0
    var prepareTotal = 0.0
    var failed = 0
    var unsupported = 0
    var settings = ""
    var durability = ""
    var firstError = ""
    /// Why the case left the rotation and the time it took (set by the runner when it ends).
    var stopped = ""
    var caseSeconds: Double?
  }

  private var order: [RowKey] = []
  private var rows: [RowKey: Accumulator] = [:]
  /// The reach the run aimed for (both ends of the median's interval within ±this of the median).
  public let targetPrecision: Double
  /// How the run looked at its rows: the level of every interval (``LookSchedule``).
  public let schedule: LookSchedule
  /// The cores of the machine that ran the samples (for the contention flag).
  public let cores: Int
  /// The files' columns: the summary's are ``ColumnSet/summary``.
  public let columns: ColumnSet

  /// `order` fixes the row order of the summary (the plan's order); rows not in it follow in first-seen order.
  public init(
    order: [RowKey] = [], targetPrecision: Double = NoiseFlags.defaultTargetPrecision,
    schedule: LookSchedule = .single, cores: Int = ProcessInfo.processInfo.activeProcessorCount,
    columns: ColumnSet = .standard
  ) {
    self.columns = columns
    self.targetPrecision = targetPrecision
    self.schedule = schedule
    self.cores = cores
    var seen = Set<RowKey>()
    self.order = order.filter { seen.insert($0).inserted }
    for key in self.order { rows[key] = Accumulator() }
  }

  public mutating func add(_ sample: Sample) {
    if rows[sample.key] == nil { order.append(sample.key) }
    var row = rows[sample.key, default: Accumulator()]
    if row.settings.isEmpty { row.settings = sample.settings }
    if row.durability.isEmpty { row.durability = sample.durability }
    row.repetitionTotal += sample.repetitionSeconds ?? 0
    row.prepareTotal += sample.prepareSeconds ?? 0
    switch sample.status {
    case .ok:
      row.wall.append(sample.wallSeconds)
      row.wallTotal += sample.wallSeconds
      row.otherCPUTotal += sample.otherCPUSeconds ?? 0
      for column in columns.medianColumns {
        if let value = sample.number(column) { row.values[column, default: []].append(value) }
      }
    case .failed:
      row.failed += 1
      if row.firstError.isEmpty { row.firstError = sample.error }
    case .unsupported:
      row.unsupported += 1
      if row.firstError.isEmpty { row.firstError = sample.error }
    case .counted:
      // A counting pass's row: its counts join the medians (they are its only values); no time, no status.
      for column in columns.medianColumns {
        if let value = sample.number(column) { row.values[column, default: []].append(value) }
      }
    }
    rows[sample.key] = row
  }

  /// Records why the row's case left the rotation (``ReportColumns/summary``'s `stopped`) and its total time.
  public mutating func conclude(_ key: RowKey, stopped: String, caseSeconds: Double) {
    guard rows[key] != nil else { return }
    rows[key]?.stopped = stopped
    rows[key]?.caseSeconds = caseSeconds
  }

  /// The `summary.csv` header: ``ColumnSet/summary``.
  public var header: [String] { columns.summaryHeader }

  /// One summarized row.
  public struct Row: Sendable {
    public let key: RowKey
    public let status: RowStatus
    public let statistics: Statistics?
    public let failed: Int
    public let settings: String
    public let durability: String
    public let error: String
    /// Medians over ok repetitions, by sample column (`ops_per_s`, `p99_us`, …).
    public let medians: [SampleColumn: Double]

    /// ``NoiseFlags`` of the row, comma-separated ("" when none applies).
    public let noise: String
    public let targetPrecision: Double
    public let schedule: LookSchedule
    public let stopped: String
    public let caseSeconds: Double?
    /// The share of the repetitions' time spent preparing the store (nil when not recorded).
    public let prepareShare: Double?

    /// How far the median's interval reaches from the median, relative (nil without an interval).
    public var reach: Double? {
      guard let statistics, let interval = statistics.medianInterval else { return nil }
      return NoiseFlags.reach(interval, median: statistics.median)
    }

    public var medianOpsPerSecond: Double? { medians[.opsPerSecond] }

    /// The cell of a ``ReportColumns/summary`` column.
    func cell(_ column: ReportColumn) -> String {
      let s = statistics
      func number(_ value: Double?) -> String { value.map { CSVFormat.number($0, unit: column.unit) } ?? "" }
      switch column.id {
      case .sample(let id):
        if let identity = key.cell(id) { return identity }
        switch id {
        case .status: return status.rawValue
        case .settings: return settings
        case .declaredDurability: return durability
        case .error: return error
        default: preconditionFailure("summary column \(column.name) has no value")
        }
      case .median(let id):
        return number(medians[id])
      case .statistic(let statistic):
        switch statistic {
        case .n: return String(s?.n ?? 0)
        case .failed: return String(failed)
        case .medianSeconds: return number(s?.median)
        case .meanSeconds: return number(s?.mean)
        case .standardDeviation: return number(s?.standardDeviation)
        case .minimumSeconds: return number(s?.minimum)
        case .maximumSeconds: return number(s?.maximum)
        case .intervalLow: return number(s?.medianInterval?.low)
        case .intervalHigh: return number(s?.medianInterval?.high)
        case .coverage: return number(s?.medianInterval == nil ? nil : s.flatMap { schedule.coverage(n: $0.n) })
        case .intervalNote:
          return s.flatMap { MedianInterval.unavailableReason(n: $0.n, alpha: schedule.alpha) } ?? ""
        case .noise: return noise
        case .reach: return number(reach)
        case .targetPrecision: return number(targetPrecision)
        case .targetMet:
          return status == .ok ? (reach.map { $0 <= targetPrecision } == true ? "yes" : "no") : ""
        case .stopped: return stopped
        case .caseSeconds: return number(caseSeconds)
        case .prepareShare: return number(prepareShare)
        case .secondsPerItem: return number(s.map { $0.median / Double(max(key.size, 1)) })
        }
      }
    }
  }

  /// Rows in first-seen order. A row is `failed` if any repetition failed, `unsupported` if the backend
  /// declined, else `ok`.
  public var summary: [Row] {
    order.compactMap { key in
      guard let row = rows[key], row.wall.count + row.failed + row.unsupported > 0 else { return nil }
      let status: RowStatus =
        row.failed > 0 ? .failed : (row.unsupported > 0 && row.wall.isEmpty ? .unsupported : .ok)
      let statistics = Statistics(row.wall, schedule: schedule)
      let medians = row.values.compactMapValues(Statistics.median)
      let noise =
        statistics.map {
          NoiseFlags.flags(
            statistics: $0, medianLoad: medians[.loadAverage], wallTotal: row.wallTotal,
            otherCPUTotal: row.otherCPUTotal, target: targetPrecision, cores: cores)
        } ?? []
      return Row(
        key: key, status: status, statistics: statistics, failed: row.failed,
        settings: row.settings, durability: row.durability, error: row.firstError, medians: medians,
        noise: noise.joined(separator: ","), targetPrecision: targetPrecision, schedule: schedule,
        stopped: row.stopped,
        caseSeconds: row.caseSeconds,
        prepareShare: row.repetitionTotal > 0 ? row.prepareTotal / row.repetitionTotal : nil)
    }
  }

  /// Whether every row is ok (unsupported rows are not failures).
  public var allSucceeded: Bool { rows.values.allSatisfy { $0.failed == 0 } }

  /// `summary.json`: the same rows as summary.csv, one object each, numbers as JSON numbers and empty cells as
  /// null, after `environment` (the run's environment.json as an object).
  public func json(environment: Data) throws -> Data {
    let columns = self.columns.summary
    let rows: [[String: Any]] = summary.map { row in
      var object: [String: Any] = [:]
      for column in columns {
        let cell = row.cell(column)
        if cell.isEmpty {
          object[column.name] = NSNull()
        } else if column.isNumeric, let value = Double(cell) {
          object[column.name] = value
        } else {
          object[column.name] = cell
        }
      }
      return object
    }
    let environmentObject = try JSONSerialization.jsonObject(with: environment)
    let document: [String: Any] = [
      "environment": environmentObject, "rows": rows,
      "columns": columns.map { ["name": $0.name, "unit": $0.unit.rawValue, "description": $0.description] },
    ]
    return try JSONSerialization.data(
      withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
      + Data("\n".utf8)
  }

  /// `summary.csv` as rows of cells, header first.
  public var csvRows: [[String]] {
    [header] + summary.map { row in columns.summary.map(row.cell) }
  }
}
