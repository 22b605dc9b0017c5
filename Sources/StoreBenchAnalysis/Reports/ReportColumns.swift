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
        case identity, outcome, timing, resources, store, latency, launch, workload, detail, statistics, noise, harness, durability
    }

    public let name: String
    public let unit: Unit
    public let polarity: Polarity
    public let aggregation: Aggregation
    public let group: Group
    /// Stable across runs on the same code and data (checksum-like): `compare` judges it without statistics.
    public let deterministic: Bool
    public let description: String

    /// A column of the table (``ReportColumns``), in its compact positional form.
    static func column(_ name: String, _ unit: Unit, _ polarity: Polarity, _ aggregation: Aggregation, _ group: Group,
                       deterministic: Bool = false, _ description: String) -> ReportColumn {
        ReportColumn(name: name, unit: unit, polarity: polarity, aggregation: aggregation, group: group,
                     deterministic: deterministic, description: description)
    }

    /// Whether the column's cells are numbers.
    public var isNumeric: Bool { unit != .text }
}

/// The table of every report column, in file order (new columns are only ever appended).
public enum ReportColumns {
    /// samples.csv: one row per measured repetition.
    public static let samples: [ReportColumn] = [
        .column("scenario", .text, .neither, .key, .identity, "the scenario's name"),
        .column("workload", .text, .neither, .key, .identity, "the workload (storebench list)"),
        .column("backend", .text, .neither, .key, .identity, "the backend (storebench list)"),
        .column("variant", .text, .neither, .key, .identity, "the backend's settings as requested, canonical order"),
        .column("size", .count, .neither, .key, .identity, "the workload's size parameter for this row"),
        .column("repetition", .count, .neither, .none, .identity, "1-based measured repetition (warm-ups are not written)"),
        .column("status", .text, .neither, .first, .outcome, "ok (measured and verified), failed or unsupported"),
        .column("wall_s", .seconds, .lowerIsBetter, .statistic, .timing, "wall-clock time of the timed operation alone"),
        .column("cpu_user_s", .seconds, .lowerIsBetter, .median, .resources, "user CPU time of the process during the timed region"),
        .column("cpu_sys_s", .seconds, .lowerIsBetter, .median, .resources, "system CPU time of the process during the timed region"),
        .column("max_rss_kib", .kibibytes, .lowerIsBetter, .median, .resources,
                "peak resident memory of the whole process (harness and generated data included) during the timed region"),
        .column("read_bytes", .bytes, .lowerIsBetter, .median, .resources, "bytes read from disk during the timed region (/proc/self/io; 0 on a cache hit)"),
        .column("write_bytes", .bytes, .lowerIsBetter, .median, .resources, deterministic: true, "bytes written (dirtied) during the timed region (/proc/self/io)"),
        .column("store_bytes", .bytes, .lowerIsBetter, .median, .store, deterministic: true, "apparent size of the store's files after the operation"),
        .column("store_alloc_bytes", .bytes, .lowerIsBetter, .median, .store, deterministic: true, "disk blocks allocated to the store's files"),
        .column("ops", .count, .higherIsBetter, .none, .timing, deterministic: true, "app operations done in the timed region"),
        .column("ops_per_s", .perSecond, .higherIsBetter, .median, .timing, "ops / wall_s"),
        .column("settings", .text, .neither, .first, .detail, "the settings in force, read back from the library"),
        .column("checksum", .text, .neither, .none, .outcome, "FNV-1a checksum of what verification read back"),
        .column("error", .text, .neither, .first, .outcome, "backend, variant, workload, phase and the library's own message"),
        .column("parameters", .text, .neither, .key, .identity, "every workload parameter of the row"),
        .column("dataset", .text, .neither, .none, .detail, "FNV-1a fingerprint of the generated data"),
        .column("p50_us", .microseconds, .lowerIsBetter, .median, .latency, "median latency of one operation"),
        .column("p90_us", .microseconds, .lowerIsBetter, .median, .latency, "90th percentile latency of one operation"),
        .column("p99_us", .microseconds, .lowerIsBetter, .median, .latency, "99th percentile latency of one operation"),
        .column("p999_us", .microseconds, .lowerIsBetter, .median, .latency, "99.9th percentile latency of one operation"),
        .column("max_us", .microseconds, .lowerIsBetter, .median, .latency, "slowest single operation"),
        .column("resident_pages", .count, .neither, .none, .launch, "store pages still in the page cache after a cold launch's eviction"),
        .column("child_ready_s", .seconds, .lowerIsBetter, .none, .launch, "the launched child's own open → ready time"),
        .column("child_read_bytes", .bytes, .lowerIsBetter, .none, .launch, "the launched child's disk reads from open to ready"),
        .column("note", .text, .neither, .none, .workload, "what else the workload says about the row"),
        .column("hit_ratio", .ratio, .higherIsBetter, .none, .workload, "cache workload: hits / gets"),
        .column("reads", .count, .higherIsBetter, .none, .workload, "sync-while-reading: screens the main thread loaded"),
        .column("query_plan", .text, .neither, .none, .workload, "query workload: EXPLAIN QUERY PLAN or the strategy"),
        .column("mem_growth_kib", .kibibytes, .lowerIsBetter, .median, .resources,
                "peak resident memory during the timed region minus resident memory at its start: what the operation took"),
        .column("other_cpu_s", .seconds, .lowerIsBetter, .median, .noise,
                "CPU time the rest of the machine used during the timed region (/proc/stat busy, steal included, minus this process)"),
        .column("load_1m", .ratio, .lowerIsBetter, .median, .noise, "the 1-minute load average when the operation began"),
        .column("repetition_s", .seconds, .lowerIsBetter, .none, .harness,
                "wall-clock time of the whole repetition: opening and filling the store, the timed operation, verification and clean-up"),
        .column("prepare_s", .seconds, .lowerIsBetter, .none, .harness,
                "wall-clock time of opening and filling the store before the timed region (part of repetition_s)"),
        .column("declared_durability", .text, .neither, .first, .durability,
                "what the variant declares about completed operations (its library's documentation, not a measurement): "
                    + "survives power loss, survives a killed app, may lose data when the app is killed, or in memory "
                    + "only; `storebench report` lowers it where `storebench crash` measured a loss"),
    ]

