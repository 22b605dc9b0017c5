import StoreBenchContract
import StoreBenchMeasure
/// The status of a result row.
public enum RowStatus: String, Sendable {
    /// Measured and verified.
    case ok
    /// Prepare, measure or verify threw, or verification found the wrong content.
    case failed
    /// The backend cannot do this workload meaningfully (``StoreError/unsupported(_:)``).
    case unsupported
}

/// What identifies a result row: one workload case on one backend variant.
public struct RowKey: Hashable, Sendable {
    public let scenario: String
    public let workload: String
    public let backend: String
    public let variant: String
    public let size: Int
    public let parameters: String

    /// The cell of an identity column (``ReportColumn/Aggregation/key``), nil for any other column.
    func cell(_ name: String) -> String? {
        switch name {
        case "scenario": scenario
        case "workload": workload
        case "backend": backend
        case "variant": variant
        case "size": String(size)
        case "parameters": parameters
        default: nil
        }
    }

    public init(scenario: String, workload: String, backend: String, variant: String, size: Int, parameters: String) {
        self.scenario = scenario
        self.workload = workload
        self.backend = backend
        self.variant = variant
        self.size = size
        self.parameters = parameters
    }
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
    public var readBytes: Int64?
    public var writeBytes: Int64?
    public var storeBytes: Int64 = 0
    public var storeAllocatedBytes: Int64 = 0
    public var ops: Int = 0
    public var settings = ""
    public var checksum = ""
    public var dataset: String
    public var error = ""
    /// Per-operation latency percentiles, for workloads made of many operations.
    public var latency: LatencyPercentiles?
    /// Workload-specific cells by column name (``ReportColumns/notes``).
    public var notes: [String: String] = [:]

    /// A failed row with nothing measured yet: the runner fills it in as the phases pass.
    public init(key: RowKey, repetition: Int, dataset: String) {
        self.key = key
        self.repetition = repetition
        self.dataset = dataset
    }

    public var opsPerSecond: Double { wallSeconds > 0 ? Double(ops) / wallSeconds : 0 }

    /// The `samples.csv` header: ``ReportColumns/samples``.
    public static var header: [String] { ReportColumns.samples.map(\.name) }

    /// The row's cells in ``header`` order. Measurements of failed rows are left empty.
    public var fields: [String] { ReportColumns.samples.map(cell) }

    /// The cell of `column`: text as is, numbers formatted by unit; measurements empty unless the row is ok.
    func cell(_ column: ReportColumn) -> String {
        if let identity = key.cell(column.name) { return identity }
        switch column.name {
        case "repetition": return String(repetition)
        case "status": return status.rawValue
        case "settings": return settings
        case "checksum": return checksum
        case "error": return error
        case "dataset": return dataset
        default:
            if let note = notes[column.name] { return note }
            return number(column.name).map { CSVFormat.number($0, unit: column.unit) } ?? ""
        }
    }

    /// The measured value of a numeric column; nil when the row is not ok or has no such value.
    func number(_ name: String) -> Double? {
        guard status == .ok else { return nil }
        switch name {
        case "wall_s": return wallSeconds
        case "cpu_user_s": return cpuUserSeconds
        case "cpu_sys_s": return cpuSystemSeconds
        case "max_rss_kib": return Double(maxRSSKiB)
        case "mem_growth_kib": return memoryGrowthKiB.map(Double.init)
        case "other_cpu_s": return otherCPUSeconds
        case "load_1m": return loadAverage
        case "read_bytes": return readBytes.map(Double.init)
        case "write_bytes": return writeBytes.map(Double.init)
        case "store_bytes": return Double(storeBytes)
        case "store_alloc_bytes": return Double(storeAllocatedBytes)
        case "ops": return Double(ops)
        case "ops_per_s": return opsPerSecond
        case "p50_us": return latency?.p50
        case "p90_us": return latency?.p90
        case "p99_us": return latency?.p99
        case "p999_us": return latency?.p999
        case "max_us": return latency?.max
        default: return notes[name].flatMap(Double.init)
        }
    }

    /// Sets the measured value of a numeric column (the inverse of ``number(_:)``, for samples read back).
    mutating func set(_ name: String, _ value: Double) {
        var percentiles = latency ?? LatencyPercentiles()
        switch name {
        case "wall_s": wallSeconds = value
        case "cpu_user_s": cpuUserSeconds = value
        case "cpu_sys_s": cpuSystemSeconds = value
        case "max_rss_kib": maxRSSKiB = Int64(value)
        case "mem_growth_kib": memoryGrowthKiB = Int64(value)
        case "other_cpu_s": otherCPUSeconds = value
        case "load_1m": loadAverage = value
        case "read_bytes": readBytes = Int64(value)
        case "write_bytes": writeBytes = Int64(value)
        case "store_bytes": storeBytes = Int64(value)
        case "store_alloc_bytes": storeAllocatedBytes = Int64(value)
        case "ops": ops = Int(value)
        case "p50_us": percentiles.p50 = value
        case "p90_us": percentiles.p90 = value
        case "p99_us": percentiles.p99 = value
        case "p999_us": percentiles.p999 = value
        case "max_us": percentiles.max = value
        case "ops_per_s": return  // derived from ops and wall_s
        default: notes[name] = CSVFormat.number(value, unit: ReportColumns.sample(name).unit)
        }
        if name.hasSuffix("_us") { latency = percentiles }
    }
}
