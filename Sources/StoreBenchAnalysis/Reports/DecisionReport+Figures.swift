import Foundation
import StoreBenchContract

extension DecisionReport {
    /// What some workloads measure beside their timed operation: `migrate`'s first full read (where a lazy strategy
    /// pays), `aging`'s growth, what compaction gave back and the launch list's slowdown.
    /// `shared`'s waits, refusals and lost updates too.
    static let figureColumns: [SampleColumn] =
        [.firstReadSeconds, .agedAllocatedBytes, .reclaimedBytes, .listSlowdown] + sharedColumns
    static let sharedColumns: [SampleColumn] = [
        .lostUpdates, .destroyedRecords, .refusals, .retries, .lockWaits, .lockWaitSeconds, .lockHoldSeconds,
        .extensionOps, .extensionP50, .extensionP99,
    ]

    /// The sentence a recommendation needs when the timed operation is not the whole cost: a lazy migration is fast
    /// because it defers its work to the first read, so the first read's medians go beside it (nil: no such column).
    func deferredCost(_ workload: Workload) -> String? {
        guard let main = workload.groups.first else { return nil }
        let reads = main.entries.filter { !$0.isFloor }.compactMap { entry in
            entry.figures[.firstReadSeconds].map { (entry, $0) }
        }
        guard !reads.isEmpty else { return nil }
        let listed = reads.sorted { ($0.0.median + $0.1, $0.0.label) < ($1.0.median + $1.1, $1.0.label) }.map {
            entry, read in
            "\(entry.label) \(MarkdownTable.duration(read)) (\(MarkdownTable.duration(entry.median + read)) in all)"
        }
        return " The time ends when the store is open as version 2; the first full read after it pays what a lazy "
            + "strategy deferred (`first_read_s`, median; by the sum of both medians): "
            + listed.joined(separator: ", ") + "."
    }

    /// "What the workloads report beside time": per workload with figures, its main group's medians of them.
    public var figures: String {
        var lines: [String] = []
        for workload in workloads {
            guard let table = figureTable(workload) else { continue }
            lines += table + [""]
        }
        guard !lines.isEmpty else { return "" }
        func has(_ column: SampleColumn) -> Bool {
            workloads.contains { $0.groups.first?.entries.contains { $0.figures[column] != nil } == true }
        }
        var intro = "Medians over the repetitions."
        if has(.firstReadSeconds) {
            intro += " `migrate`: the first full read as version 2 right after the timed upgrade."
        }
        if has(.agedAllocatedBytes) || has(.listSlowdown) {
            intro +=
                " `aging`: the store's allocated bytes after the churn, what the timed compaction gave "
                + "back, and the launch list's time after the churn over its time on the fresh store (every round "
                + "is in rounds.csv and charts/aging.png)."
        }
        if has(.lockWaits) {
            intro +=
                " `shared`: the app and its extension as two processes on one store, summed over both: acknowledged "
                + "writes lost to the other process's later whole-file rewrite, attempts the library refused "
                + "(SQLITE_BUSY, GDBM_CANT_BE_WRITER) and their retries, lock waits (busy-handler calls) and the time "
                + "spent waiting, the longest write lock held, the extension's operations that arrived while the app "
                + "worked and their latency from arrival (\"not exercised\": none did, so the row's counts rest on "
                + "nothing; each process's own figures are in samples.csv's `processes`)."
        }
        return (["## What the workloads report beside time", "", intro, ""] + lines).joined(separator: "\n") + "\n"
    }

    /// The table of one workload's figures (its heading first), nil when it has none.
    func figureTable(_ workload: Workload) -> [String]? {
        guard let main = workload.groups.first else { return nil }
        let columns = Self.figureColumns.filter { column in main.entries.contains { $0.figures[column] != nil } }
        guard !columns.isEmpty else { return nil }
        let shared = columns.contains { Self.sharedColumns.contains($0) }
        var lines = [
            "### \(workload.name): \(MarkdownTable.grouped(Double(main.size))) "
                + (shared ? "app operations" : "records"), "",
            "| backend [variant] | median | " + columns.map(Self.heading).joined(separator: " | ") + " |",
            "|---|---:|" + String(repeating: "---:|", count: columns.count),
        ]
        for entry in main.entries {
            // A sharing row whose extension never worked beside the app says so: its "0 lost" rests on nothing.
            let idle = shared && entry.figures[.extensionOps] == nil
            let cells = columns.map { column in
                idle && Self.sharedColumns.contains(column)
                    ? "not exercised" : entry.figures[column].map { Self.format($0, column) } ?? "–"
            }
            lines.append(
                "| \(MarkdownTable.escape(entry.label)) | \(MarkdownTable.duration(entry.median)) | "
                    + cells.joined(separator: " | ") + " |")
        }
        return lines
    }

    /// The figures table of the workload called `name` (the `shared` block of docs/BACKENDS.md), nil when it has none.
    public func figureTable(named name: String) -> [String]? {
        workloads.first { $0.name == name }.flatMap(figureTable)
    }

    private static func heading(_ column: SampleColumn) -> String {
        switch column {
        case .firstReadSeconds: "first full read"
        case .agedAllocatedBytes: "allocated after the churn"
        case .reclaimedBytes: "given back by compaction"
        case .listSlowdown: "launch list, aged / fresh"
        case .lostUpdates: "lost updates"
        case .destroyedRecords: "destroyed"
        case .refusals: "refusals"
        case .retries: "retries"
        case .lockWaits: "lock waits"
        case .lockWaitSeconds: "waiting for locks"
        case .lockHoldSeconds: "longest lock hold"
        case .extensionOps: "extension operations with the app working"
        case .extensionP50: "extension p50"
        case .extensionP99: "extension p99"
        default: column.rawValue
        }
    }

    private static func format(_ value: Double, _ column: SampleColumn) -> String {
        switch ReportColumns.sample(column).unit {
        case .seconds: MarkdownTable.duration(value)
        case .bytes: MarkdownTable.grouped(value.rounded()) + " B"
        case .count: MarkdownTable.grouped(value)
        case .microseconds: MarkdownTable.duration(value / 1_000_000)
        default: String(format: "%.2f×", value)
        }
    }
}
