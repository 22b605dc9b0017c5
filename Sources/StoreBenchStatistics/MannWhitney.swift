import Foundation
import StoreBenchContract
import StoreBenchMeasure

/// The Mann–Whitney U test (Wilcoxon rank-sum), two-sided: do two samples come from the same distribution?
///
/// Without ties and with both samples of at most 20 values, the p-value is exact (the distribution of U by
/// dynamic programming). Otherwise it uses the normal approximation with the tie correction and a continuity
/// correction — the same choices as SciPy's `mannwhitneyu(method="exact")` and `method="asymptotic"`, against
/// which the tests check it.
public enum MannWhitney {
  public struct Result: Sendable, Equatable {
    /// U of the first sample.
    public let u: Double
    public let pValue: Double
    public let exact: Bool
  }

  /// The smallest two-sided p-value any data can give with `m` and `n` values a side: 2 / C(m+n, m), the
  /// probability of the most extreme ordering (ties only make it larger). When it is not below alpha, no
  /// difference can be called significant.
  public static func smallestPValue(_ m: Int, _ n: Int) -> Double {
    guard m > 0, n > 0 else { return 1 }
    var orderings = 1.0
    for k in 0..<min(m, n) { orderings = orderings * Double(m + n - k) / Double(k + 1) }
    return min(1, 2 / orderings)
  }

  public static func test(_ x: [Double], _ y: [Double]) -> Result? {
    let n1 = x.count
    let n2 = y.count
    guard n1 > 0, n2 > 0 else { return nil }
    let ranked = (x.map { ($0, 0) } + y.map { ($0, 1) }).sorted { $0.0 < $1.0 }
    var ranks = [Double](repeating: 0, count: ranked.count)
    var tieTerm = 0.0
    var start = 0
    while start < ranked.count {
      var end = start
      while end + 1 < ranked.count && ranked[end + 1].0 == ranked[start].0 { end += 1 }
      let rank = Double(start + end) / 2 + 1
      for index in start...end { ranks[index] = rank }
      let t = Double(end - start + 1)
      tieTerm += t * t * t - t
      start = end + 1
    }
    let rankSumX = zip(ranked, ranks).filter { $0.0.1 == 0 }.reduce(0) { $0 + $1.1 }
    let u1 = rankSumX - Double(n1 * (n1 + 1)) / 2
    let hasTies = tieTerm > 0
    if !hasTies && n1 <= 20 && n2 <= 20 {
      return Result(u: u1, pValue: exactPValue(u: u1, n1: n1, n2: n2), exact: true)
    }
    let n = Double(n1 + n2)
    let mean = Double(n1 * n2) / 2
    let variance = Double(n1 * n2) / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
    guard variance > 0 else { return Result(u: u1, pValue: 1, exact: false) }
    let uMax = max(u1, Double(n1 * n2) - u1)
    let z = (uMax - mean - 0.5) / variance.squareRoot()
    return Result(u: u1, pValue: min(1, 2 * normalSurvival(z)), exact: false)
  }

  /// Two-sided exact p-value: 2 × P(U ≥ max(u, n1·n2 − u)), capped at 1.
  static func exactPValue(u: Double, n1: Int, n2: Int) -> Double {
    let counts = uDistribution(n1: n1, n2: n2)
    let total = counts.reduce(0, +)
    let upper = Int(max(u, Double(n1 * n2) - u).rounded())
    let tail = counts[upper...].reduce(0, +)
    return min(1, 2 * tail / total)
  }

  /// The number of orderings giving each U = 0…`degree` (default n1·n2, the whole distribution) for samples of
  /// `n1` and `n2`: the coefficients of the Gaussian binomial [n1+n2 choose n1] in q, built as
  /// ∏ (1 − q^(n2+i)) / (1 − q^i) for i = 1…n1 (a polynomial at every step, so truncating at `degree` is exact).
  /// Counts are Doubles: exact up to C(40, 20), beyond Int64 for large samples.
  public static func uDistribution(n1: Int, n2: Int, upTo degree: Int? = nil) -> [Double] {
    let degree = degree ?? n1 * n2
    var counts = [Double](repeating: 0, count: degree + 1)
    counts[0] = 1
    for i in stride(from: 1, through: n1, by: 1) {
      let power = n2 + i
      if power <= degree {
        for j in stride(from: degree, through: power, by: -1) { counts[j] -= counts[j - power] }
      }
      if i <= degree {
        for j in i...degree { counts[j] += counts[j - i] }
      }
    }
    return counts
  }

  /// P(Z > z) for a standard normal variable.
  static func normalSurvival(_ z: Double) -> Double { 0.5 * erfc(z / 2.0.squareRoot()) }
}
