import Foundation

/// A distribution-free confidence interval of the median: the order statistics `x(l)` and `x(n+1−l)` with the
/// largest `l` such that `P(Binomial(n, ½) ≤ l − 1) ≤ α/2` (the sign-test interval; SciPy's
/// `quantile_test(x, q=0.5).confidence_interval(1 − α)` gives the same). It assumes only independent repetitions,
/// never leaves [min, max], and cannot be negative for times. At α = 0.05 it needs n ≥ 6; a run whose rows may
/// stop early looks at them several times and uses a smaller α per look (``LookSchedule``), which needs more.
/// Too few repetitions: ``init(sorted:alpha:)`` returns nil and the report says why (``unavailableReason(n:alpha:)``).
public struct MedianInterval: Sendable, Equatable {
  public let low: Double
  public let high: Double
  /// 1-based ranks of the two order statistics.
  public let lowerRank: Int
  public let upperRank: Int
  /// The exact probability that the interval covers the true median at a fixed n (≥ 1 − α, e.g. 0.969 for n = 6
  /// at α = 0.05).
  public let coverage: Double

  /// The method, as `environment.json` records it.
  public static let method =
    "distribution-free 95% interval of the median: order statistics x(l), x(n+1-l) with "
    + "the largest l such that P(Binomial(n, 1/2) <= l-1) <= 0.025 (sign-test interval); none for n < 6"

  /// The smallest number of repetitions that has a 95% interval of the median.
  public static let minimumCount = 6

  /// The repetitions a verdict needs (a budget kept or missed, "no lost update", a recommendation) where no run's own
  /// first look says otherwise: 8, the first look of storebench's adaptive schedules.
  public static let verdictCount = 8

  /// The smallest number of repetitions that has an interval at `alpha`.
  public static func minimumCount(alpha: Double) -> Int {
    var n = 1
    while lowerRank(n: n, alpha: alpha) == nil { n += 1 }
    return n
  }

  /// The interval of an ascending sample at confidence 1 − `alpha`; nil when n is too small for one.
  public init?(sorted: [Double], alpha: Double = 0.05) {
    let n = sorted.count
    guard let rank = Self.lowerRank(n: n, alpha: alpha) else { return nil }
    lowerRank = rank
    upperRank = n + 1 - rank
    low = sorted[rank - 1]
    high = sorted[n - rank]
    coverage = 1 - 2 * Self.binomialCDF(rank - 1, n: n)
  }

  /// Why a row of `n` repetitions has no interval at `alpha` (empty cells need a reason), or nil when it has one.
  public static func unavailableReason(n: Int, alpha: Double = 0.05) -> String? {
    let needed = minimumCount(alpha: alpha)
    return n >= needed ? nil : "n=\(n): the interval of the median needs at least \(needed) repetitions here"
  }

  /// The largest l with P(Binomial(n, ½) ≤ l − 1) ≤ α/2, or nil when even l = 1 is too wide a bet.
  static func lowerRank(n: Int, alpha: Double = 0.05) -> Int? {
    guard n >= 1 else { return nil }
    var rank: Int?
    var cumulative = 0.0
    for candidate in 1...((n + 1) / 2) {
      cumulative += binomialProbability(candidate - 1, n: n)
      guard cumulative <= alpha / 2 + 1e-12 else { break }
      rank = candidate
    }
    return rank
  }

  /// P(Binomial(n, ½) = k), computed in logarithms (exact enough for any n a run has).
  static func binomialProbability(_ k: Int, n: Int) -> Double {
    exp(lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1)) - Double(n) * log(2))
  }

  /// P(Binomial(n, ½) ≤ k).
  static func binomialCDF(_ k: Int, n: Int) -> Double {
    k < 0 ? 0 : (0...k).reduce(0) { $0 + binomialProbability($1, n: n) }
  }
}
