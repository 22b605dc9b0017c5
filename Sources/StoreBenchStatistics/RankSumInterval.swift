import Foundation

/// The exact distribution-free interval of the ratio of two samples' times that the rank-sum (Mann–Whitney) test
/// inverts: the times are compared in logarithms, every pairwise difference `log xᵢ − log yⱼ` is formed, and the
/// interval runs from the k-th smallest to the k-th largest of them, exponentiated, with the largest k such that
/// `P(U ≤ k − 1) ≤ α/2` under the null (Moses' interval; R's `wilcox.test(log(x), log(y), conf.int = TRUE)`
/// gives the same ends). It covers the ratio by which x's distribution is shifted from y's with probability at
/// least 1 − α, assuming only independent repetitions and a shift in logarithms.
///
/// Its first bound is the exact rank test the race settles far rows with: when every time of x is slower than
/// every time of y, the lower end is min x / max y, and it exists from the smallest samples whose most extreme
/// ordering is rare enough, `1 / C(n + m, n) ≤ α/2` — one row of 4 repetitions against a leader of 17 at the
/// race's level, before either has an interval of its median.
public struct RankSumInterval: Sendable, Equatable {
  /// The interval of the ratio x over y.
  public let low: Double
  public let high: Double
  /// The rank of the pairwise ratios the ends are (1: the extreme ones, complete separation).
  public let rank: Int
  /// The probability of an interval at least this extreme under no shift: `P(U ≤ rank − 1)` on one side.
  public let tail: Double

  /// The interval at confidence 1 − `alpha` of `x` over `y` (positive times); nil when even the most extreme
  /// ordering is not rare enough at these sizes.
  public init?(_ x: [Double], over y: [Double], alpha: Double) {
    let (n, m) = (x.count, y.count)
    guard n > 0, m > 0, x.allSatisfy({ $0 > 0 }), y.allSatisfy({ $0 > 0 }) else { return nil }
    guard let (rank, tail) = Self.criticalRank(n: n, m: m, alpha: alpha) else { return nil }
    let logY = y.map { log($0) }
    var differences: [Double] = []
    differences.reserveCapacity(n * m)
    for value in x {
      let logX = log(value)
      for other in logY { differences.append(logX - other) }
    }
    differences.sort()
    low = exp(differences[rank - 1])
    high = exp(differences[n * m - rank])
    self.rank = rank
    self.tail = tail
  }

  /// The largest k with `P(U ≤ k − 1) ≤ α/2` for samples of `n` and `m`, and that probability; nil when k = 1
  /// is already too likely.
  public static func criticalRank(n: Int, m: Int, alpha: Double) -> (Int, Double)? {
    // The most extreme ordering alone: 1 / C(n + m, n). Checked first, without the distribution.
    guard isPossible(n: n, m: m, alpha: alpha) else { return nil }
    let half = (n * m + 1) / 2
    let counts = MannWhitney.uDistribution(n1: n, n2: m, upTo: half)
    let total = 2 / MannWhitney.smallestPValue(n, m)
    var cumulative = 0.0
    var found: (Int, Double)?
    for k in 1...max(half, 1) {
      cumulative += counts[k - 1]
      guard cumulative / total <= alpha / 2 + 1e-15 else { break }
      found = (k, cumulative / total)
    }
    return found
  }

  /// Whether samples of `n` and `m` can have an interval at `alpha` at all (their most extreme ordering is rare
  /// enough).
  public static func isPossible(n: Int, m: Int, alpha: Double) -> Bool {
    n > 0 && m > 0 && MannWhitney.smallestPValue(n, m) / 2 <= alpha / 2 + 1e-15
  }

  /// The verdict of this interval in the one vocabulary.
  public func verdict(_ margin: TieMargin) -> RatioVerdict { margin.verdict(low: low, high: high) }
}
