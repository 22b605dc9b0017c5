import Foundation
import StoreBenchContract
import StoreBenchMeasure

/// The first screen of `report.md`: which strategy to pick, generated from the run's numbers alone.
///
/// Per workload, the strategies run at the workload's main size (the size most rows have) are ranked by their median
/// time, with the ratio to the fastest and a bootstrap interval of that ratio; rows a scenario limited to another
/// size are listed but never ranked against them. Each is grouped by durability class: the
/// variant's declared promise, lowered to "may lose data" where `durability.csv` measured a loss or an unreadable
/// store. The in-memory floor is shown as a reference, never recommended.
public struct DecisionReport {
    /// A ranked strategy of one workload.
    struct Entry {
        let key: ComparisonKey
        let walls: [Double]
        var ranked = true
        let median: Double
        let promise: DurabilityPromise
        /// Whether the power-loss part of `promise` was measured (else it is the backend's declaration).
        let powerLossMeasured: Bool
        let crash: CrashResult?
        let storeBytes: Double?
        let memoryKiB: Double?
        let label: String
    }

    let workloads: [(name: String, entries: [Entry])]
    let seed: UInt64

    /// `promise` gives a variant's declared class (nil: unknown backend, "may lose"); `crashes` the measured results
    /// by "backend [variant]" (``CrashResult/read(csv:)``).
    /// `label` names a variant for people (e.g. without its default settings).
    public init(table: SampleTable, promise: (String, String) -> DurabilityPromise?, crashes: [String: CrashResult],
                label: (String, String) -> String = { "\($0) [\($1)]" }, workloadOrder: [String] = [], seed: UInt64 = 42) {
        var order: [String] = []
        var groups: [String: [ComparisonKey: [Double]]] = [:]
        for row in table.rows where row.status == .ok {
            guard let wall = row.values["wall_s"] else { continue }
            let key = ComparisonKey(row.key)
            if groups[key.workload] == nil { order.append(key.workload) }
            groups[key.workload, default: [:]][key, default: []].append(wall)
        }
        let stores = table.values(of: "store_bytes").compactMapValues(Statistics.median)
        let memory = table.values(of: "mem_growth_kib").compactMapValues(Statistics.median)
        let rank = { (name: String) in workloadOrder.firstIndex(of: name) ?? workloadOrder.count }
        order.sort { (rank($0), $0) < (rank($1), $1) }
        workloads = order.map { workload in
            let entries = groups[workload]!.map { key, values -> Entry in
                let crash = crashes["\(key.backend) [\(key.variant)]"]
                let declared = promise(key.backend, key.variant) ?? .mayLose
                let durability = crash?.durability(declared: declared) ?? (promise: declared, measured: false)
                return Entry(key: key, walls: values, median: Statistics.median(values)!, promise: durability.promise,
                             powerLossMeasured: durability.measured, crash: crash,
                             storeBytes: stores[key], memoryKiB: memory[key], label: label(key.backend, key.variant))
            }
            let sizes = Dictionary(grouping: entries, by: \.key.size).mapValues(\.count)
            let mainSize = sizes.max { ($0.value, $0.key) < ($1.value, $1.key) }?.key ?? 0
            let sorted = entries.map { entry -> Entry in
                var copy = entry
                copy.ranked = entry.key.size == mainSize
                return copy
            }.sorted { a, b in
                a.ranked != b.ranked ? a.ranked : (a.median, a.label) < (b.median, b.label)
            }
            return (workload, sorted)
        }
        self.seed = seed
    }

    /// The fastest entry that keeps at least `promise` (the floor excluded).
    func fastest(_ entries: [Entry], keeping promise: DurabilityPromise) -> Entry? {
        entries.first { $0.ranked && $0.promise != .none && $0.promise.keeps(atLeast: promise) }
    }

