import StoreBenchContract
import StoreBenchMeasure

/// One column of a report: what it is called, what it measures and how it is read. Every column of samples.csv
/// and summary.csv is defined once, in ``ReportColumns``; the CSV writers, `compare`, `report`, the Markdown
/// table, `storebench columns` and `scripts/plot` are built from that table.
public struct ReportColumn: Sendable, Encodable {
  public enum Unit: String, Sendable, Encodable {
    case text
    case seconds = "s"
    case microseconds = "µs"
    case bytes = "B"
    case kibibytes = "KiB"
    case count
    case perSecond = "1/s"
    case ratio
    /// A count or bytes per app operation (fractional).
    case countPerOp = "1/op"
    case bytesPerOp = "B/op"
  }

  /// Which way is better, for `compare` and the charts.
  public enum Polarity: String, Sendable, Encodable {
    case lowerIsBetter = "lower"
    case higherIsBetter = "higher"
    case neither
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
    case identity, outcome, timing, resources, store, latency, launch, workload, detail, statistics, noise, harness,
      durability
    /// Counted costs (system calls, syncs, bytes, faults) over the timed region.
    case counts
  }

  /// The column, typed: code refers to columns by this, never by their names.
  public let id: ColumnID
  /// The column's name in the CSV files (``ColumnID/name``; the table's constructors set it from `id`).
  public let name: String
  public let unit: Unit
  public let polarity: Polarity
  public let aggregation: Aggregation
  public let group: Group
  /// Stable across runs on the same code and data (checksum-like): `compare` judges it without statistics.
  public let deterministic: Bool
  public let description: String

  /// A sample column of the table (``ReportColumns``), in its compact positional form.
  static func column(
    _ id: SampleColumn, _ unit: Unit, _ polarity: Polarity, _ aggregation: Aggregation, _ group: Group,
    deterministic: Bool = false, _ description: String
  ) -> ReportColumn {
    ReportColumn(
      id: .sample(id), name: id.rawValue, unit: unit, polarity: polarity, aggregation: aggregation, group: group,
      deterministic: deterministic, description: description)
  }

  /// A summary statistic of the table.
  static func statistic(
    _ id: SummaryStatistic, _ unit: Unit, _ polarity: Polarity, _ aggregation: Aggregation,
    _ group: Group, _ description: String
  ) -> ReportColumn {
    ReportColumn(
      id: .statistic(id), name: id.rawValue, unit: unit, polarity: polarity, aggregation: aggregation,
      group: group,
      deterministic: false, description: description)
  }

  private enum CodingKeys: String, CodingKey {
    case name, unit, polarity, aggregation, group, deterministic, description
  }

  /// Whether the column's cells are numbers.
  public var isNumeric: Bool { unit != .text }
}

