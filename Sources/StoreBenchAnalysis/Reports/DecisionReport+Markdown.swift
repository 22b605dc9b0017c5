import Foundation
import StoreBenchContract

extension DecisionReport {
    /// The answer table, the generated recommendations and the warnings.
    public var answer: String {
        var lines = ["## The answer", "",
                     "Per workload, the fastest strategy for each durability need among the rows of the workload's main "
                        + "size and parameters (rows a scenario limited are ranked apart). The fastest is the lowest median "
                        + "among rows with an interval of the median (at least \(minimumCount) repetitions); a row whose 95% "
                        + "bootstrap interval of the ratio of medians includes 1 is **tied** with it, indistinguishable at "
                        + "this precision, and among tied rows the stronger durability class is picked. A ratio is shown "
                        + "with its interval only when both rows have one. Durability is each variant's declared class, "
                        + "lowered where `storebench crash` measured a loss of that variant, and marked measured or declared. "
                        + "The in-memory floor is left out.", "",
                     "| workload | fastest of all | fastest that survives a killed app | fastest that survives power loss |",
                     "|---|---|---|---|"]
        for workload in workloads {
            guard let main = workload.groups.first else { continue }
            let overall = choice(workload, keeping: .mayLose)
            func cell(_ need: DurabilityPromise) -> String {
                guard let chosen = choice(workload, keeping: need) else {
                    return main.entries.contains { !$0.isFloor && !$0.hasInterval && $0.durability.promise.keeps(atLeast: need) }
                        ? "too few repetitions to tell" : "none in this run"
                }
                // A workload that writes nothing: the fastest, whatever its class (durability costs nothing here).
                let pick = workload.readOnly ? chosen.fastest : chosen.pick
                var text = "\(MarkdownTable.escape(pick.label)): \(MarkdownTable.duration(pick.median)) (\(pick.durability.short))"
                let others = chosen.tied.filter { $0.key != pick.key }
                if !others.isEmpty {
                    text += "; tied with " + others.map { MarkdownTable.escape($0.label) }.joined(separator: ", ")
                }
                if let overall, need != .mayLose, !overall.tied.contains(where: { $0.key == pick.key }) {
                    text += "; \(ratio(pick, to: overall.fastest)) the fastest"
                }
                return text
            }
            lines.append("| \(workload.name) (\(MarkdownTable.grouped(Double(main.size))))\(workload.readOnly ? ", reads only" : "") | "
                         + "\(cell(.mayLose)) | \(cell(.survivesKill)) | \(cell(.durable)) |")
        }
        lines += ["", "### Recommendations", ""]
        lines += workloads.compactMap { workload in recommendation(workload).map { $0 + (deferredCost(workload) ?? "") } }
        let warnings = contradictions
        if !warnings.isEmpty {
            lines += ["", "### Warnings", ""] + warnings.map { "- ⚠ \(MarkdownTable.escape($0))" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One generated line per workload.
    func recommendation(_ workload: Workload) -> String? {
        guard let main = workload.groups.first else { return nil }
        guard let overall = choice(workload, keeping: .mayLose) else {
            guard let first = main.entries.first(where: { !$0.isFloor }) else { return nil }
            return "- **\(workload.name)**: too few repetitions to tell (no row has \(minimumCount)); by median alone "
                + "\(first.label) was fastest (\(MarkdownTable.duration(first.median)))."
        }
        let names = { (entries: [Entry]) in entries.map(\.label).joined(separator: ", ") }
        if workload.readOnly {
            let tied = overall.tied.filter { $0.key != overall.fastest.key }
            return "- **\(workload.name)** (reads only: durability is a property of the store here, not a cost): "
                + "\(overall.fastest.label) is the fastest (\(MarkdownTable.duration(overall.fastest.median)))"
                + (tied.isEmpty ? "." : "; indistinguishable from it at this precision: \(names(tied)).")
        }
        guard let safe = choice(workload, keeping: .durable)?.pick else {
            let unsure = main.entries.contains { !$0.isFloor && !$0.hasInterval && $0.durability.promise.keeps(atLeast: .durable) }
            return "- **\(workload.name)**: " + (unsure
                ? "the strategies that survive power loss have too few repetitions to tell their cost"
                : "no strategy in this run survives power loss")
                + "; the fastest is \(overall.pick.label) (\(overall.pick.durability.short))."
        }
        let fastest = overall.fastest
        if safe.key == fastest.key {
            return "- **\(workload.name)**: \(safe.label) is the fastest and \(safe.durability.label)."
        }
        if overall.tied.contains(where: { $0.key == safe.key }) {
            return "- **\(workload.name)**: \(safe.label) \(safe.durability.label), and costs no measurable time over the "
                + "fastest, \(fastest.label) (\(ratio(safe, to: fastest)): indistinguishable at this precision)."
        }
        return "- **\(workload.name)**: if the data must survive power loss, \(safe.label), which \(safe.durability.label): "
            + "\(ratio(safe, to: fastest)) the time of the fastest, \(fastest.label) (\(fastest.durability.short))."
    }

    /// Every workload's rankings: the main group, then each other group apart.
    public var rankings: String {
        var lines = ["## Rankings", "",
                     "Each table holds rows of equal size, parameters and data. *verdict*: fastest, tied (the ratio's "
                        + "interval includes 1), slower (it excludes 1), or too few repetitions for an interval.", ""]
        for workload in workloads {
            for (index, group) in workload.groups.enumerated() {
                let title = index == 0 ? workload.name : "\(workload.name), ranked apart"
                lines += ["### \(title): \(MarkdownTable.grouped(Double(group.size))) records" 
                            + (group.parameters.isEmpty ? "" : " (\(MarkdownTable.escape(group.parameters)))"), ""]
                lines += table(group, readOnly: workload.readOnly) + [""]
            }
        }
        return lines.joined(separator: "\n")
    }

    private func table(_ group: Group, readOnly: Bool) -> [String] {
        var lines = ["| # | backend [variant] | repetitions | median | × fastest [95% CI] | verdict | durability | killed app, measured | power loss, measured | store | memory |",
                     "|---:|---|---:|---:|---|---|---|---|---|---:|---:|"]
        let best = group.entries.first { !$0.isFloor && $0.hasInterval }
        var position = 0
        for entry in group.entries {
            let verdict: String
            var rank = "–"
            if entry.isFloor {
                (verdict, rank) = ("floor (reference)", "floor")
            } else if !entry.hasInterval || best == nil {
                verdict = "too few repetitions"
            } else {
                position += 1
                rank = String(position)
                verdict = entry.key == best!.key ? "fastest" : (isTied(entry, with: best!) ? "tied" : "slower")
            }
            let store = entry.storeBytes.map { MarkdownTable.grouped($0 / 1024) + " KiB" } ?? "–"
            let memory = entry.memoryKiB.map { MarkdownTable.grouped($0) + " KiB" } ?? "–"
            let ratioCell = best.map { ratio(entry, to: $0) } ?? "–"
            // A row cut short by filling its store says so.
            let fill = entry.prepareShare.flatMap { $0 >= 0.5 ? " (filling the store: \(Int(($0 * 100).rounded()))% of its time)" : nil } ?? ""
            lines.append("| \(rank) | \(MarkdownTable.escape(entry.label)) | \(entry.walls.count)\(fill) | "
                         + "\(MarkdownTable.duration(entry.median)) | \(ratioCell) | \(verdict) | "
                         + "\(MarkdownTable.escape(entry.durability.label))\(readOnly && !entry.isFloor ? " (a property here, not a cost)" : "") | "
                         + "\(entry.crash?.kill?.summary ?? "not measured") | \(MarkdownTable.escape(entry.crash?.powerLossSummary ?? "not measured")) | "
                         + "\(store) | \(memory) |")
        }
        return lines
    }
}
