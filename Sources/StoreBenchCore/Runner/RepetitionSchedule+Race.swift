import Foundation

/// The answer groups a racing run spends its repetitions on: per workload, the rows the report's answer is given
/// from (``DecisionReport``'s main group: the scenario's own parameters), the floor excluded.
public struct RaceGroups: Sendable {
  /// Each group's case indices.
  public let groups: [[Int]]
  /// The group of each case in one (absent: no answer depends on the case).
  public let group: [Int: Int]
  /// Each case's declared durability class, by case index.
  public let promise: [Int: DurabilityPromise]
  /// How many of its case caps a leader may spend while candidates still settle against it.
  public static let leaderCapFactor = 4.0

  public init(groups: [[Int]], promise: [Int: DurabilityPromise]) {
    self.groups = groups
    self.promise = promise
    var group: [Int: Int] = [:]
    for (index, members) in groups.enumerated() { for member in members { group[member] = index } }
    self.group = group
  }
}

extension RepetitionSchedule {
  /// Racing, after a round: tests every case that reached a look against its answers' leaders, stops the
  /// settled ones and the leaders with nothing left to lead, and marks the cases that sit out the next round.
  ///
  /// A case at a look waits (is not tested, does not run) while one of its leaders is still running with fewer
  /// repetitions than the most extreme ordering needs to settle it (``AnswerRule/leaderRepetitionsNeeded``): the
  /// leader, usually the cheapest row, runs ahead, and a slow row far from it settles from a few repetitions. Each
  /// look is tested once, so a relation is tested at most at the rule's looks (and once more by the report).
  public mutating func applyRace() {
    guard let race else { return }
    let rule = AnswerRule(maximum: policy.maximum)
    let leaderMinimum = min(looks.minimumCount, policy.maximum)
    for members in race.groups {
      let entries = members.compactMap { index -> AnswerRace.Entry? in
        let state = cases[index]
        guard state.stop != .failed, state.stop != .unsupported, !state.wall.isEmpty else { return nil }
        return AnswerRace.Entry(id: index, walls: state.wall, promise: race.promise[index] ?? .mayLose)
      }
      let answers = AnswerRace(entries: entries, rule: rule)
      for index in members {
        cases[index].leads = answers.answers.contains { $0.leader == index }
        cases[index].waiting = false
      }
      for index in members where isActive(index) {
        test(index, answers: answers, rule: rule)
      }
      for index in members where isActive(index) {
        let mine = answers.answers(containing: index)
        let leaders = Set(mine.map(\.leader)).subtracting([index])
        let memberDone = leaders.isSubset(of: cases[index].settledAgainst)
        let led = mine.filter { $0.leader == index }
        let ledDone =
          led.allSatisfy { answer in answer.relations.keys.allSatisfy { !isActive($0) } }
          && (led.isEmpty || cases[index].wall.count >= leaderMinimum)
        guard memberDone && ledDone else { continue }
        cases[index].waiting = false
        cases[index].stop =
          !led.isEmpty ? .leader : cases[index].settledEquivalent ? .settledEquivalent : .settledSlower
      }
    }
    // Someone must run: when every active case would wait, none does.
    if cases.allSatisfy({ $0.stop != nil || $0.waiting }) {
      for index in cases.indices { cases[index].waiting = false }
    }
  }

  /// Tests `index` at its look, or marks it waiting for a leader.
  private mutating func test(_ index: Int, answers: AnswerRace, rule: AnswerRule) {
    let n = cases[index].wall.count
    guard rule.looks.contains(n), cases[index].testedAt < n else { return }
    let mine = answers.answers(containing: index).filter { $0.leader != index }
    guard !mine.isEmpty else { return }
    let needed = rule.leaderRepetitionsNeeded(n: n, alpha: answers.alpha, limit: policy.maximum) ?? policy.maximum
    let leaderBehind = mine.contains { answer in
      let leader = cases[answer.leader]
      return leader.stop == nil && leader.measured < policy.maximum && leader.wall.count < needed
    }
    if leaderBehind {
      cases[index].waiting = true
      return
    }
    cases[index].testedAt = n
    let relations = mine.compactMap { answer in answer.relations[index].map { (answer.leader, $0) } }
    if relations.allSatisfy({ $0.1.isSettled }) {
      cases[index].settledAgainst = Set(relations.map(\.0))
      cases[index].settledEquivalent = relations.contains { $0.1.verdict == .equivalent }
    } else {
      cases[index].settledAgainst = []
    }
  }
}

extension RunPlan {
  /// The answer groups of this plan: per workload, the cases of the group ``DecisionReport/mainGroup(_:)`` picks
  /// (same size, parameters and data), the floor excluded; a case in no group runs the policy's minimum.
  public var raceGroups: RaceGroups {
    var byWorkload: [String: [DecisionReport.GroupID: [Int]]] = [:]
    var promise: [Int: DurabilityPromise] = [:]
    for (index, planned) in cases.enumerated() {
      let declared = planned.backend.promise(planned.variant)
      guard declared != .none else { continue }
      promise[index] = declared
      let id = DecisionReport.GroupID(
        size: planned.key.size, parameters: planned.key.parameters, dataset: planned.data.fingerprint)
      byWorkload[planned.workload.name, default: [:]][id, default: []].append(index)
    }
    let groups = byWorkload.keys.sorted().compactMap { workload -> [Int]? in
      let groups = byWorkload[workload]!
      return DecisionReport.mainGroup(groups.mapValues(\.count)).flatMap { groups[$0] }
    }
    return RaceGroups(groups: groups, promise: promise)
  }
}
