import Foundation

/// The Wilcoxon signed-rank test and its Hodges–Lehmann interval, for the paired rounds of `storebench ab`.
///
/// Why this test: in an A/A job the two sides are exchangeable and `ab` alternates which goes first, so each
/// round's log ratio log(current/baseline) is symmetric about 0. The signed-rank test needs exactly that
/// (symmetry, independent rounds) and nothing about the shape; against a shift it has about 95% of the t-test's
/// power on normal data and more on the heavy tails a shared VM gives, where the sign test (which uses only the
/// signs) needs about 1.5× the rounds. The interval is the set of shifts the test does not reject: the Walsh
/// averages (x_i + x_j)/2, i ≤ j, from the k-th smallest to the k-th largest.
public enum SignedRank {
  /// Above this many non-zero pairs the normal approximation replaces the exact distribution (as SciPy does).
  static let exactLimit = 50

  /// Counts of the positive-rank sum T⁺ over the 2ⁿ sign assignments of ranks 1…n: `counts[t]`.
  static func nullCounts(n: Int) -> [Double] {
    var counts = [Double](repeating: 0, count: n * (n + 1) / 2 + 1)
    counts[0] = 1
    var top = 0
    for rank in stride(from: 1, through: n, by: 1) {
      top += rank
      for t in stride(from: top, through: rank, by: -1) { counts[t] += counts[t - rank] }
    }
    return counts
  }

  /// P(T⁺ ≤ t) under the null hypothesis, exact for n ≤ ``exactLimit`` (no ties), normal beyond.
  static func cdf(_ t: Int, n: Int) -> Double {
    guard t >= 0 else { return 0 }
    let total = n * (n + 1) / 2
    guard t < total else { return 1 }
    if n <= exactLimit {
      let counts = nullCounts(n: n)
      return counts[0...t].reduce(0, +) / pow(2, Double(n))
    }
    let mean = Double(total) / 2
    let sd = (Double(n * (n + 1) * (2 * n + 1)) / 24).squareRoot()
    return normalCDF((Double(t) + 0.5 - mean) / sd)
  }

  /// The largest k ≥ 1 with P(T⁺ ≤ k − 1) ≤ α/2: the interval is [W(k), W(N + 1 − k)]; nil when n is too small.
  static func criticalRank(n: Int, alpha: Double) -> Int? {
    guard n >= 1 else { return nil }
    let total = n * (n + 1) / 2
    var k: Int?
    if n <= exactLimit {
      let counts = nullCounts(n: n)
      let scale = pow(2, Double(n))
      var cumulative = 0.0
      for candidate in 1...(total / 2 + 1) {
        cumulative += counts[candidate - 1] / scale
        guard cumulative <= alpha / 2 + 1e-12 else { break }
        k = candidate
      }
      return k
    }
    let mean = Double(total) / 2
    let sd = (Double(n * (n + 1) * (2 * n + 1)) / 24).squareRoot()
    let candidate = Int((mean - normalQuantile(1 - alpha / 2) * sd).rounded(.down))
    return candidate >= 1 ? candidate : nil
  }

  /// The Hodges–Lehmann interval of the centre of `x` at confidence 1 − `alpha`, and the estimate (the median
  /// of the Walsh averages); nil when there are too few values for any interval at that level.
  public static func interval(_ x: [Double], alpha: Double) -> (low: Double, high: Double, estimate: Double)? {
    let n = x.count
    guard let k = criticalRank(n: n, alpha: alpha) else { return nil }
    var walsh: [Double] = []
    walsh.reserveCapacity(n * (n + 1) / 2)
    for i in 0..<n { for j in i..<n { walsh.append((x[i] + x[j]) / 2) } }
    walsh.sort()
    let count = walsh.count
    let estimate = count % 2 == 1 ? walsh[count / 2] : (walsh[count / 2 - 1] + walsh[count / 2]) / 2
    return (walsh[k - 1], walsh[count - k], estimate)
  }

  /// The two-sided p-value of the signed-rank test of "centred on 0": zeros dropped; exact without ties up to
  /// ``exactLimit`` values, else the normal approximation with the tie correction (SciPy's `wilcoxon` defaults).
  public static func pValue(_ x: [Double]) -> Double {
    let values = x.filter { $0 != 0 }
    let n = values.count
    guard n > 0 else { return 1 }
    let magnitudes = values.map(abs)
    let order = magnitudes.indices.sorted { magnitudes[$0] < magnitudes[$1] }
    var ranks = [Double](repeating: 0, count: n)
    var tieCorrection = 0.0
    var start = 0
    while start < n {
      var end = start
      while end + 1 < n && magnitudes[order[end + 1]] == magnitudes[order[start]] { end += 1 }
      let rank = Double(start + end + 2) / 2
      for position in start...end { ranks[order[position]] = rank }
      let tied = Double(end - start + 1)
      tieCorrection += tied * tied * tied - tied
      start = end + 1
    }
    let positive = zip(values, ranks).filter { $0.0 > 0 }.map(\.1).reduce(0, +)
    let total = Double(n * (n + 1)) / 2
    let smaller = min(positive, total - positive)
    if n <= exactLimit && tieCorrection == 0 {
      return min(1, 2 * cdf(Int(smaller.rounded()), n: n))
    }
    let variance = Double(n * (n + 1) * (2 * n + 1)) / 24 - tieCorrection / 48
    guard variance > 0 else { return 1 }
    return min(1, 2 * normalCDF((smaller - total / 2) / variance.squareRoot()))
  }

  static func normalCDF(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }

  /// The standard normal quantile (bisection on ``normalCDF``; exact to 1e-12, called a few times per gate).
  static func normalQuantile(_ p: Double) -> Double {
    var low = -40.0
    var high = 40.0
    for _ in 0..<200 {
      let middle = (low + high) / 2
      if normalCDF(middle) < p { low = middle } else { high = middle }
    }
    return (low + high) / 2
  }
}