    /// `x.xx× [low–high]` of `entry` against `best`.
    func ratio(_ entry: Entry, to best: Entry) -> String {
        let value = entry.median / best.median
        guard entry.key != best.key else { return "1×" }
        guard entry.ranked else { return "not ranked (size differs)" }
        let interval = Bootstrap.ratioOfMedians(baseline: best.walls, current: entry.walls,
                                                seed: seed ^ UInt64(truncatingIfNeeded: entry.label.hashValueStable))
        return String(format: "%.2f×", value) + (interval.map { String(format: " [%.2f–%.2f]", $0.lowerBound, $0.upperBound) } ?? " [n too small]")
    }


    /// The answer table and the generated recommendations.
    public var answer: String {
        var lines = ["## The answer", "",
                     "The fastest strategy per workload for each durability need, by median time at the workload's main "
                        + "size (rows a scenario limited to a smaller size are not ranked), and how much slower it is than "
                        + "the fastest of all: the ratio of medians with a 95% bootstrap interval. Durability is each "
                        + "variant's declared promise, lowered where `storebench crash` measured a loss (a killed app, or a "
                        + "power cut through the page-cache model); \"declared\" marks a power-loss class nobody measured. "
                        + "The in-memory floor is left out.", "",
                     "| workload | fastest of all | fastest that survives a killed app | fastest that survives power loss |",
                     "|---|---|---|---|"]
        for (workload, entries) in workloads {
            guard let overall = fastest(entries, keeping: .mayLose) else { continue }
            func cell(_ promise: DurabilityPromise) -> String {
                guard let entry = fastest(entries, keeping: promise) else { return "none in this run" }
                return "\(MarkdownTable.escape(entry.label)): \(MarkdownTable.duration(entry.median)), \(ratio(entry, to: overall))"
                    + (entry.crash?.kill.map { "; killed app: \($0.summary)" } ?? "")
                    + (promise == .durable ? (entry.crash?.powerLoss.map { "; power loss: \($0.summary)" } ?? " (declared)") : "")
            }
            lines.append("| \(workload) (\(MarkdownTable.grouped(Double(overall.key.size)))) | \(MarkdownTable.escape(overall.label)): \(MarkdownTable.duration(overall.median)) "
                         + "(\(overall.promise.rawValue)) | \(cell(.survivesKill)) | \(cell(.durable)) |")
        }
        lines += ["", "### Recommendations", ""]
        for (workload, entries) in workloads {
            guard let overall = fastest(entries, keeping: .mayLose), let safe = fastest(entries, keeping: .durable) else { continue }
            if safe.key == overall.key {
                lines.append("- **\(workload)**: \(safe.label) is the fastest and survives power loss.")
            } else {
                lines.append("- **\(workload)**: if the data must survive power loss, \(safe.label) "
                             + "(\(ratio(safe, to: overall)) the time of the fastest, \(overall.label), which "
                             + "\(overall.promise.rawValue)).")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every workload's full ranking.
    public var rankings: String {
        var lines = ["## Rankings", ""]
        for (workload, entries) in workloads {
            guard let best = fastest(entries, keeping: .mayLose) ?? entries.first else { continue }
            lines += ["### \(workload)", "",
                      "| # | backend [variant] | size | median | × fastest [95% CI] | durability | killed app, measured | power loss, measured | store | memory |",
                      "|---:|---|---:|---:|---|---|---|---|---:|---:|"]
            for (index, entry) in entries.enumerated() {
                let store = entry.storeBytes.map { MarkdownTable.grouped($0 / 1024) + " KiB" } ?? "–"
                let memory = entry.memoryKiB.map { MarkdownTable.grouped($0) + " KiB" } ?? "–"
                let rank = entry.promise == .none ? "floor" : (entry.ranked ? String(index + 1) : "–")
                lines.append("| \(rank) | \(MarkdownTable.escape(entry.label)) | "
                             + "\(MarkdownTable.grouped(Double(entry.key.size))) | \(MarkdownTable.duration(entry.median)) | "
                             + "\(ratio(entry, to: best)) | \(entry.promise.rawValue)\(entry.powerLossMeasured || entry.promise == .none ? "" : " (declared)") | "
                             + "\(entry.crash?.kill?.summary ?? "not measured") | \(entry.crash?.powerLossSummary ?? "not measured") | "
                             + "\(store) | \(memory) |")
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }
}
