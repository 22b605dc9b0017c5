import StoreBenchMeasure

/// A column of samples.csv, named once: its raw value is the column's name in every file, and code refers to the
/// case, so a misspelt column is a compile error.
public enum SampleColumn: String, CaseIterable, Sendable, Encodable {
    case scenario, workload, backend, variant, size, repetition, status
    case wallSeconds = "wall_s"
    case cpuUserSeconds = "cpu_user_s"
    case cpuSystemSeconds = "cpu_sys_s"
    case maxRSSKiB = "max_rss_kib"
    case readBytes = "read_bytes"
    case writeBytes = "write_bytes"
    case storeBytes = "store_bytes"
    case storeAllocatedBytes = "store_alloc_bytes"
    case ops
    case opsPerSecond = "ops_per_s"
    case settings, checksum, error, parameters, dataset
    case p50 = "p50_us"
    case p90 = "p90_us"
    case p99 = "p99_us"
    case p999 = "p999_us"
    case maxLatency = "max_us"
    case residentPages = "resident_pages"
    case childReadySeconds = "child_ready_s"
    case childReadBytes = "child_read_bytes"
    case note
    case hitRatio = "hit_ratio"
    case reads
    case queryPlan = "query_plan"
    case agedAllocatedBytes = "aged_alloc_bytes"
    case reclaimedBytes = "reclaimed_bytes"
    case listSlowdown = "list_slowdown"
    case firstReadSeconds = "first_read_s"
    case lostUpdates = "lost_updates"
    case destroyedRecords = "destroyed_records"
    case refusals, retries
    case lockWaits = "lock_waits"
    case lockWaitSeconds = "lock_wait_s"
    case lockHoldSeconds = "lock_hold_max_s"
    case extensionOps = "extension_ops"
    case extensionP50 = "extension_p50_us"
    case extensionP90 = "extension_p90_us"
    case extensionP99 = "extension_p99_us"
    case processes
    case overBudget = "over_budget"
    case budgetStop = "budget_stop"
    case memoryGrowthKiB = "mem_growth_kib"
    case otherCPUSeconds = "other_cpu_s"
    case loadAverage = "load_1m"
    case repetitionSeconds = "repetition_s"
    case prepareSeconds = "prepare_s"
    case declaredDurability = "declared_durability"
    case syncs
    case writeCalls = "write_calls"
    case writtenBytes = "written_bytes"
    case readCalls = "read_calls"
    case readBytesLogical = "read_bytes_logical"
    case renames, unlinks
    case filesCreated = "files_created"
    case faultsMajor = "faults_major"
    case faultsMinor = "faults_minor"
    case contextSwitches = "context_switches"
    case pagesDirtied = "pages_dirtied"
    case syncsPerOp = "syncs_per_op"
    case writeCallsPerOp = "write_calls_per_op"
    case writtenBytesPerOp = "written_bytes_per_op"
    case readCallsPerOp = "read_calls_per_op"
    case readBytesLogicalPerOp = "read_bytes_logical_per_op"
    case renamesPerOp = "renames_per_op"
    case unlinksPerOp = "unlinks_per_op"
    case filesCreatedPerOp = "files_created_per_op"
    case faultsMajorPerOp = "faults_major_per_op"
    case faultsMinorPerOp = "faults_minor_per_op"
    case contextSwitchesPerOp = "context_switches_per_op"
    case pagesDirtiedPerOp = "pages_dirtied_per_op"
    case recordBytes = "record_bytes"
    case writeAmplification = "write_amplification"
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
