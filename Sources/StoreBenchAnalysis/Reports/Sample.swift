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
        case "declared_durability": return durability
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
        if let field = Self.measured[name] { return field.get(self) }
        return notes[name].flatMap(Double.init)
    }

    /// Sets the measured value of a numeric column (the inverse of ``number(_:)``, for samples read back).
    mutating func set(_ name: String, _ value: Double) {
        if let field = Self.measured[name] {
            field.set(&self, value)
        } else {
            notes[name] = CSVFormat.number(value, unit: ReportColumns.sample(name).unit)
        }
    }

    /// A measurement stored in a property of its own, read by ``number(_:)`` and written by ``set(_:_:)``.
    struct MeasuredField: Sendable {
        let get: @Sendable (Sample) -> Double?
        let set: @Sendable (inout Sample, Double) -> Void

        /// One of the latency percentiles.
        static func latency(_ get: @escaping @Sendable (LatencyPercentiles) -> Double,
                            _ set: @escaping @Sendable (inout LatencyPercentiles, Double) -> Void) -> MeasuredField {
            MeasuredField(get: { $0.latency.map(get) }, set: { sample, value in
                var percentiles = sample.latency ?? LatencyPercentiles()
                set(&percentiles, value)
                sample.latency = percentiles
            })
        }
    }

    /// The measurements with a property of their own, by column name: the one mapping between the two.
    static let measured: [String: MeasuredField] = [
        "wall_s": .init(get: { $0.wallSeconds }, set: { $0.wallSeconds = $1 }),
        "cpu_user_s": .init(get: { $0.cpuUserSeconds }, set: { $0.cpuUserSeconds = $1 }),
        "cpu_sys_s": .init(get: { $0.cpuSystemSeconds }, set: { $0.cpuSystemSeconds = $1 }),
        "max_rss_kib": .init(get: { Double($0.maxRSSKiB) }, set: { $0.maxRSSKiB = Int64($1) }),
        "mem_growth_kib": .init(get: { $0.memoryGrowthKiB.map(Double.init) }, set: { $0.memoryGrowthKiB = Int64($1) }),
        "other_cpu_s": .init(get: { $0.otherCPUSeconds }, set: { $0.otherCPUSeconds = $1 }),
        "load_1m": .init(get: { $0.loadAverage }, set: { $0.loadAverage = $1 }),
        "repetition_s": .init(get: { $0.repetitionSeconds }, set: { $0.repetitionSeconds = $1 }),
        "prepare_s": .init(get: { $0.prepareSeconds }, set: { $0.prepareSeconds = $1 }),
        "read_bytes": .init(get: { $0.readBytes.map(Double.init) }, set: { $0.readBytes = Int64($1) }),
        "write_bytes": .init(get: { $0.writeBytes.map(Double.init) }, set: { $0.writeBytes = Int64($1) }),
        "store_bytes": .init(get: { Double($0.storeBytes) }, set: { $0.storeBytes = Int64($1) }),
        "store_alloc_bytes": .init(get: { Double($0.storeAllocatedBytes) }, set: { $0.storeAllocatedBytes = Int64($1) }),
        "ops": .init(get: { Double($0.ops) }, set: { $0.ops = Int($1) }),
        "ops_per_s": .init(get: { $0.opsPerSecond }, set: { _, _ in }),  // derived from ops and wall_s
        "p50_us": .latency({ $0.p50 }, { $0.p50 = $1 }),
        "p90_us": .latency({ $0.p90 }, { $0.p90 = $1 }),
        "p99_us": .latency({ $0.p99 }, { $0.p99 = $1 }),
        "p999_us": .latency({ $0.p999 }, { $0.p999 = $1 }),
        "max_us": .latency({ $0.max }, { $0.max = $1 }),
    ]
}
