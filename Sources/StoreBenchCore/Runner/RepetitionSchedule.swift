import Foundation

/// Why a case left the rotation (the summary's `stopped` column).
public enum StopReason: String, Sendable {
  /// Its median's interval reached the target precision.
  case precise
  /// It ran the policy's maximum number of repetitions.
  case maximum = "max-repetitions"
  /// Its own time cap was spent.
  case caseTime = "case-time"
  /// The run's budget was spent.
  case budget
  /// A repetition failed: repeating would not make the row pass.
  case failed
  /// The backend declined the workload.
  case unsupported
  /// Racing (``RepetitionPolicy/StopRule/answer``): its relation to every leader of its answers is settled, and
  /// at least one of them says slower.
  case settledSlower = "settled-slower"
  /// Racing: its relation to every leader of its answers is settled, and at least one says equivalent.
  case settledEquivalent = "settled-equivalent"
  /// Racing: it leads an answer, and every candidate it leads has stopped.
  case leader
  /// Racing: no answer depends on it (a limited row, the floor); it ran the minimum.
  case noAnswer = "no-answer"
  /// Its budget's rules (``LatencyBudget``): it misses its budget whatever further repetitions give, or on the
  /// evidence rule's.
  case overBudget = "over-budget"
  /// Another workload of its strategy stopped `over-budget`: the strategy cannot meet every budget.
  case otherBudget = "strategy-over-budget"
}

/// Decides, case by case, whether another repetition buys precision (``RepetitionPolicy``), and estimates the
/// time left. The runner records every repetition here and skips cases that have stopped.
public struct RepetitionSchedule {
  public struct CaseState {
    /// `wall_s` of the ok measured repetitions.
    public internal(set) var wall: [Double] = []
    public internal(set) var measured = 0
    public internal(set) var repetitions = 0
    /// Wall-clock seconds of all its repetitions, warm-ups included.
    public internal(set) var spent = 0.0
    /// Wall-clock seconds of its measured repetitions alone (a warm-up also fills a read-only store once, so it
    /// says little about what the next repetition costs).
    public internal(set) var measuredSpent = 0.0
    public internal(set) var stop: StopReason?
    /// Racing: the last look at which its relations were tested (0: none yet).
    public internal(set) var testedAt = 0
    /// Racing: it sits out this round, waiting for a leader to reach the repetitions its test needs.
    public internal(set) var waiting = false
    /// Racing: it leads one of its answers.
    public internal(set) var leads = false
    /// Racing: the leaders its last test settled it against, and whether one of the verdicts was equivalent.
    public internal(set) var settledAgainst: Set<Int> = []
    public internal(set) var settledEquivalent = false
    /// A budgeted case: its operations timed against the budget, and those over it, so far.
    public internal(set) var budgetTally = BudgetTally()
    /// A budgeted case: its measured repetitions whose own figure was over the budget.
    public internal(set) var overRepetitions = 0
    /// Set when its budget's rules stop it (``holdToBudget(_:_:rule:warmup:)``).
    var budgetVerdict: StopReason?

    /// What the next repetition is expected to cost: the mean of the measured ones, or of all so far.
    public var meanCost: Double {
      if measured > 0 { return measuredSpent / Double(measured) }
      return repetitions > 0 ? spent / Double(repetitions) : 0
    }
  }

  public let policy: RepetitionPolicy
  public internal(set) var cases: [CaseState]

  /// The policy's look schedule, computed once: it is consulted after every repetition, for every case.
  public let looks: LookSchedule

  /// The answer groups the run races by (nil: precision decides).
  public let race: RaceGroups?

  /// Each case's strategy (`backend [variant]`), for the cases whose budget can stop their siblings.
  public let strategies: [Int: String]

  public init(policy: RepetitionPolicy, caseCount: Int, race: RaceGroups? = nil, strategies: [Int: String] = [:]) {
    self.policy = policy
    self.strategies = strategies
    looks = policy.schedule
    cases = Array(repeating: CaseState(), count: caseCount)
    self.race = policy.racing ? race : nil
  }

  public func isActive(_ index: Int) -> Bool { cases[index].stop == nil }
  /// Whether the case runs in this round: active, and not waiting for a leader.
  public func runsThisRound(_ index: Int) -> Bool { cases[index].stop == nil && !cases[index].waiting }
  public var activeCount: Int { cases.count { $0.stop == nil } }

  /// How far the case's median interval reaches from the median (relative), nil while there is none.
  public func precision(_ index: Int) -> Double? {
    guard let statistics = Statistics(cases[index].wall, schedule: looks),
      let interval = statistics.medianInterval
    else { return nil }
    return NoiseFlags.reach(interval, median: statistics.median)
  }

