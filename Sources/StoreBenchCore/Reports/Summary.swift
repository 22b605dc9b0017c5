/// Accumulates the repetitions of each row and produces `summary.csv` rows. Keeps only the numbers it needs.
public struct SummaryBuilder {
    struct Accumulator {
        var wall: [Double] = []
        var opsPerSecond: [Double] = []
        var cpuUser: [Double] = []
        var cpuSystem: [Double] = []
        var rss: [Double] = []
        var readBytes: [Double] = []
        var writeBytes: [Double] = []
        var storeBytes: [Double] = []
        var storeAllocated: [Double] = []
        var latency: [[Double]] = Array(repeating: [], count: LatencyPercentiles.columns.count)
        var failed = 0
        var unsupported = 0
        var settings = ""
        var firstError = ""
    }

    private var order: [RowKey] = []
    private var rows: [RowKey: Accumulator] = [:]

    /// `order` fixes the row order of the summary (the plan's order); rows not in it follow in first-seen order.
    public init(order: [RowKey] = []) {
        var seen = Set<RowKey>()
        self.order = order.filter { seen.insert($0).inserted }
        for key in self.order { rows[key] = Accumulator() }
    }

    public mutating func add(_ sample: Sample) {
        if rows[sample.key] == nil { order.append(sample.key) }
        var row = rows[sample.key, default: Accumulator()]
        if row.settings.isEmpty { row.settings = sample.settings }
        switch sample.status {
        case .ok:
            row.wall.append(sample.wallSeconds)
            row.opsPerSecond.append(sample.opsPerSecond)
            row.cpuUser.append(sample.cpuUserSeconds)
            row.cpuSystem.append(sample.cpuSystemSeconds)
            row.rss.append(Double(sample.maxRSSKiB))
            if let bytes = sample.readBytes { row.readBytes.append(Double(bytes)) }
            if let bytes = sample.writeBytes { row.writeBytes.append(Double(bytes)) }
            row.storeBytes.append(Double(sample.storeBytes))
            row.storeAllocated.append(Double(sample.storeAllocatedBytes))
            for (index, value) in (sample.latency?.values ?? []).enumerated() { row.latency[index].append(value) }
        case .failed:
            row.failed += 1
            if row.firstError.isEmpty { row.firstError = sample.error }
        case .unsupported:
            row.unsupported += 1
            if row.firstError.isEmpty { row.firstError = sample.error }
        }
        rows[sample.key] = row
    }

    /// The `summary.csv` header: stable; new columns are only ever appended.
    public static let header = [
        "scenario", "workload", "backend", "variant", "size", "status", "n", "failed", "median_s", "mean_s",
        "stddev_s", "min_s", "max_s", "ci95_low_s", "ci95_high_s", "median_ops_per_s", "median_cpu_user_s",
        "median_cpu_sys_s", "median_max_rss_kib", "median_read_bytes", "median_write_bytes", "median_store_bytes",
        "median_store_alloc_bytes", "settings", "error", "parameters", "median_s_per_item",
    ] + LatencyPercentiles.columns.map { "median_" + $0 }

    /// One summarized row.
    public struct Row: Sendable {
        public let key: RowKey
        public let status: RowStatus
        public let statistics: Statistics?
        public let failed: Int
        public let medianOpsPerSecond: Double?
        public let settings: String
        public let error: String
        let medians: [Double?]
        /// Medians over repetitions of p50, p90, p99, p99.9 and max (µs).
        public let latencyMedians: [Double?]
    }

    /// Rows in first-seen order. A row is `failed` if any repetition failed, `unsupported` if the backend
    /// declined, else `ok`.
    public var summary: [Row] {
        order.compactMap { key in
            guard let row = rows[key], row.wall.count + row.failed + row.unsupported > 0 else { return nil }
            let status: RowStatus = row.failed > 0 ? .failed : (row.unsupported > 0 && row.wall.isEmpty ? .unsupported : .ok)
            return Row(
                key: key, status: status, statistics: Statistics(row.wall), failed: row.failed,
                medianOpsPerSecond: Statistics.median(row.opsPerSecond), settings: row.settings, error: row.firstError,
                medians: [row.cpuUser, row.cpuSystem, row.rss, row.readBytes, row.writeBytes, row.storeBytes,
                          row.storeAllocated].map(Statistics.median),
                latencyMedians: row.latency.map(Statistics.median))
        }
    }

    /// Whether every row is ok (unsupported rows are not failures).
    public var allSucceeded: Bool { rows.values.allSatisfy { $0.failed == 0 } }

    /// `summary.csv` as rows of cells, header first.
    public var csvRows: [[String]] {
        [Self.header] + summary.map { row in
            let s = row.statistics
            func seconds(_ value: Double?) -> String { value.map(CSVFormat.seconds) ?? "" }
            let secondsMedians = row.medians.prefix(2).map(seconds)
            let countMedians = row.medians.dropFirst(2).map { $0.map { String(Int64($0.rounded())) } ?? "" }
            return [
                row.key.scenario, row.key.workload, row.key.backend, row.key.variant, String(row.key.size),
                row.status.rawValue, String(s?.n ?? 0), String(row.failed), seconds(s?.median), seconds(s?.mean),
                seconds(s?.standardDeviation), seconds(s?.minimum), seconds(s?.maximum),
                seconds(s?.confidence95?.lowerBound), seconds(s?.confidence95?.upperBound),
                row.medianOpsPerSecond.map(CSVFormat.decimal) ?? "",
            ] + secondsMedians + countMedians + [row.settings, row.error, row.key.parameters,
                 s.map { CSVFormat.seconds($0.median / Double(max(row.key.size, 1))) } ?? ""]
                + row.latencyMedians.map { $0.map(CSVFormat.decimal) ?? "" }
        }
    }
}
