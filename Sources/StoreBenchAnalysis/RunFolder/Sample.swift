import StoreBenchContract
import StoreBenchMeasure

/// What identifies a result row: one workload case on one backend variant.
public struct RowKey: Hashable, Sendable {
  public let scenario: String
  public let workload: String
  public let backend: String
  public let variant: String
  public let size: Int
  public let parameters: String

  /// The cell of an identity column (``ReportColumn/Aggregation/key``), nil for any other column.
  func cell(_ column: SampleColumn) -> String? {
    switch column {
    case .scenario: scenario
    case .workload: workload
    case .backend: backend
    case .variant: variant
    case .size: String(size)
    case .parameters: parameters
    default: nil
    }
  }

  public init(scenario: String, workload: String, backend: String, variant: String, size: Int, parameters: String) {
    (self.scenario, self.workload, self.backend, self.variant) = (scenario, workload, backend, variant)
    (self.size, self.parameters) = (size, parameters)
  }

  /// The key of a row given by its cells (a summary or sample row read as `column: cell`); a missing cell is
  /// empty (size 0).
  public init(cells: [String: String]) {
    self.init(
      scenario: cells[.scenario] ?? "", workload: cells[.workload] ?? "", backend: cells[.backend] ?? "",
      variant: cells[.variant] ?? "", size: cells[.size].flatMap { Int($0) } ?? 0,
      parameters: cells[.parameters] ?? "")
  }

  /// What joins a summary row to its samples within one run (the scenario left out): workload, backend, variant,
  /// size and parameters, one text. The history stores it as `row_key`.
  public var joinKey: String {
    [workload, backend, variant, String(size), parameters].joined(separator: "\u{1F}")
  }

  /// The strategy: `backend [variant]`.
  public var strategy: String { "\(backend) [\(variant)]" }
}

/// One measured repetition: a row of `samples.csv`.
public struct Sample: Sendable {
  public var key: RowKey
  public var repetition: Int
  public var status: RowStatus = .failed
  public var wallSeconds: Double = 0
  public var cpuUserSeconds: Double = 0
  public var cpuSystemSeconds: Double = 0
  public var maxRSSKiB: Int64 = 0
  /// Peak resident memory during the timed region minus resident memory at its start (nil where unknown).
  public var memoryGrowthKiB: Int64?
  /// CPU seconds the rest of the machine used during the timed region (nil where unknown).
  public var otherCPUSeconds: Double?
  /// The 1-minute load average when the timed region began (nil where unknown).
  public var loadAverage: Double?
  /// Wall-clock time of the whole repetition: prepare, measure, verify and clean-up (the harness's cost).
  public var repetitionSeconds: Double?
  /// Wall-clock time of opening and filling the store before the timed region (part of `repetitionSeconds`).
  public var prepareSeconds: Double?
  public var readBytes: Int64?
  public var writeBytes: Int64?
  public var storeBytes: Int64 = 0
  public var storeAllocatedBytes: Int64 = 0
  public var ops: Int = 0
  public var settings = ""
  /// The variant's declared durability class (``DurabilityPromise``'s text).
  public var durability = ""
  public var checksum = ""
  public var dataset: String
  public var error = ""
  /// Per-operation latency percentiles, for workloads made of many operations.
  public var latency: LatencyPercentiles?
  /// Workload-specific cells (``ReportColumns/notes``).
  public var notes: [SampleColumn: String] = [:]
  /// Rows of the workload's own tables (`Workload.tables`: `aging`'s `rounds.csv`, not in `samples.csv`), by file name: its
  /// cells after the key's (``WorkloadTableKey``).
  public var tableRows: [String: [[String]]] = [:]
  /// The counted costs of the timed region; a cost that was not counted is absent (its cells stay empty).
  public var costs: [CountedCost: Int64] = [:]
  /// The app data the operation wrote (``WorkloadCase/recordBytesWritten``); nil when it writes none.
  public var recordBytes: Int64?

  /// A failed row with nothing measured yet: the runner fills it in as the phases pass.
  public init(key: RowKey, repetition: Int, dataset: String) {
    self.key = key
    self.repetition = repetition
    self.dataset = dataset
  }

  public var opsPerSecond: Double { wallSeconds > 0 ? Double(ops) / wallSeconds : 0 }

  /// The row's cells in the order of `columns`' samples.csv header. Measurements of failed rows are left empty.
  public func fields(_ columns: ColumnSet) -> [String] { columns.samples.map(cell) }

  /// The cell of `column`: text as is, numbers formatted by unit; measurements empty unless the row is ok.
  func cell(_ column: ReportColumn) -> String {
    guard case .sample(let id) = column.id else { preconditionFailure("\(column.name) is not a sample column") }
    if let identity = key.cell(id) { return identity }
    switch id {
    case .repetition: return String(repetition)
    case .status: return status.rawValue
    case .settings: return settings
    case .declaredDurability: return durability
    case .checksum: return checksum
    case .error: return error
    case .dataset: return dataset
    default:
      if let note = notes[id] { return note }
      return number(id).map { CSVFormat.number($0, unit: column.unit) } ?? ""
    }
  }

