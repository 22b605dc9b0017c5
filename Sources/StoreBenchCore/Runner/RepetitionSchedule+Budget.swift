import Foundation

extension RepetitionSchedule {
  /// A measured repetition of a budgeted case (``RunPlan/Case/budget``): adds its operations to the case's
  /// pooled evidence and applies the budget's rules (``LatencyBudget``). A case its rules stop leaves the rotation
  /// (`over-budget`), and so do the other cases of its strategy (`strategy-over-budget`): a strategy that misses
  /// one budget cannot meet them all. Marks `sample`'s `budget_stop` when a rule between repetitions stopped it.
  /// Call before ``record(_:_:seconds:warmup:runElapsed:)``.
  public mutating func holdToBudget(_ index: Int, _ sample: inout Sample, rule: BudgetDropRule, warmup: Bool) {
    guard !warmup, sample.status == .ok, cases[index].stop == nil else { return }
    let budget = rule.budget
    let over = BudgetEvidence.repetitionOver(sample, budget)
    if over { cases[index].overRepetitions += 1 }
    if budget.perRepetition {
      cases[index].budgetTally.operations += 1
      if over { cases[index].budgetTally.over += 1 }
    } else {
      cases[index].budgetTally.operations += sample.ops
      cases[index].budgetTally.over += sample.notes[.overBudget].flatMap(Int.init) ?? 0
    }
    let repetitions = cases[index].measured + 1
    var stop = sample.notes[.budgetStop].flatMap(BudgetStop.init(rawValue:))
    if stop == .cut { stop = nil }
    if stop == nil
      && BudgetEvidence.certainMiss(
        over: cases[index].overRepetitions, repetitions: repetitions, budget: budget,
        minimum: policy.minimum, maximum: policy.maximum)
    {
      stop = .certain
    } else if stop == nil, budget.perRepetition,
      rule.drops(over: cases[index].budgetTally.over, of: cases[index].budgetTally.operations)
    {
      stop = .dropped
    }
    guard let stop else { return }
    sample.notes[.budgetStop] = stop.rawValue
    cases[index].budgetVerdict = .overBudget
    guard let strategy = strategies[index] else { return }
    for other in cases.indices where other != index && strategies[other] == strategy && cases[other].stop == nil {
      cases[other].stop = .otherBudget
    }
  }
}

/// What a repetition says about a budget.
public enum BudgetEvidence {
  /// The repetition's own figure is over `budget`: its percentile (a repetition cut short by the budget is), or
  /// for a budget per repetition its time (with the first read after it, as advise judges a launch).
  public static func repetitionOver(_ sample: Sample, _ budget: LatencyBudget) -> Bool {
    let limit = budget.milliseconds / 1_000
    if budget.perRepetition {
      return sample.wallSeconds + (sample.notes[.firstReadSeconds].flatMap(Double.init) ?? 0) > limit
    }
    if let stop = sample.notes[.budgetStop], !stop.isEmpty { return true }
    let micro: Double? =
      switch budget.percentile {
      case 50: sample.latency?.p50
      case 90: sample.latency?.p90
      default: sample.latency?.p99
      }
    return (micro ?? 0) / 1e6 > limit
  }

  /// Whether `over` of `repetitions` over the budget make the verdict a miss at every number of repetitions the
  /// row may end with (`minimum`…`maximum`): for a budget per repetition, the nearest-rank percentile of the
  /// repetitions; otherwise the median of their percentiles.
  public static func certainMiss(over: Int, repetitions: Int, budget: LatencyBudget, minimum: Int, maximum: Int)
    -> Bool
  {
    guard over > 0 else { return false }
    let ends = max(minimum, repetitions)...max(maximum, minimum, repetitions)
    return ends.allSatisfy { n in
      budget.perRepetition ? over >= budget.overToMiss(of: n) : over >= n / 2 + 1
    }
  }
}
