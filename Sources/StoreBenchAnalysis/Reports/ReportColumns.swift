import StoreBenchContract
import StoreBenchMeasure
/// One column of a report: what it is called, what it measures and how it is read. Every column of samples.csv
/// and summary.csv is defined once, in ``ReportColumns``; the CSV writers, `compare`, `report`, the Markdown
/// table, `storebench columns` and `scripts/plot` are built from that table.
public struct ReportColumn: Sendable, Encodable {
    public enum Unit: String, Sendable, Encodable {
        case text, seconds = "s", microseconds = "µs", bytes = "B", kibibytes = "KiB", count, perSecond = "1/s", ratio
    }

    /// Which way is better, for `compare` and the charts.
    public enum Polarity: String, Sendable, Encodable {
        case lowerIsBetter = "lower", higherIsBetter = "higher", neither
    }

    /// How a summary row gets the column from its repetitions.
    public enum Aggregation: String, Sendable, Encodable {
        /// Identifies the row (scenario, workload, backend, variant, size, parameters).
        case key
        /// The median over ok repetitions (summary column `median_<name>`).
        case median
        /// A statistic of the repetitions' `wall_s` (summary only).
        case statistic
        /// The first repetition's value (settings, the first error).
        case first
        /// Per repetition only: not summarized.
        case none
    }

    /// What the column is about, so scripts can find columns without hard-coding their names.
    public enum Group: String, Sendable, Encodable {
        case identity, outcome, timing, resources, store, latency, launch, detail, statistics
    }

    public let name: String
    public let unit: Unit
    public let polarity: Polarity
    public let aggregation: Aggregation
    public let group: Group
    /// Stable across runs on the same code and data (checksum-like): `compare` judges it without statistics.
    public let deterministic: Bool
    public let description: String

    init(_ name: String, _ unit: Unit, _ polarity: Polarity, _ aggregation: Aggregation, _ group: Group,
         deterministic: Bool = false, _ description: String) {
        self.name = name
        self.unit = unit
        self.polarity = polarity
        self.aggregation = aggregation
        self.group = group
        self.deterministic = deterministic
        self.description = description
    }

    /// Whether the column's cells are numbers.
    public var isNumeric: Bool { unit != .text }
}

/// The table of every report column, in file order (new columns are only ever appended).
public enum ReportColumns {
    /// samples.csv: one row per measured repetition.
    public static let samples: [ReportColumn] = [
        .init("scenario", .text, .neither, .key, .identity, "the scenario's name"),
        .init("workload", .text, .neither, .key, .identity, "the workload (storebench list)"),
        .init("backend", .text, .neither, .key, .identity, "the backend (storebench list)"),
        .init("variant", .text, .neither, .key, .identity, "the backend's settings as requested, canonical order"),
        .init("size", .count, .neither, .key, .identity, "the workload's size parameter for this row"),
        .init("repetition", .count, .neither, .none, .identity, "1-based measured repetition (warm-ups are not written)"),
        .init("status", .text, .neither, .first, .outcome, "ok (measured and verified), failed or unsupported"),
        .init("wall_s", .seconds, .lowerIsBetter, .statistic, .timing, "wall-clock time of the timed operation alone"),
        .init("cpu_user_s", .seconds, .lowerIsBetter, .median, .resources, "user CPU time of the process during the timed region"),
        .init("cpu_sys_s", .seconds, .lowerIsBetter, .median, .resources, "system CPU time of the process during the timed region"),
        .init("max_rss_kib", .kibibytes, .lowerIsBetter, .median, .resources, "peak resident memory of the process during the timed region"),
        .init("read_bytes", .bytes, .lowerIsBetter, .median, .resources, "bytes read from disk during the timed region (/proc/self/io; 0 on a cache hit)"),
        .init("write_bytes", .bytes, .lowerIsBetter, .median, .resources, deterministic: true, "bytes written (dirtied) during the timed region (/proc/self/io)"),
        .init("store_bytes", .bytes, .lowerIsBetter, .median, .store, deterministic: true, "apparent size of the store's files after the operation"),
        .init("store_alloc_bytes", .bytes, .lowerIsBetter, .median, .store, deterministic: true, "disk blocks allocated to the store's files"),
        .init("ops", .count, .higherIsBetter, .none, .timing, deterministic: true, "app operations done in the timed region"),
        .init("ops_per_s", .perSecond, .higherIsBetter, .median, .timing, "ops / wall_s"),
        .init("settings", .text, .neither, .first, .detail, "the settings in force, read back from the library"),
        .init("checksum", .text, .neither, .none, .outcome, "FNV-1a checksum of what verification read back"),
        .init("error", .text, .neither, .first, .outcome, "backend, variant, workload, phase and the library's own message"),
        .init("parameters", .text, .neither, .key, .identity, "every workload parameter of the row"),
        .init("dataset", .text, .neither, .none, .detail, "FNV-1a fingerprint of the generated data"),
        .init("p50_us", .microseconds, .lowerIsBetter, .median, .latency, "median latency of one operation"),
        .init("p90_us", .microseconds, .lowerIsBetter, .median, .latency, "90th percentile latency of one operation"),
        .init("p99_us", .microseconds, .lowerIsBetter, .median, .latency, "99th percentile latency of one operation"),
        .init("p999_us", .microseconds, .lowerIsBetter, .median, .latency, "99.9th percentile latency of one operation"),
        .init("max_us", .microseconds, .lowerIsBetter, .median, .latency, "slowest single operation"),
        .init("resident_pages", .count, .neither, .none, .launch, "store pages still in the page cache after a cold launch's eviction"),
        .init("child_ready_s", .seconds, .lowerIsBetter, .none, .launch, "the launched child's own open → ready time"),
        .init("child_read_bytes", .bytes, .lowerIsBetter, .none, .launch, "the launched child's disk reads from open to ready"),
        .init("note", .text, .neither, .none, .detail, "what else the workload says about the row"),
        .init("hit_ratio", .ratio, .higherIsBetter, .none, .detail, "cache workload: hits / gets"),
        .init("reads", .count, .higherIsBetter, .none, .detail, "sync-while-reading: screens the main thread loaded"),
        .init("query_plan", .text, .neither, .none, .detail, "query workload: EXPLAIN QUERY PLAN or the strategy"),
    ]