  /// The measured value of a numeric column; nil when the row is not ok or has no such value. A counting pass's row
  /// (``RowStatus/counted``) has only its passes' counts.
  public func number(_ column: SampleColumn) -> Double? {
    if status == .counted {
      guard let (cost, perOp) = column.countedCost, cost.pass != nil, let count = costs[cost] else { return nil }
      return perOp ? (ops > 0 ? Double(count) / Double(ops) : nil) : Double(count)
    }
    guard status == .ok else { return nil }
    switch column {
    case .wallSeconds: return wallSeconds
    case .cpuUserSeconds: return cpuUserSeconds
    case .cpuSystemSeconds: return cpuSystemSeconds
    case .maxRSSKiB: return Double(maxRSSKiB)
    case .memoryGrowthKiB: return memoryGrowthKiB.map(Double.init)
    case .otherCPUSeconds: return otherCPUSeconds
    case .loadAverage: return loadAverage
    case .repetitionSeconds: return repetitionSeconds
    case .prepareSeconds: return prepareSeconds
    case .readBytes: return readBytes.map(Double.init)
    case .writeBytes: return writeBytes.map(Double.init)
    case .storeBytes: return Double(storeBytes)
    case .storeAllocatedBytes: return Double(storeAllocatedBytes)
    case .ops: return Double(ops)
    case .opsPerSecond: return opsPerSecond
    case .p50: return latency?.p50
    case .p90: return latency?.p90
    case .p99: return latency?.p99
    case .p999: return latency?.p999
    case .maxLatency: return latency?.max
    case .recordBytes: return recordBytes.map(Double.init)
    case .writeAmplification:
      guard let recordBytes, recordBytes > 0, let written = costs[.writtenBytes], let pages = costs[.pagesDirtied]
      else { return nil }
      let dirtied = pages * 4096
      return Double(max(written, dirtied)) / Double(recordBytes)
    default:
      if let (cost, perOp) = column.countedCost {
        guard let count = costs[cost] else { return nil }
        if !perOp { return Double(count) }
        return ops > 0 ? Double(count) / Double(ops) : nil
      }
      // A workload's own column (standard or declared): its noted cell.
      return notes[column].flatMap(Double.init)
    }
  }

  /// Sets the measured value of a numeric column (the inverse of ``number(_:)``, for samples read back); a
  /// workload's column is noted in `unit` (its ``ReportColumn/unit``).
  public mutating func set(_ column: SampleColumn, _ value: Double, unit: ReportColumn.Unit) {
    switch column {
    case .wallSeconds: wallSeconds = value
    case .cpuUserSeconds: cpuUserSeconds = value
    case .cpuSystemSeconds: cpuSystemSeconds = value
    case .maxRSSKiB: maxRSSKiB = Int64(value)
    case .memoryGrowthKiB: memoryGrowthKiB = Int64(value)
    case .otherCPUSeconds: otherCPUSeconds = value
    case .loadAverage: loadAverage = value
    case .repetitionSeconds: repetitionSeconds = value
    case .prepareSeconds: prepareSeconds = value
    case .readBytes: readBytes = Int64(value)
    case .writeBytes: writeBytes = Int64(value)
    case .storeBytes: storeBytes = Int64(value)
    case .storeAllocatedBytes: storeAllocatedBytes = Int64(value)
    case .ops: ops = Int(value)
    case .opsPerSecond: break  // derived from ops and wall_s
    case .p50: latency = (latency ?? LatencyPercentiles()).with { $0.p50 = value }
    case .p90: latency = (latency ?? LatencyPercentiles()).with { $0.p90 = value }
    case .p99: latency = (latency ?? LatencyPercentiles()).with { $0.p99 = value }
    case .p999: latency = (latency ?? LatencyPercentiles()).with { $0.p999 = value }
    case .maxLatency: latency = (latency ?? LatencyPercentiles()).with { $0.max = value }
    case .recordBytes: recordBytes = Int64(value)
    case .writeAmplification: break  // derived from the counts and record_bytes
    default:
      if let (cost, perOp) = column.countedCost {
        if !perOp { costs[cost] = Int64(value) }  // per operation: derived from the count and ops
        return
      }
      notes[column] = CSVFormat.number(value, unit: unit)
    }
  }
}

extension LatencyPercentiles {
  /// A copy with `change` applied.
  func with(_ change: (inout LatencyPercentiles) -> Void) -> LatencyPercentiles {
    var copy = self
    change(&copy)
    return copy
  }
}