    /// summary.csv: one row per (workload case, backend variant) over its repetitions.
    public static let summary: [ReportColumn] = keys(["scenario", "workload", "backend", "variant", "size"]) + [
        .column("status", .text, .neither, .first, .outcome, "failed if any repetition failed, unsupported if the backend declined, else ok"),
        .column("n", .count, .neither, .statistic, .statistics, "ok repetitions"),
        .column("failed", .count, .lowerIsBetter, .statistic, .statistics, "failed repetitions"),
        .column("median_s", .seconds, .lowerIsBetter, .statistic, .timing, "median wall_s"),
        .column("mean_s", .seconds, .lowerIsBetter, .statistic, .statistics, "mean wall_s"),
        .column("stddev_s", .seconds, .lowerIsBetter, .statistic, .statistics, "sample standard deviation of wall_s"),
        .column("min_s", .seconds, .lowerIsBetter, .statistic, .statistics, "fastest repetition"),
        .column("max_s", .seconds, .lowerIsBetter, .statistic, .statistics, "slowest repetition"),
        .column("median_ci95_low_s", .seconds, .lowerIsBetter, .statistic, .statistics,
                "distribution-free 95% interval of the median wall_s, low end (order statistic at the run's look "
                    + "schedule's level, 95% for the procedure; empty when n is too small)"),
        .column("median_ci95_high_s", .seconds, .lowerIsBetter, .statistic, .statistics,
                "distribution-free 95% interval of the median wall_s, high end (order statistic at the run's look "
                    + "schedule's level, 95% for the procedure; empty when n is too small)"),
    ] + medians(["ops_per_s", "cpu_user_s", "cpu_sys_s", "max_rss_kib", "read_bytes", "write_bytes", "store_bytes",
                 "store_alloc_bytes"])
      + firsts(["settings", "error"]) + keys(["parameters"]) + [
        .column("median_s_per_item", .seconds, .lowerIsBetter, .statistic, .timing, "median_s / size: comparable across sizes"),
      ] + medians(["p50_us", "p90_us", "p99_us", "p999_us", "max_us"]) + [
        .column("median_ci_coverage", .ratio, .neither, .statistic, .statistics,
                "coverage of the median's interval under the run's stopping rule: exact for a fixed policy, else the "
                    + "Bonferroni bound over the schedule's looks (≥ 0.95 either way)"),
        .column("median_ci_note", .text, .neither, .statistic, .statistics, "why the median's interval is empty, if it is"),
      ] + medians(["mem_growth_kib", "other_cpu_s", "load_1m"]) + [
        .column("noise", .text, .neither, .statistic, .noise,
                "flags: contended (others used the CPUs meanwhile), imprecise (the median's interval is wider than the "
                    + "target precision), no-interval (too few repetitions); empty when none applies"),
        .column("ci_reach", .ratio, .lowerIsBetter, .statistic, .statistics,
                "how far the median's interval reaches from the median: the larger of its two ends' distances, "
                    + "relative to the median (0.05: both ends within ±5%; empty without an interval)"),
        .column("target_precision", .ratio, .neither, .statistic, .statistics,
                "the reach the run aimed for: both ends of the interval within ±this of the median (repetition policy)"),
        .column("target_met", .text, .neither, .statistic, .statistics, "yes when ci_reach ≤ target_precision, else no"),
        .column("stopped", .text, .neither, .statistic, .statistics,
                "why the case left the rotation: precise, max-repetitions, case-time, budget, failed or unsupported"),
        .column("prepare_share", .ratio, .neither, .statistic, .harness,
                "the share of the row's repetition time spent opening and filling its store (prepare_s over "
                    + "repetition_s); a row that stopped for case-time with a large share was cut short by its fill"),
        .column("case_s", .seconds, .lowerIsBetter, .statistic, .harness,
                "wall-clock time the case took over all its repetitions, warm-ups, preparation and verification included"),
      ] + firsts(["declared_durability"])

    /// The sample column called `name` (a programming error when there is none).
    public static func sample(_ name: String) -> ReportColumn {
        guard let column = samples.first(where: { $0.name == name }) else { preconditionFailure("no sample column \(name)") }
        return column
    }

    /// The latency percentile columns of samples.csv.
    public static var latency: [ReportColumn] { samples.filter { $0.group == .latency } }
    /// The workload-specific columns a ``Repetition`` may note.
    public static let notes = Set(samples.filter { $0.group == .launch || $0.group == .workload }.map(\.name))

    private static func keys(_ names: [String]) -> [ReportColumn] { names.map(sample) }
    private static func firsts(_ names: [String]) -> [ReportColumn] { names.map(sample) }

    /// `median_<name>` summary columns of sample columns.
    private static func medians(_ names: [String]) -> [ReportColumn] {
        names.map { name in
            let base = sample(name)
            return .column("median_" + name, base.unit, base.polarity, .median, base.group,
                                deterministic: base.deterministic, "median over ok repetitions of \(name): \(base.description)")
        }
    }
}
