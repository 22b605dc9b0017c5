import StoreBenchContract
import StoreBenchMeasure

/// A seeded percentile bootstrap of the ratio of medians (current / baseline).
public enum Bootstrap {
  /// The 95% percentile interval of median(current*) / median(baseline*) over `resamples` resamplings of
  /// each side with replacement. Nil when either side is empty or a baseline median is zero.
  public static func ratioOfMedians(
    baseline: [Double], current: [Double], resamples: Int = 2000,
    seed: UInt64
  ) -> ClosedRange<Double>? {
    guard !baseline.isEmpty, !current.isEmpty, resamples > 0 else { return nil }
    var rng = SplitMix64(seed: seed)
    var ratios: [Double] = []
    ratios.reserveCapacity(resamples)
    var b = [Double](repeating: 0, count: baseline.count)
    var c = [Double](repeating: 0, count: current.count)
    for _ in 0..<resamples {
      for i in b.indices { b[i] = baseline[Int(rng.next() % UInt64(baseline.count))] }
      for i in c.indices { c[i] = current[Int(rng.next() % UInt64(current.count))] }
      let denominator = Statistics.median(ofSorted: b.sorted())
      guard denominator != 0 else { return nil }
      ratios.append(Statistics.median(ofSorted: c.sorted()) / denominator)
    }
    ratios.sort()
    return percentile(ratios, 0.025)...percentile(ratios, 0.975)
  }

  /// Linear-interpolated percentile of an ascending array (`q` in 0…1).
  public static func percentile(_ sorted: [Double], _ q: Double) -> Double {
    let position = q * Double(sorted.count - 1)
    let lower = Int(position.rounded(.down))
    let upper = Int(position.rounded(.up))
    return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
  }
}