/// The table of every report column, in file order (new columns are only ever appended).
public enum ReportColumns {
  /// samples.csv: one row per measured repetition.
  public static let samples: [ReportColumn] =
    [
      .column(.scenario, .text, .neither, .key, .identity, "the scenario's name"),
      .column(.workload, .text, .neither, .key, .identity, "the workload (storebench list)"),
      .column(.backend, .text, .neither, .key, .identity, "the backend (storebench list)"),
      .column(.variant, .text, .neither, .key, .identity, "the backend's settings as requested, canonical order"),
      .column(.size, .count, .neither, .key, .identity, "the workload's size parameter for this row"),
      .column(
        .repetition, .count, .neither, .none, .identity,
        "1-based measured repetition (warm-ups are not written)"),
      .column(.status, .text, .neither, .first, .outcome, "ok (measured and verified), failed or unsupported"),
      .column(
        .wallSeconds, .seconds, .lowerIsBetter, .statistic, .timing,
        "wall-clock time of the timed operation alone"),
      .column(
        .cpuUserSeconds, .seconds, .lowerIsBetter, .median, .resources,
        "user CPU time of the process during the timed region"),
      .column(
        .cpuSystemSeconds, .seconds, .lowerIsBetter, .median, .resources,
        "system CPU time of the process during the timed region"),
      .column(
        .maxRSSKiB, .kibibytes, .lowerIsBetter, .median, .resources,
        "peak resident memory of the whole process (harness and generated data included) during the timed region"
      ),
      .column(
        .readBytes, .bytes, .lowerIsBetter, .median, .resources,
        "bytes read from disk during the timed region (/proc/self/io; 0 on a cache hit)"),
      .column(
        .writeBytes, .bytes, .lowerIsBetter, .median, .resources, deterministic: true,
        "bytes written (dirtied) during the timed region (/proc/self/io)"),
      .column(
        .storeBytes, .bytes, .lowerIsBetter, .median, .store, deterministic: true,
        "apparent size of the store's files after the operation"),
      .column(
        .storeAllocatedBytes, .bytes, .lowerIsBetter, .median, .store, deterministic: true,
        "disk blocks allocated to the store's files"),
      .column(
        .ops, .count, .higherIsBetter, .none, .timing, deterministic: true,
        "app operations done in the timed region"),
      .column(.opsPerSecond, .perSecond, .higherIsBetter, .median, .timing, "ops / wall_s"),
      .column(.settings, .text, .neither, .first, .detail, "the settings in force, read back from the library"),
      .column(.checksum, .text, .neither, .none, .outcome, "FNV-1a checksum of what verification read back"),
      .column(
        .error, .text, .neither, .first, .outcome,
        "backend, variant, workload, phase and the library's own message"),
      .column(.parameters, .text, .neither, .key, .identity, "every workload parameter of the row"),
      .column(.dataset, .text, .neither, .none, .detail, "FNV-1a fingerprint of the generated data"),
      .column(.p50, .microseconds, .lowerIsBetter, .median, .latency, "median latency of one operation"),
      .column(.p90, .microseconds, .lowerIsBetter, .median, .latency, "90th percentile latency of one operation"),
      .column(.p99, .microseconds, .lowerIsBetter, .median, .latency, "99th percentile latency of one operation"),
      .column(
        .p999, .microseconds, .lowerIsBetter, .median, .latency, "99.9th percentile latency of one operation"),
      .column(.maxLatency, .microseconds, .lowerIsBetter, .median, .latency, "slowest single operation"),
      .column(
        .residentPages, .count, .neither, .none, .launch,
        "store pages still in the page cache after a cold launch's eviction"),
      .column(
        .childReadySeconds, .seconds, .lowerIsBetter, .none, .launch,
        "the launched child's own open → ready time"),
      .column(
        .childReadBytes, .bytes, .lowerIsBetter, .none, .launch,
        "the launched child's disk reads from open to ready"),
      .column(.note, .text, .neither, .none, .workload, "what else the workload says about the row"),
      .column(
        .overBudget, .count, .lowerIsBetter, .none, .workload,
        "a workload with a budget (`budget:`): its operations in the repetition over the budget's latency"),
      .column(
        .budgetStop, .text, .neither, .none, .workload,
        "a workload with a budget: `cut` (the repetition stopped once its own percentile was over the budget; "
          + "not verified), `dropped` (the early-drop rule stopped the strategy on this evidence, error "
          + "≤ 1%), `certain` (no further repetition could undo the miss); empty: measured in full"),
      .column(.hitRatio, .ratio, .higherIsBetter, .none, .workload, "cache workload: hits / gets"),
      .column(
        .reads, .count, .higherIsBetter, .none, .workload, "sync-while-reading: screens the UI thread loaded"),
      .column(
        .queryPlan, .text, .neither, .none, .workload, "query workload: EXPLAIN QUERY PLAN or the strategy"),
      .column(
        .agedAllocatedBytes, .bytes, .lowerIsBetter, .none, .workload,
        "aging: the store's allocated bytes after the churn, before compaction (rounds.csv has every round)"),
      .column(
        .reclaimedBytes, .bytes, .higherIsBetter, .none, .workload,
        "aging: allocated bytes the compaction gave back (aged minus compacted)"),
      .column(
        .listSlowdown, .ratio, .lowerIsBetter, .none, .workload,
        "aging: the launch list's read time after the churn over its time on the freshly loaded store"),
      .column(
        .firstReadSeconds, .seconds, .lowerIsBetter, .none, .workload,
        "migrate: the first full read of every record as version 2 after the migration (a lazy strategy pays its deferred upgrades here)"
      ),
      .column(
        .lostUpdates, .count, .lowerIsBetter, .none, .workload,
        "shared: acknowledged writes missing afterwards, each proven overwritten by another process's later "
          + "rewrite of the same whole file (last writer wins)"),
      .column(
        .destroyedRecords, .count, .lowerIsBetter, .none, .workload,
        "shared: records stored before the processes began and gone after, nobody having written them: a "
          + "process rewrote their whole file from a copy it read in part (data destroyed, worse than a lost "
          + "update)"),
      .column(
        .refusals, .count, .lowerIsBetter, .none, .workload,
        "shared: attempts the library refused because another process held its lock (SQLITE_BUSY, "
          + "GDBM_CANT_BE_WRITER), all processes"),
      .column(
        .retries, .count, .lowerIsBetter, .none, .workload,
        "shared: refused attempts tried again (1, 2, 4, … ms later), all processes"),
      .column(
        .lockWaits, .count, .lowerIsBetter, .none, .workload,
        "shared: lock waits the library let be counted (busy-handler calls; LMDB write begins that waited), "
          + "all processes"),
      .column(
        .lockWaitSeconds, .seconds, .lowerIsBetter, .none, .workload,
        "shared: time waiting for another process's lock (the library's waits and the back-off before "
          + "retries), all processes"),
      .column(
        .lockHoldSeconds, .seconds, .lowerIsBetter, .none, .workload,
        "shared: the longest write (one unit of work, less its lock waits) of any process: how long a "
          + "writer held the lock"),
      .column(
        .extensionOps, .count, .higherIsBetter, .none, .workload,
        "shared: the extensions' acknowledged operations that arrived while the app was working — what "
          + "the extension figures rest on (empty: the extension was not exercised, and the row says why)"),
      .column(
        .extensionP50, .microseconds, .lowerIsBetter, .none, .workload,
        "shared: median latency of the extensions' operations that arrived while the app was working, "
          + "from each one's arrival (so a wait for the app's lock is in it)"),
      .column(
        .extensionP90, .microseconds, .lowerIsBetter, .none, .workload,
        "shared: 90th percentile latency of the extensions' operations that arrived while the app was working"),
      .column(
        .extensionP99, .microseconds, .lowerIsBetter, .none, .workload,
        "shared: 99th percentile latency of the extensions' operations that arrived while the app was working"),
      .column(
        .processes, .text, .neither, .none, .workload,
        "shared: per process, its operations, latency p50/p99, throughput, waits, refusals, retries, "
          + "given-up and failed operations, longest hold and counted costs"),
      .column(
        .memoryGrowthKiB, .kibibytes, .lowerIsBetter, .median, .resources,
        "peak resident memory during the timed region minus resident memory at its start: what the operation took"
      ),
      .column(
        .otherCPUSeconds, .seconds, .lowerIsBetter, .median, .noise,
        "CPU time the rest of the machine used during the timed region (/proc/stat busy, steal included, minus this process)"
      ),
      .column(
        .loadAverage, .ratio, .lowerIsBetter, .median, .noise,
        "the 1-minute load average when the operation began"),
      .column(
        .repetitionSeconds, .seconds, .lowerIsBetter, .none, .harness,
        "wall-clock time of the whole repetition: opening and filling the store, the timed operation, verification and clean-up"
      ),
      .column(
        .prepareSeconds, .seconds, .lowerIsBetter, .none, .harness,
        "wall-clock time of opening and filling the store before the timed region (part of repetition_s)"),
      .column(
        .declaredDurability, .text, .neither, .first, .durability,
        "what the variant declares about completed operations (its library's documentation, not a measurement): "
          + "survives power loss, survives a killed app, may lose data when the app is killed, or in memory "
          + "only; `storebench report` lowers it where `storebench crash` measured a loss"),
    ] + countedColumns + [
      .column(
        .recordBytes, .bytes, .neither, .median, .counts,
        "the app data the operation wrote: the payload of the records it inserted or changed (whole records, "
          + "text as UTF-8, 8 bytes per number or date, 1 per flag); empty for an operation that writes none"),
      .column(
        .writeAmplification, .ratio, .lowerIsBetter, .median, .counts,
        "bytes the operation made the system write per byte of app data: the larger of written_bytes and "
          + "pages_dirtied × 4096 (a store writing through a shared mapping, like GDBM, hands few bytes to "
          + "write calls but dirties pages), over record_bytes"),
    ]

