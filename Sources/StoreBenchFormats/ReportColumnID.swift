import StoreBenchMeasure

/// A column of samples.csv, named once: its raw value is the column's name in every file, and code refers to it by
/// its static member, so a misspelt column is a compile error. The standard columns are the static members below; a
/// workload declares its own with ``init(declaring:)`` (``ReportColumn/declared(_:_:_:aggregation:_:)``).
public struct SampleColumn: RawRepresentable, Hashable, Sendable, Encodable, CustomStringConvertible {
  /// The column's name in the files.
  public let rawValue: String

  /// The column called `rawValue`: nil unless it is a name a column may have (``isValidName(_:)``).
  public init?(rawValue: String) {
    guard Self.isValidName(rawValue) else { return nil }
    self.rawValue = rawValue
  }

  /// A workload's own column, called `name` (lower-case letters, digits and `_`, starting with a letter).
  public init(declaring name: String) {
    precondition(Self.isValidName(name), "\(name) is not a column name (a-z, 0-9 and _, starting with a letter)")
    rawValue = name
  }

  private init(_ name: String) { rawValue = name }

  /// Whether `name` may name a column: 1–64 lower-case ASCII letters, digits and `_`, starting with a letter.
  public static func isValidName(_ name: String) -> Bool {
    guard let first = name.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first),
      name.utf8.count <= 64
    else { return false }
    return name.utf8.allSatisfy { byte in
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        || byte == UInt8(ascii: "_")
    }
  }

  public var description: String { rawValue }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// The standard columns, in the order they were defined (``ReportColumns/samples`` holds each once).
  public static let allCases: [SampleColumn] = [
    .scenario, .workload, .backend, .variant, .size, .repetition, .status, .wallSeconds, .cpuUserSeconds,
    .cpuSystemSeconds, .maxRSSKiB, .readBytes, .writeBytes, .storeBytes, .storeAllocatedBytes, .ops, .opsPerSecond,
    .settings, .checksum, .error, .parameters, .dataset, .p50, .p90, .p99, .p999, .maxLatency, .residentPages,
    .childReadySeconds, .childReadBytes, .note, .hitRatio, .reads, .queryPlan, .agedAllocatedBytes, .reclaimedBytes,
    .listSlowdown, .firstReadSeconds, .lostUpdates, .destroyedRecords, .refusals, .retries, .lockWaits,
    .lockWaitSeconds, .lockHoldSeconds, .extensionOps, .extensionP50, .extensionP90, .extensionP99, .processes,
    .overBudget, .budgetStop, .memoryGrowthKiB, .otherCPUSeconds, .loadAverage, .repetitionSeconds, .prepareSeconds,
    .declaredDurability, .syncs, .writeCalls, .writtenBytes, .readCalls, .readBytesLogical, .renames, .unlinks,
    .filesCreated, .faultsMajor, .faultsMinor, .contextSwitches, .pagesDirtied, .syncsPerOp, .writeCallsPerOp,
    .writtenBytesPerOp, .readCallsPerOp, .readBytesLogicalPerOp, .renamesPerOp, .unlinksPerOp, .filesCreatedPerOp,
    .faultsMajorPerOp, .faultsMinorPerOp, .contextSwitchesPerOp, .pagesDirtiedPerOp, .recordBytes,
    .writeAmplification, .instructions, .instructionsPerOp, .allocations, .allocationsPerOp, .allocatedBytes,
    .allocatedBytesPerOp, .frees, .freesPerOp,
  ]

  public static let scenario = SampleColumn("scenario")
  public static let workload = SampleColumn("workload")
  public static let backend = SampleColumn("backend")
  public static let variant = SampleColumn("variant")
  public static let size = SampleColumn("size")
  public static let repetition = SampleColumn("repetition")
  public static let status = SampleColumn("status")
  public static let wallSeconds = SampleColumn("wall_s")
  public static let cpuUserSeconds = SampleColumn("cpu_user_s")
  public static let cpuSystemSeconds = SampleColumn("cpu_sys_s")
  public static let maxRSSKiB = SampleColumn("max_rss_kib")
  public static let readBytes = SampleColumn("read_bytes")
  public static let writeBytes = SampleColumn("write_bytes")
  public static let storeBytes = SampleColumn("store_bytes")
  public static let storeAllocatedBytes = SampleColumn("store_alloc_bytes")
  public static let ops = SampleColumn("ops")
  public static let opsPerSecond = SampleColumn("ops_per_s")
  public static let settings = SampleColumn("settings")
  public static let checksum = SampleColumn("checksum")
  public static let error = SampleColumn("error")
  public static let parameters = SampleColumn("parameters")
  public static let dataset = SampleColumn("dataset")
  public static let p50 = SampleColumn("p50_us")
  public static let p90 = SampleColumn("p90_us")
  public static let p99 = SampleColumn("p99_us")
  public static let p999 = SampleColumn("p999_us")
  public static let maxLatency = SampleColumn("max_us")
  public static let residentPages = SampleColumn("resident_pages")
  public static let childReadySeconds = SampleColumn("child_ready_s")
  public static let childReadBytes = SampleColumn("child_read_bytes")
  public static let note = SampleColumn("note")
  public static let hitRatio = SampleColumn("hit_ratio")
  public static let reads = SampleColumn("reads")
  public static let queryPlan = SampleColumn("query_plan")
  public static let agedAllocatedBytes = SampleColumn("aged_alloc_bytes")
  public static let reclaimedBytes = SampleColumn("reclaimed_bytes")
  public static let listSlowdown = SampleColumn("list_slowdown")
  public static let firstReadSeconds = SampleColumn("first_read_s")
  public static let lostUpdates = SampleColumn("lost_updates")
  public static let destroyedRecords = SampleColumn("destroyed_records")
  public static let refusals = SampleColumn("refusals")
  public static let retries = SampleColumn("retries")
  public static let lockWaits = SampleColumn("lock_waits")
  public static let lockWaitSeconds = SampleColumn("lock_wait_s")
  public static let lockHoldSeconds = SampleColumn("lock_hold_max_s")
  public static let extensionOps = SampleColumn("extension_ops")
  public static let extensionP50 = SampleColumn("extension_p50_us")
  public static let extensionP90 = SampleColumn("extension_p90_us")
  public static let extensionP99 = SampleColumn("extension_p99_us")
  public static let processes = SampleColumn("processes")
  public static let overBudget = SampleColumn("over_budget")
  public static let budgetStop = SampleColumn("budget_stop")
  public static let memoryGrowthKiB = SampleColumn("mem_growth_kib")
  public static let otherCPUSeconds = SampleColumn("other_cpu_s")
  public static let loadAverage = SampleColumn("load_1m")
  public static let repetitionSeconds = SampleColumn("repetition_s")
  public static let prepareSeconds = SampleColumn("prepare_s")
  public static let declaredDurability = SampleColumn("declared_durability")
  public static let syncs = SampleColumn("syncs")
  public static let writeCalls = SampleColumn("write_calls")
  public static let writtenBytes = SampleColumn("written_bytes")
  public static let readCalls = SampleColumn("read_calls")
  public static let readBytesLogical = SampleColumn("read_bytes_logical")
  public static let renames = SampleColumn("renames")
  public static let unlinks = SampleColumn("unlinks")
  public static let filesCreated = SampleColumn("files_created")
  public static let faultsMajor = SampleColumn("faults_major")
  public static let faultsMinor = SampleColumn("faults_minor")
  public static let contextSwitches = SampleColumn("context_switches")
  public static let pagesDirtied = SampleColumn("pages_dirtied")
  public static let syncsPerOp = SampleColumn("syncs_per_op")
  public static let writeCallsPerOp = SampleColumn("write_calls_per_op")
  public static let writtenBytesPerOp = SampleColumn("written_bytes_per_op")
  public static let readCallsPerOp = SampleColumn("read_calls_per_op")
  public static let readBytesLogicalPerOp = SampleColumn("read_bytes_logical_per_op")
  public static let renamesPerOp = SampleColumn("renames_per_op")
  public static let unlinksPerOp = SampleColumn("unlinks_per_op")
  public static let filesCreatedPerOp = SampleColumn("files_created_per_op")
  public static let faultsMajorPerOp = SampleColumn("faults_major_per_op")
  public static let faultsMinorPerOp = SampleColumn("faults_minor_per_op")
  public static let contextSwitchesPerOp = SampleColumn("context_switches_per_op")
  public static let pagesDirtiedPerOp = SampleColumn("pages_dirtied_per_op")
  public static let instructions = SampleColumn("instructions")
  public static let instructionsPerOp = SampleColumn("instructions_per_op")
  public static let allocations = SampleColumn("allocations")
  public static let allocationsPerOp = SampleColumn("allocations_per_op")
  public static let allocatedBytes = SampleColumn("allocated_bytes")
  public static let allocatedBytesPerOp = SampleColumn("allocated_bytes_per_op")
  public static let frees = SampleColumn("frees")
  public static let freesPerOp = SampleColumn("frees_per_op")
  public static let recordBytes = SampleColumn("record_bytes")
  public static let writeAmplification = SampleColumn("write_amplification")
}

