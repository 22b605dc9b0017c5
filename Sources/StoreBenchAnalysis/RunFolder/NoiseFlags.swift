import Foundation

/// Why a summary row's number may not be trusted as it stands: set in the `noise` column, marked in the Markdown
/// table and the report.
public enum NoiseFlags {
  /// The precision a row's median should reach unless the run sets another: both ends of its interval within
  /// ±5% of the median.
  public static let defaultTargetPrecision = 0.05

  /// Contention: the 1-minute load reached the number of cores (others competed with the run), or the rest of
  /// the machine kept at least half a core busy during the timed regions (judged over at least 0.2 s of them,
  /// since `/proc/stat` counts in 10 ms ticks).
  public static func flags(
    statistics: Statistics, medianLoad: Double?, wallTotal: Double, otherCPUTotal: Double,
    target: Double = defaultTargetPrecision, cores: Int = ProcessInfo.processInfo.activeProcessorCount
  ) -> [String] {
    var flags: [String] = []
    let loaded = medianLoad.map { $0 >= Double(cores) } ?? false
    let busy = wallTotal >= 0.2 && otherCPUTotal / wallTotal >= 0.5
    if loaded || busy { flags.append("contended") }
    if let interval = statistics.medianInterval {
      if reach(interval, median: statistics.median) > target { flags.append("imprecise") }
    } else {
      flags.append("no-interval")
    }
    return flags
  }

  /// How far the interval reaches from the median, relative to it: the larger of (median − low) and
  /// (high − median), over the median (0 for a zero median with a zero-width interval). A target of 5% holds
  /// when both ends lie within ±5% of the median.
  public static func reach(_ interval: MedianInterval, median: Double) -> Double {
    let far = max(median - interval.low, interval.high - median)
    return median > 0 ? far / median : (far == 0 ? 0 : .infinity)
  }
}