  /// Each ``CountedCost`` in total and per app operation (`syncs`, `syncs_per_op`, …).
  private static var countedColumns: [ReportColumn] {
    CountedCost.allCases.flatMap { cost -> [ReportColumn] in
      let (total, perOp) = SampleColumn.counted(cost)
      let unit: ReportColumn.Unit = cost.isBytes ? .bytes : .count
      return [
        .column(total, unit, .lowerIsBetter, .none, .counts, cost.summary + ", over the timed region"),
        .column(
          perOp, cost.isBytes ? .bytesPerOp : .countPerOp, .lowerIsBetter, .median, .counts,
          "\(total.rawValue) / ops"),
      ]
    }
  }

  /// summary.csv: one row per (workload case, backend variant) over its repetitions.
  public static let summary: [ReportColumn] =
    keys([.scenario, .workload, .backend, .variant, .size]) + [
      .column(
        .status, .text, .neither, .first, .outcome,
        "failed if any repetition failed, unsupported if the backend declined, else ok"),
      .statistic(.n, .count, .neither, .statistic, .statistics, "ok repetitions"),
      .statistic(.failed, .count, .lowerIsBetter, .statistic, .statistics, "failed repetitions"),
      .statistic(.medianSeconds, .seconds, .lowerIsBetter, .statistic, .timing, "median wall_s"),
      .statistic(.meanSeconds, .seconds, .lowerIsBetter, .statistic, .statistics, "mean wall_s"),
      .statistic(
        .standardDeviation, .seconds, .lowerIsBetter, .statistic, .statistics,
        "sample standard deviation of wall_s"),
      .statistic(.minimumSeconds, .seconds, .lowerIsBetter, .statistic, .statistics, "fastest repetition"),
      .statistic(.maximumSeconds, .seconds, .lowerIsBetter, .statistic, .statistics, "slowest repetition"),
      .statistic(
        .intervalLow, .seconds, .lowerIsBetter, .statistic, .statistics,
        "distribution-free 95% interval of the median wall_s, low end (order statistic at the run's look "
          + "schedule's level, 95% for the procedure; empty when n is too small)"),
      .statistic(
        .intervalHigh, .seconds, .lowerIsBetter, .statistic, .statistics,
        "distribution-free 95% interval of the median wall_s, high end (order statistic at the run's look "
          + "schedule's level, 95% for the procedure; empty when n is too small)"),
    ]
    + medians([
      .opsPerSecond, .cpuUserSeconds, .cpuSystemSeconds, .maxRSSKiB, .readBytes, .writeBytes, .storeBytes,
      .storeAllocatedBytes,
    ])
    + firsts([.settings, .error]) + keys([.parameters]) + [
      .statistic(
        .secondsPerItem, .seconds, .lowerIsBetter, .statistic, .timing,
        "median_s / size: comparable across sizes")
    ] + medians([.p50, .p90, .p99, .p999, .maxLatency]) + [
      .statistic(
        .coverage, .ratio, .neither, .statistic, .statistics,
        "coverage of the median's interval under the run's stopping rule: exact for a fixed policy, else the "
          + "Bonferroni bound over the schedule's looks (≥ 0.95 either way)"),
      .statistic(
        .intervalNote, .text, .neither, .statistic, .statistics, "why the median's interval is empty, if it is"),
    ] + medians([.memoryGrowthKiB, .otherCPUSeconds, .loadAverage]) + [
      .statistic(
        .noise, .text, .neither, .statistic, .noise,
        "flags: contended (others used the CPUs meanwhile), imprecise (the median's interval is wider than the "
          + "target precision), no-interval (too few repetitions); empty when none applies"),
      .statistic(
        .reach, .ratio, .lowerIsBetter, .statistic, .statistics,
        "how far the median's interval reaches from the median: the larger of its two ends' distances, "
          + "relative to the median (0.05: both ends within ±5%; empty without an interval)"),
      .statistic(
        .targetPrecision, .ratio, .neither, .statistic, .statistics,
        "the reach the run aimed for: both ends of the interval within ±this of the median (repetition policy)"),
      .statistic(
        .targetMet, .text, .neither, .statistic, .statistics, "yes when ci_reach ≤ target_precision, else no"),
      .statistic(
        .stopped, .text, .neither, .statistic, .statistics,
        "why the case left the rotation: precise, max-repetitions, case-time, budget, failed or unsupported; racing: settled-slower, settled-equivalent, leader or no-answer"
      ),
      .statistic(
        .prepareShare, .ratio, .neither, .statistic, .harness,
        "the share of the row's repetition time spent opening and filling its store (prepare_s over "
          + "repetition_s); a row that stopped for case-time with a large share was cut short by its fill"),
      .statistic(
        .caseSeconds, .seconds, .lowerIsBetter, .statistic, .harness,
        "wall-clock time the case took over all its repetitions, warm-ups, preparation and verification included"
      ),
    ] + firsts([.declaredDurability])
    + medians(CountedCost.allCases.map { SampleColumn.counted($0).perOp } + [.recordBytes, .writeAmplification])