extension SampleColumn {
  private static let perOpSuffix = "_per_op"

  /// The column of a counted cost over the whole timed region, and its column per app operation: named after the
  /// cost (`syncs`, `syncs_per_op`; a test checks that every cost has both).
  public static func counted(_ cost: CountedCost) -> (total: SampleColumn, perOp: SampleColumn) {
    (SampleColumn(rawValue: cost.rawValue)!, SampleColumn(rawValue: cost.rawValue + perOpSuffix)!)
  }

  /// Computed from other columns of the row (ops/s, per-operation counts, write amplification): set only through
  /// them.
  public var isDerived: Bool {
    self == .opsPerSecond || self == .writeAmplification || countedCost?.perOp == true
  }

  /// The counted cost this column reports, in total or per operation (nil for other columns).
  public var countedCost: (cost: CountedCost, perOp: Bool)? {
    if rawValue.hasSuffix(Self.perOpSuffix) {
      return CountedCost(rawValue: String(rawValue.dropLast(Self.perOpSuffix.count))).map { ($0, true) }
    }
    return CountedCost(rawValue: rawValue).map { ($0, false) }
  }
}

/// A column only summary.csv has: a statistic over a row's repetitions.
public enum SummaryStatistic: String, CaseIterable, Sendable, Encodable {
  case n, failed
  case medianSeconds = "median_s"
  case meanSeconds = "mean_s"
  case standardDeviation = "stddev_s"
  case minimumSeconds = "min_s"
  case maximumSeconds = "max_s"
  case intervalLow = "median_ci95_low_s"
  case intervalHigh = "median_ci95_high_s"
  case secondsPerItem = "median_s_per_item"
  case coverage = "median_ci_coverage"
  case intervalNote = "median_ci_note"
  case noise
  case reach = "ci_reach"
  case targetPrecision = "target_precision"
  case targetMet = "target_met"
  case stopped
  case prepareShare = "prepare_share"
  case caseSeconds = "case_s"
}

/// What a report column is, typed: a sample column (in samples.csv, or carried into summary.csv as a key or the
/// first value), the median of a sample column (`median_<name>`), or a summary statistic.
public enum ColumnID: Hashable, Sendable {
  case sample(SampleColumn)
  case median(SampleColumn)
  case statistic(SummaryStatistic)

  /// The column's name in the CSV files.
  public var name: String {
    switch self {
    case .sample(let column): column.rawValue
    case .median(let column): "median_" + column.rawValue
    case .statistic(let statistic): statistic.rawValue
    }
  }
}
