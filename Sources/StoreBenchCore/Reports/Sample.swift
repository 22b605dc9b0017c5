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
    public var status: RowStatus
    public var wallSeconds: Double
    public var cpuUserSeconds: Double
    public var cpuSystemSeconds: Double
    public var maxRSSKiB: Int64
    public var readBytes: Int64?
    public var writeBytes: Int64?
    public var storeBytes: Int64
    public var storeAllocatedBytes: Int64
    public var ops: Int
    public var settings: String
    public var checksum: String
    public var dataset: String
    public var error: String
    /// Per-operation latency percentiles, for workloads made of many operations.
    public var latency: LatencyPercentiles?
    /// Workload-specific cells by column name (``noteColumns``).
    public var notes: [String: String] = [:]

    /// Workload-specific columns: pages of the store still resident after a cold launch's eviction, the launched
    /// child's own open → ready seconds and disk reads, and a free-text note.
    /// `hit_ratio` of the cache workload, `reads` (screens loaded by the main thread in sync-while-reading) and
    /// `query_plan` (the query workload's plans).
    public static let noteColumns = ["resident_pages", "child_ready_s", "child_read_bytes", "note", "hit_ratio", "reads",
                                     "query_plan"]

    public init(key: RowKey, repetition: Int, status: RowStatus, wallSeconds: Double, cpuUserSeconds: Double,
                cpuSystemSeconds: Double, maxRSSKiB: Int64, readBytes: Int64?, writeBytes: Int64?, storeBytes: Int64,
                storeAllocatedBytes: Int64, ops: Int, settings: String, checksum: String, dataset: String, error: String) {
        self.key = key
        self.repetition = repetition
        self.status = status
        self.wallSeconds = wallSeconds
        self.cpuUserSeconds = cpuUserSeconds
        self.cpuSystemSeconds = cpuSystemSeconds
        self.maxRSSKiB = maxRSSKiB
        self.readBytes = readBytes
        self.writeBytes = writeBytes
        self.storeBytes = storeBytes
        self.storeAllocatedBytes = storeAllocatedBytes
        self.ops = ops
        self.settings = settings
        self.checksum = checksum
        self.dataset = dataset
        self.error = error
    }

    /// A failed row with nothing measured yet: the runner fills it in as the phases pass.
    public init(key: RowKey, repetition: Int, dataset: String) {
        self.init(key: key, repetition: repetition, status: .failed, wallSeconds: 0, cpuUserSeconds: 0, cpuSystemSeconds: 0,
                  maxRSSKiB: 0, readBytes: nil, writeBytes: nil, storeBytes: 0, storeAllocatedBytes: 0, ops: 0, settings: "",
                  checksum: "", dataset: dataset, error: "")
    }

    public var opsPerSecond: Double { wallSeconds > 0 ? Double(ops) / wallSeconds : 0 }

    /// The `samples.csv` header: stable; new columns are only ever appended.
    public static let header = [
        "scenario", "workload", "backend", "variant", "size", "repetition", "status", "wall_s", "cpu_user_s",
        "cpu_sys_s", "max_rss_kib", "read_bytes", "write_bytes", "store_bytes", "store_alloc_bytes", "ops",
        "ops_per_s", "settings", "checksum", "error", "parameters", "dataset",
    ] + LatencyPercentiles.columns + noteColumns

    /// The row's cells in ``header`` order. Measurements of failed rows are left empty.
    public var fields: [String] {
        let measured = status == .ok
        func value(_ text: @autoclosure () -> String) -> String { measured ? text() : "" }
        return [
            key.scenario, key.workload, key.backend, key.variant, String(key.size), String(repetition),
            status.rawValue, value(CSVFormat.seconds(wallSeconds)), value(CSVFormat.seconds(cpuUserSeconds)),
            value(CSVFormat.seconds(cpuSystemSeconds)), value(String(maxRSSKiB)), value(CSVFormat.integer(readBytes)),
            value(CSVFormat.integer(writeBytes)), value(String(storeBytes)), value(String(storeAllocatedBytes)),
            value(String(ops)), value(CSVFormat.decimal(opsPerSecond)), settings, checksum, error,
            key.parameters, dataset,
        ] + latencyCells + Self.noteColumns.map { notes[$0] ?? "" }
    }

    /// The latency columns' cells: empty for failed rows and workloads without per-operation latencies.
    private var latencyCells: [String] {
        guard status == .ok, let latency else { return Array(repeating: "", count: LatencyPercentiles.columns.count) }
        return latency.values.map(CSVFormat.decimal)
    }
}