  /// The sample column `id` (every ``SampleColumn`` is in the table; a test checks it).
  public static func sample(_ id: SampleColumn) -> ReportColumn {
    guard let column = samples.first(where: { $0.id == .sample(id) }) else {
      preconditionFailure("no sample column \(id)")
    }
    return column
  }

  /// The sample column called `name` in a file, nil when there is none.
  public static func sample(named name: String) -> ReportColumn? { samples.first { $0.name == name } }

  /// The latency percentile columns of samples.csv.
  public static var latency: [ReportColumn] { samples.filter { $0.group == .latency } }
  /// The workload-specific columns a ``Repetition`` may note.
  public static let notes: Set<SampleColumn> = Set(
    samples.compactMap { column in
      guard column.group == .launch || column.group == .workload, case .sample(let id) = column.id else {
        return nil
      }
      return id
    })

  private static func keys(_ ids: [SampleColumn]) -> [ReportColumn] { ids.map(sample) }
  private static func firsts(_ ids: [SampleColumn]) -> [ReportColumn] { ids.map(sample) }

  /// `median_<name>` summary columns of sample columns.
  private static func medians(_ ids: [SampleColumn]) -> [ReportColumn] {
    ids.map { id in median(of: sample(id), id) }
  }

  /// The `median_<name>` summary column of the sample column `base`.
  static func median(of base: ReportColumn, _ id: SampleColumn) -> ReportColumn {
    ReportColumn(
      id: .median(id), name: ColumnID.median(id).name, unit: base.unit, polarity: base.polarity,
      aggregation: .median, group: base.group, deterministic: base.deterministic,
      description: "median over ok repetitions of \(base.name): \(base.description)")
  }
}
