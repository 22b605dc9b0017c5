import Foundation
import StoreBenchContract

extension DecisionReport {
  /// A workload's answers under the ``AnswerRule``: its main group's candidates (the floor aside), with the
  /// measured durability classes the answer uses.
  struct Race {
    let entries: [Entry]
    let race: AnswerRace

    init(_ workload: Workload, rule: AnswerRule, leaderMinimum: Int) {
      entries = workload.groups.first?.entries.filter { !$0.isFloor } ?? []
      race = AnswerRace(
        entries: entries.enumerated().map { index, entry in
          AnswerRace.Entry(id: index, walls: entry.walls, promise: entry.durability.promise)
        }, rule: rule, leaderMinimum: leaderMinimum)
    }

    /// The relation of `entry` to `leader` in the answer `leader` leads, if there is one.
    func relation(_ entry: Entry, to leader: Entry) -> Relation? {
      guard let row = entries.firstIndex(where: { $0.key == entry.key }),
        let lead = entries.firstIndex(where: { $0.key == leader.key })
      else { return nil }
      return race.answers.first { $0.leader == lead }?.relations[row]
    }

    /// The answer for `need` (its ids index ``entries``).
    func answer(_ need: DurabilityPromise) -> AnswerRace.Answer? { race.answers.first { $0.need == need } }
  }

  /// How many relations of every answer are settled, and how many there are.
  public var settledRelations: (settled: Int, total: Int) {
    var (settled, total) = (0, 0)
    for race in races.values {
      for answer in race.race.answers {
        total += answer.relations.count
        settled += answer.relations.values.count(where: \.isSettled)
      }
    }
    return (settled, total)
  }

  /// "settled slower by the rank-sum test (4 repetitions against the fastest's 20, every one slower than every one
  /// of the fastest's; ratio at least 1.85×, one-sided p ≤ 9.4e-05)" for a row the rule settled although it has
  /// too few repetitions for an interval of its ratio of medians; nil otherwise.
  func rankSettlement(_ entry: Entry, to best: Entry, in workload: String) -> String? {
    guard let relation = races[workload]?.relation(entry, to: best), relation.isSettled,
      let interval = relation.interval, let verdict = relation.verdict
    else { return nil }
    let counts = "\(relation.counts.row) repetitions against the fastest's \(relation.counts.leader)"
    let extreme =
      interval.rank == 1 && verdict == .slower ? ", every one slower than every one of the fastest's" : ""
    return "settled \(verdict.rawValue) by the rank-sum test (\(counts)\(extreme); ratio at least "
      + String(format: "%.2f", interval.low) + "×, one-sided p ≤ " + String(format: "%.2g", interval.tail) + ")"
  }

  /// The section that says, per workload and durability need, whether the answer is settled and, where not,
  /// which candidates are still indistinguishable from its fastest.
  public var settlement: String {
    let (settled, total) = settledRelations
    var lines = [
      "### How settled the answers are", "",
      "A relation — a candidate against the fastest that keeps the same need — is **settled** when the "
        + "rank-sum interval of its time over the fastest's says slower beyond the \(margin) tie margin or "
        + "equivalent within it, at the level that keeps each answer's error within 5% over its relations "
        + "and the run's looks (n = \(rule.looks.map(String.init).joined(separator: ", ")) and the end; "
        + "docs/MEASURING.md, \"Settled answers\"). A run that races its repetitions "
        + "(`stop: answer`) spends them on the relations still open. **\(settled) of \(total) relations "
        + "settled.**", "",
      "| workload | fastest of all | fastest that survives a killed app | fastest that survives power loss |",
      "|---|---|---|---|",
    ]
    for workload in workloads {
      guard let race = races[workload.name], !race.entries.isEmpty else { continue }
      let cells = AnswerRace.needs.map { need -> String in
        guard let answer = race.answer(need) else {
          return race.entries.contains { $0.durability.promise.keeps(atLeast: need) }
            ? "too few repetitions to tell" : "none in this run"
        }
        let count = answer.relations.count
        guard !answer.isSettled else {
          return count == 0 ? "settled (no other candidate)" : "settled (\(count) of \(count))"
        }
        let open = answer.open.map { MarkdownTable.escape(race.entries[$0].label) }
        return "not settled (\(count - open.count) of \(count)); still open: " + open.joined(separator: ", ")
      }
      lines.append("| \(workload.name) | " + cells.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
