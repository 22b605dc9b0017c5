import Foundation

/// A latency budget on a workload's operations — "p99 under 16.7 ms" — and when the evidence against it is already
/// enough: the rules by which a repetition, and a strategy, stop before their planned end.
///
/// The verdict the budget is judged by (advise's, `check --budgets`'): for a workload of many operations, the
/// median over the repetitions of each repetition's own percentile (nearest rank, as HdrHistogram gives it); for a
/// workload whose repetition is one operation (a launch), the nearest-rank percentile over the repetitions.
///
/// Three rules stop measuring early:
/// - **Cut** (certain): a repetition stops once its own percentile is over the budget whatever its remaining
///   operations take — `n − rank + 1` of its `n` operations over (2 of 100 for p99).
/// - **Drop, certain**: the strategy's verdict is already a miss whatever its remaining repetitions give (a launch
///   over a p99 budget: the p99 of 8–16 launches is the slowest).
/// - **Drop, on evidence** (``errorRate``): pooled over every operation the strategy has timed for this workload,
///   `s` of `j` over the budget, the strategy is dropped when `P(Binomial(j, q*) ≥ s) ≤ errorRate / L`, where
///   `q*` is the share of operations over the budget at which a verdict is a miss half the time (a strategy that
///   meets the budget has fewer) and `L` the most operations the row can time (the Bonferroni correction for a
///   test at every operation). If operations exceed the budget independently, a strategy that meets it is dropped
///   with probability at most ``errorRate`` (held by a simulation test).
public struct LatencyBudget: Sendable, Equatable, CustomStringConvertible {
  /// The percentile judged: 50, 90 or 99.
  public let percentile: Int
  public let nanoseconds: UInt64
  /// One operation is the whole repetition (a launch, a migration).
  public let perRepetition: Bool

  public init(percentile: Int, milliseconds: Double, perRepetition: Bool = false) {
    self.percentile = percentile
    nanoseconds = UInt64((milliseconds * 1_000_000).rounded())
    self.perRepetition = perRepetition
  }

  public var milliseconds: Double { Double(nanoseconds) / 1e6 }
  public var description: String {
    "p\(percentile) \(Self.format(milliseconds)) ms\(perRepetition ? " a repetition" : "")"
  }

  /// `16.7`, `200`: milliseconds as a profile writes them.
  public static func format(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(format: "%g", value)
  }

  /// The chance the evidence rule drops a strategy that meets its budget.
  public static let errorRate = 0.01

  /// Nearest rank of the percentile among `n` values (HdrHistogram's `valueAtPercentile`).
  public func rank(of n: Int) -> Int { max(1, Int((Double(percentile) * Double(n) / 100).rounded(.up))) }

  /// Values over the budget that put the nearest-rank percentile of `n` values over it.
  public func overToMiss(of n: Int) -> Int { n - rank(of: n) + 1 }

  /// The share of operations over the budget at which a verdict on `n` values is a miss half the time:
  /// `P(Binomial(n, q) ≥ overToMiss(n)) = 1/2`.
  public func halfMissShare(of n: Int) -> Double {
    let needed = overToMiss(of: n)
    var (low, high) = (0.0, 1.0)
    for _ in 0..<60 {
      let mid = (low + high) / 2
      if Binomial.tail(n: n, p: mid, atLeast: needed) < 0.5 { low = mid } else { high = mid }
    }
    return (low + high) / 2
  }
}

/// The evidence rule's thresholds for one row: `most[s]` is the most operations `j` at which `s` over the budget
/// still drop the strategy (``LatencyBudget``); none: the rule never drops.
public struct BudgetDropRule: Sendable, Equatable {
  public let budget: LatencyBudget
  /// Operations one repetition times (1 for a budget per repetition).
  public let operationsPerRepetition: Int
  /// Values a verdict rests on at its first look: the operations of a repetition, or the first look's
  /// repetitions for a budget per repetition.
  public let verdictValues: Int
  /// The most operations the row can time (the looks the correction counts).
  public let looks: Int
  public let share: Double
  /// `most[s - 1]`: the most operations at which `s` over the budget drop the strategy (0: not yet possible).
  public let most: [Int]

  /// The rule for `budget` on a row timing `operations` per repetition, judged at `minimum` and measured at
  /// most `maximum` repetitions.
  /// `level`: the tail probability at which one look drops (default ``LatencyBudget/errorRate`` over the looks;
  /// tests pass a larger one to show what the correction is for).
  public init(_ budget: LatencyBudget, operations: Int, minimum: Int, maximum: Int, level: Double? = nil) {
    self.budget = budget
    operationsPerRepetition = budget.perRepetition ? 1 : max(operations, 1)
    verdictValues = budget.perRepetition ? minimum : operationsPerRepetition
    looks = operationsPerRepetition * max(maximum, 1)
    share = budget.halfMissShare(of: verdictValues)
    let level = level ?? LatencyBudget.errorRate / Double(looks)
    var most: [Int] = []
    // For a fixed count over, the tail grows with the operations: the largest j still under the level.
    var s = 1
    while s <= looks {
      var (low, high) = (s - 1, looks)
      while low < high {
        let mid = (low + high + 1) / 2
        if Binomial.tail(n: mid, p: share, atLeast: s) <= level { low = mid } else { high = mid - 1 }
      }
      most.append(low)
      if low >= looks { break }
      s += 1
    }
    self.most = most
    allOverDrop = most.indices.first { most[$0] >= $0 + 1 }.map { $0 + 1 }
  }

  /// Operations, every one over the budget, that drop the strategy (nil: the rule cannot within the row).
  public let allOverDrop: Int?

  /// Whether `over` of `operations` (pooled) drop the strategy.
  public func drops(over: Int, of operations: Int) -> Bool {
    guard over >= 1 else { return false }
    return operations <= most[min(over, most.count) - 1]
  }

  /// The chance a strategy whose operations exceed the budget independently with probability ``share`` is
  /// dropped (by the rule's construction at most ``LatencyBudget/errorRate``).
  public var errorRate: Double { LatencyBudget.errorRate }
}

/// Binomial tails, in log space (stable at thousands of trials).
public enum Binomial {
  /// `P(X ≥ k)` for `X ~ Binomial(n, p)`.
  public static func tail(n: Int, p: Double, atLeast k: Int) -> Double {
    if k <= 0 { return 1 }
    if k > n { return 0 }
    if p <= 0 { return 0 }
    if p >= 1 { return 1 }
    // Sum the shorter side.
    if k > n / 2 {
      var total = 0.0
      for i in k...n { total += exp(logPMF(n, i, p)) }
      return min(total, 1)
    }
    var below = 0.0
    for i in 0..<k { below += exp(logPMF(n, i, p)) }
    return max(0, 1 - below)
  }

  static func logPMF(_ n: Int, _ i: Int, _ p: Double) -> Double {
    lgamma(Double(n + 1)) - lgamma(Double(i + 1)) - lgamma(Double(n - i + 1)) + Double(i) * log(p)
      + Double(n - i) * log1p(-p)
  }
}