  /// Records a repetition that took `seconds` overall, then decides whether the case goes on. A warm-up that
  /// failed or was declined counts as the case's measured repetition (the caller writes it) and stops the case.
  /// Returns whether the sample is to be written.
  public mutating func record(_ index: Int, _ sample: Sample, seconds: Double, warmup: Bool, runElapsed: Double)
    -> Bool
  {
    var state = cases[index]
    state.repetitions += 1
    state.spent += seconds
    let counts = !warmup || sample.status != .ok
    if counts {
      state.measured += 1
      state.measuredSpent += seconds
      if sample.status == .ok { state.wall.append(sample.wallSeconds) }
    }
    cases[index] = state
    switch sample.status {
    case .failed: cases[index].stop = .failed
    case .unsupported: cases[index].stop = .unsupported
    case .ok: if !warmup { cases[index].stop = decide(index, runElapsed: runElapsed) }
    case .counted: preconditionFailure("a counting pass's row is not a repetition of the schedule")
    }
    return counts
  }

  /// Ends the rotation for cases that have a measured repetition once the run's budget is spent.
  public mutating func applyBudget(runElapsed: Double) {
    guard let budget = policy.budgetSeconds, runElapsed >= budget else { return }
    for index in cases.indices where cases[index].stop == nil && cases[index].measured >= 1 {
      cases[index].stop = .budget
    }
  }

  private func decide(_ index: Int, runElapsed: Double) -> StopReason? {
    let state = cases[index]
    if let verdict = state.budgetVerdict { return verdict }
    if let race {
      // Racing: the answers stop the cases in them (``applyRace()``); the others run the minimum.
      if race.group[index] == nil && state.wall.count >= policy.minimum { return .noAnswer }
    } else if state.wall.count >= policy.minimum, looks.isLook(state.wall.count), let precision = precision(index),
      precision <= policy.targetPrecision
    {
      // Precision is judged only at the schedule's looks: judging after every repetition would stop on
      // samples that are narrow by chance, and the interval would cover its median less often than it says.
      return .precise
    }
    if state.measured >= policy.maximum { return .maximum }
    // Another repetition would overrun the case's cap: stop now rather than after. A racing leader may spend
    // a few caps: the candidates it leads settle against its repetitions.
    if let cap = policy.caseSeconds {
      let allowed = race != nil && state.leads ? cap * RaceGroups.leaderCapFactor : cap
      if state.spent + state.meanCost > allowed { return .caseTime }
    }
    if let budget = policy.budgetSeconds, runElapsed >= budget { return .budget }
    return nil
  }

  /// Seconds the active cases still need by the policy (``remaining(runElapsed:)``).
  public func secondsLeft(runElapsed: Double) -> Double { remaining(runElapsed: runElapsed).seconds }

  /// The repetitions and seconds the active cases still need by the policy: each case's mean repetition cost
  /// times the repetitions it is expected to need (to the minimum, then as many as its current precision
  /// suggests, ~1/√n), within its cap and the maximum; the seconds bounded by what is left of the budget.
  public func remaining(runElapsed: Double) -> (repetitions: Int, seconds: Double) {
    var total = 0.0
    var repetitions = 0
    for (index, state) in cases.enumerated() where state.stop == nil {
      let cost = state.meanCost
      var needed = max(policy.minimum - state.wall.count, 0) + max(policy.warmup - state.repetitions, 0)
      if race != nil {
        // Racing: to the next look (a leader to the maximum).
        let next =
          state.leads
          ? policy.maximum
          : (AnswerRule(maximum: policy.maximum).looks.first { $0 > state.wall.count } ?? policy.maximum)
        needed = max(needed, next - state.wall.count, 1)
      } else if needed == 0 {
        if let precision = precision(index), precision > 0 {
          let ratio = precision / policy.targetPrecision
          needed = max(Int((Double(state.wall.count) * ratio * ratio).rounded(.up)) - state.wall.count, 1)
        } else {
          needed = 1
        }
        // A case stops for precision only at a look: the next look at or after the estimate.
        let wanted = state.wall.count + needed
        if let look = looks.looks.first(where: { $0 >= wanted }) { needed = look - state.wall.count }
      }
      needed = max(min(needed, policy.maximum - state.measured), 0)
      if let cap = policy.caseSeconds, cost > 0 {
        needed = min(needed, max(Int(((cap - state.spent) / cost).rounded(.up)), 1))
      }
      total += Double(needed) * cost
      repetitions += needed
    }
    if let budget = policy.budgetSeconds { total = min(total, max(budget - runElapsed, 0) + roundSeconds) }
    return (repetitions, total)
  }

  /// The cost of one round of the active cases.
  private var roundSeconds: Double { cases.filter { $0.stop == nil }.reduce(0) { $0 + $1.meanCost } }
}