    /// summary.csv: one row per (workload case, backend variant) over its repetitions.
    public static let summary: [ReportColumn] = keys(["scenario", "workload", "backend", "variant", "size"]) + [
        .init("status", .text, .neither, .first, .outcome, "failed if any repetition failed, unsupported if the backend declined, else ok"),
        .init("n", .count, .neither, .statistic, .statistics, "ok repetitions"),
        .init("failed", .count, .lowerIsBetter, .statistic, .statistics, "failed repetitions"),
        .init("median_s", .seconds, .lowerIsBetter, .statistic, .timing, "median wall_s"),
        .init("mean_s", .seconds, .lowerIsBetter, .statistic, .statistics, "mean wall_s"),
        .init("stddev_s", .seconds, .lowerIsBetter, .statistic, .statistics, "sample standard deviation of wall_s"),
        .init("min_s", .seconds, .lowerIsBetter, .statistic, .statistics, "fastest repetition"),
        .init("max_s", .seconds, .lowerIsBetter, .statistic, .statistics, "slowest repetition"),
        .init("ci95_low_s", .seconds, .lowerIsBetter, .statistic, .statistics, "95% interval of the mean wall_s (Student's t), low end"),
        .init("ci95_high_s", .seconds, .lowerIsBetter, .statistic, .statistics, "95% interval of the mean wall_s (Student's t), high end"),
    ] + medians(["ops_per_s", "cpu_user_s", "cpu_sys_s", "max_rss_kib", "read_bytes", "write_bytes", "store_bytes",
                 "store_alloc_bytes"])
      + firsts(["settings", "error"]) + keys(["parameters"]) + [
        .init("median_s_per_item", .seconds, .lowerIsBetter, .statistic, .timing, "median_s / size: comparable across sizes"),
      ] + medians(["p50_us", "p90_us", "p99_us", "p999_us", "max_us"])

    /// The sample column called `name` (a programming error when there is none).
    public static func sample(_ name: String) -> ReportColumn {
        guard let column = samples.first(where: { $0.name == name }) else { preconditionFailure("no sample column \(name)") }
        return column
    }

    /// The latency percentile columns of samples.csv.
    public static var latency: [ReportColumn] { samples.filter { $0.group == .latency } }
    /// The workload-specific columns a ``Repetition`` may note.
    public static var notes: [ReportColumn] { samples.filter { $0.group == .launch || $0.group == .detail && $0.name != "settings" && $0.name != "dataset" } }

    private static func keys(_ names: [String]) -> [ReportColumn] { names.map(sample) }
    private static func firsts(_ names: [String]) -> [ReportColumn] { names.map(sample) }

    /// `median_<name>` summary columns of sample columns.
    private static func medians(_ names: [String]) -> [ReportColumn] {
        names.map { name in
            let base = sample(name)
            return ReportColumn("median_" + name, base.unit, base.polarity, .median, base.group,
                                deterministic: base.deterministic, "median over ok repetitions of \(name): \(base.description)")
        }
    }
}
