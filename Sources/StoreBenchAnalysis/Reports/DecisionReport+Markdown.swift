import Foundation
import StoreBenchContract

extension DecisionReport {
  /// The answer table, the generated recommendations and the warnings.
  public var answer: String {
    var lines = [
      "## The answer", "", ClaimSyntax.marker(margin: margin, minimumCount: minimumCount), "",
      "Per workload, the fastest strategy for each durability need among the rows that ran the "
        + "scenario's own parameters (rows a scenario limited are ranked apart, never the answer). The "
        + "fastest is the lowest median among rows with an interval of the median (at least "
        + "\(minimumCount) repetitions). Every other row is judged by the 95% bootstrap interval of its "
        + "ratio of medians against the fastest (docs/MEASURING.md, \"The words a claim may use\"): "
        + "**equivalent** when the interval lies within the tie margin (\(margin)), **slower** when it "
        + "lies above 1 and leaves the margin, **indistinguishable** when it includes 1 but is wider than "
        + "the margin (not settled). Equivalent and indistinguishable rows are tied with the fastest, and "
        + "among tied rows the stronger durability class is picked. Durability is each variant's declared "
        + "class, lowered where `storebench crash` measured a loss of that variant, with its crash states "
        + "(kills, power cuts), their count and what a clean result bounds. The in-memory floor is left out.",
      "",
      "| workload | fastest of all | fastest that survives a killed app | fastest that survives power loss |",
      "|---|---|---|---|",
    ]
    for workload in workloads {
      guard let main = workload.groups.first else { continue }
      let overall = choice(workload, keeping: .mayLose)
      func cell(_ need: DurabilityPromise) -> String {
        guard let chosen = choice(workload, keeping: need) else {
          return main.entries.contains {
            !$0.isFloor && !$0.hasInterval && $0.durability.promise.keeps(atLeast: need)
          }
            ? "too few repetitions to tell" : "none in this run"
        }
        // A workload that writes nothing: the fastest, whatever its class (durability costs nothing here).
        let pick = workload.readOnly ? chosen.fastest : chosen.pick
        var text =
          "\(MarkdownTable.escape(pick.label)): \(MarkdownTable.duration(pick.median)) (\(pick.durability.short))"
        let others = chosen.tied.filter { $0.key != pick.key }
        // Each tie by its kind: against the fastest (the fastest itself, against the pick).
        func kind(_ other: Entry) -> RatioVerdict? {
          other.key == chosen.fastest.key
            ? claim(pick, to: other).verdict : claim(other, to: chosen.fastest).verdict
        }
        for verdict in [RatioVerdict.equivalent, .indistinguishable] {
          let named = others.filter { kind($0) == verdict }
          if !named.isEmpty {
            text +=
              "; \(verdict.rawValue): "
              + named.map { MarkdownTable.escape($0.label) }.joined(separator: ", ")
          }
        }
        if let overall, need != .mayLose, !overall.tied.contains(where: { $0.key == pick.key }) {
          text += "; \(ratio(pick, to: overall.fastest)) than the fastest"
        }
        return text
      }
      lines.append(
        "| \(workload.name) (\(MarkdownTable.grouped(Double(main.size))))\(workload.readOnly ? ", reads only" : "") | "
          + "\(cell(.mayLose)) | \(cell(.survivesKill)) | \(cell(.durable)) |")
    }
    lines += ["", "### Recommendations", ""]
    lines += workloads.compactMap { workload in recommendation(workload).map { $0 + (deferredCost(workload) ?? "") }
    }
    lines += ["", settlement]
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
    if workload.readOnly {
      let tied = overall.tied.filter { $0.key != overall.fastest.key }
      return "- **\(workload.name)** (reads only: durability is a property of the store here, not a cost): "
        + "\(overall.fastest.label) is the fastest (\(MarkdownTable.duration(overall.fastest.median)))"
        + (tied.isEmpty
          ? "."
          : "; tied with it: "
            + tied.map { "\($0.label) (\(ratio($0, to: overall.fastest)))" }
            .joined(separator: ", ") + ".")
    }
    guard let safe = choice(workload, keeping: .durable)?.pick else {
      let unsure = main.entries.contains {
        !$0.isFloor && !$0.hasInterval && $0.durability.promise.keeps(atLeast: .durable)
      }
      return "- **\(workload.name)**: "
        + (unsure
          ? "the strategies that survive power loss have too few repetitions to tell their cost"
          : "no strategy in this run survives power loss")
        + "; the fastest is \(overall.pick.label) (\(overall.pick.durability.short))."
    }
    let fastest = overall.fastest
    if safe.key == fastest.key {
      return "- **\(workload.name)**: \(safe.label) is the fastest and \(safe.durability.label)."
    }
    if overall.tied.contains(where: { $0.key == safe.key }) {
      let settled = claim(safe, to: fastest).verdict == .equivalent
      return
        "- **\(workload.name)**: \(safe.label) \(safe.durability.label), and its time is \(ratio(safe, to: fastest)) "
        + "against the fastest, \(fastest.label)"
        + (settled ? " (within the \(margin) tie margin)." : " (not settled at this precision).")
    }
    return
      "- **\(workload.name)**: if the data must survive power loss, \(safe.label), which \(safe.durability.label): "
      + "\(ratio(safe, to: fastest)) than the fastest, \(fastest.label) (\(fastest.durability.short))."
  }

