import Foundation
import StoreBenchContract

/// E-Divisive means (Matteson & James, "A Nonparametric Approach for Multiple Change Point Analysis of Multivariate
/// Data", JASA 2014), the change-point method of MongoDB's and Apache Otava's performance CI.
///
/// For a segment it finds the split τ that maximises the scaled energy distance between the values before and after
/// it, `Q(τ) = a·b/(a+b) · (2/(ab) Σ|xᵢ−yⱼ| − 1/C(a,2) Σ|xᵢ−xₖ| − 1/C(b,2) Σ|yⱼ−yₖ|)`, and keeps the split when a
/// permutation test says a maximum that large is rare without a change (the segment's values shuffled
/// `permutations` times; p = (1 + #{Q* ≥ Q}) / (1 + permutations)). Accepted splits divide their segment and the
/// search repeats until no segment has a significant split. No distribution is assumed; the energy distance reacts
/// to a shift of the level, not to a single outlier, which is what "steps, not wiggles" asks for. The shuffles are
/// seeded, so the same series always gives the same answer.
public struct EDivisive: Sendable {
  /// How many shuffles each test makes (199 allows p down to 0.005).
  public var permutations = 199
  /// The significance each split must reach.
  public var alpha = 0.01
  /// The fewest points on each side of a split.
  public var minSegment = 3
  public var seed: UInt64 = 0x4544_6976

  public init(permutations: Int = 199, alpha: Double = 0.01, minSegment: Int = 3) {
    self.permutations = permutations
    self.alpha = alpha
    self.minSegment = minSegment
  }

  /// The fewest points in which any split can reach `alpha`: a permutation test cannot give p below 1 / C(n, a) (the
  /// chance that a shuffle puts the same values on each side), so with α = 0.01 and 3 points a side, 9 points.
  public var fewestPointsForAStep: Int {
    for n in (2 * minSegment)...1_000 {
      var best = 0.0
      for a in minSegment...(n - minSegment) {
        best = max(best, exp(lgamma(Double(n + 1)) - lgamma(Double(a + 1)) - lgamma(Double(n - a + 1))))
      }
      if 1 / best <= alpha { return n }
    }
    return .max
  }

  /// The indices where a new level starts, in order (never 0, and never within `minSegment` of either end).
  public func changePoints(_ values: [Double]) -> [Int] {
    var rng = SplitMix64(seed: seed)
    var found: [Int] = []
    var segments = [0..<values.count]
    while true {
      var best: (segment: Int, split: Int, q: Double)?
      for (index, segment) in segments.enumerated() {
        guard let (split, q) = bestSplit(Array(values[segment])), best.map({ q > $0.q }) ?? true else {
          continue
        }
        best = (index, segment.lowerBound + split, q)
      }
      guard let best else { break }
      let segment = Array(values[segments[best.segment]])
      var exceed = 0
      var shuffled = segment
      // Stops early once the split can no longer reach alpha (most segments without a change stop within a
      // few shuffles).
      let allowed = Int(alpha * Double(1 + permutations)) - 1
      for _ in 0..<permutations where exceed <= allowed {
        shuffled.shuffle(using: &rng)
        if let (_, q) = bestSplit(shuffled), q >= best.q { exceed += 1 }
      }
      let p = Double(1 + exceed) / Double(1 + permutations)
      guard p <= alpha else { break }
      found.append(best.split)
      let range = segments.remove(at: best.segment)
      segments.append(range.lowerBound..<best.split)
      segments.append(best.split..<range.upperBound)
    }
    return found.sorted()
  }

  /// The split of `x` with the largest Q, when the segment is long enough to split, and Q at it.
  func bestSplit(_ x: [Double]) -> (Int, Double)? {
    let n = x.count
    guard n >= 2 * minSegment, minSegment >= 2 else { return nil }
    // prefix[i][j] = Σ_{r<i, c<j} |x_r − x_c|
    let width = n + 1
    var prefix = [Double](repeating: 0, count: width * width)
    for r in 0..<n {
      var rowSum = 0.0
      for c in 0..<n {
        rowSum += abs(x[r] - x[c])
        prefix[(r + 1) * width + c + 1] = prefix[r * width + c + 1] + rowSum
      }
    }
    let total = prefix[n * width + n]
    var best: (Int, Double)?
    for tau in minSegment...(n - minSegment) {
      let a = Double(tau)
      let b = Double(n - tau)
      let left = prefix[tau * width + tau]
      let between = prefix[tau * width + n] - left
      let right = total - 2 * between - left
      let energy = 2 * between / (a * b) - left / (a * (a - 1)) - right / (b * (b - 1))
      let q = a * b / (a + b) * energy
      if best.map({ q > $0.1 }) ?? true { best = (tau, q) }
    }
    return best
  }
}