  /// Every workload's rankings: the main group, then each other group apart.
  public var rankings: String {
    var lines = [
      "## Rankings", "",
      "Each table holds rows of equal size, parameters and data; the first ran the scenario's own "
        + "parameters. *× fastest*: the ratio of medians, its 95% bootstrap interval and its verdict "
        + "(equivalent within \(margin), indistinguishable, or slower), or too few repetitions for an "
        + "interval.", "",
    ]
    for workload in workloads {
      for (index, group) in workload.groups.enumerated() {
        let title = index == 0 ? workload.name : "\(workload.name), ranked apart"
        lines += [
          "### \(title): \(MarkdownTable.grouped(Double(group.size))) records"
            + (group.parameters.isEmpty ? "" : " (\(MarkdownTable.escape(group.parameters)))"), "",
        ]
        lines += table(group, readOnly: workload.readOnly, main: index == 0 ? workload.name : nil) + [""]
      }
    }
    return lines.joined(separator: "\n")
  }

  /// `main`: the workload's name when this is its main group (its rows settle by ``AnswerRule``).
  private func table(_ group: Group, readOnly: Bool, main: String?) -> [String] {
    var lines = [
      "| # | backend [variant] | repetitions | median | × fastest [95% CI] verdict | durability | killed app, measured | power loss, measured | store | memory |",
      "|---:|---|---:|---:|---|---|---|---|---:|---:|",
    ]
    let best = group.entries.first { !$0.isFloor && $0.hasInterval }
    var position = 0
    for entry in group.entries {
      var rank = "–"
      var ratioCell = best.map { ratio(entry, to: $0) } ?? "–"
      // A row settled from too few repetitions for an interval of its ratio: the test that settled it.
      if let best, let main, !entry.hasInterval, let settled = rankSettlement(entry, to: best, in: main) {
        ratioCell = String(format: "%.2f×; ", entry.median / best.median) + settled
      }
      if entry.isFloor {
        rank = "floor"
        ratioCell += " (floor, a reference)"
      } else if entry.hasInterval, let best {
        position += 1
        rank = String(position)
        if entry.key == best.key { ratioCell = "1× fastest" }
      }
      let store = entry.storeBytes.map { MarkdownTable.grouped($0 / 1024) + " KiB" } ?? "–"
      let memory = entry.memoryKiB.map { MarkdownTable.grouped($0) + " KiB" } ?? "–"
      // A row cut short by filling its store says so.
      let fill =
        entry.prepareShare.flatMap {
          $0 >= 0.5 ? " (filling the store: \(Int(($0 * 100).rounded()))% of its time)" : nil
        } ?? ""
      lines.append(
        "| \(rank) | \(MarkdownTable.escape(entry.label)) | \(entry.walls.count)\(fill) | "
          + "\(MarkdownTable.duration(entry.median)) | \(ratioCell) | "
          + "\(MarkdownTable.escape(entry.durability.label))\(readOnly && !entry.isFloor ? " (a property here, not a cost)" : "") | "
          + "\(MarkdownTable.escape(entry.crash?.killSummary ?? "not measured")) | \(MarkdownTable.escape(entry.crash?.powerLossSummary ?? "not measured")) | "
          + "\(store) | \(memory) |")
    }
    return lines
  }
}
