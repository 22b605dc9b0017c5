import Foundation

/// When a run may stop a row for precision, and the interval level that keeps the median's interval a 95% one
/// although the run looked at the row more than once.
///
/// Stopping as soon as an interval looks narrow selects samples whose spread is small by chance, and for skewed
/// times those sit off the median: with a look after every repetition (6…20) and a plain 95% interval, about 91%
/// of the rows that stopped as precise covered their median in a simulation over real rows. So a run with an
/// adaptive policy looks only at a fixed schedule of repetition counts, `looks` (about ×1.4 apart, from the
/// smallest count that has an interval to the maximum), and every interval it reports — at a look or when time
/// ran out — is taken at `alpha` = 0.05 / `looks.count` (Bonferroni over the looks). Whatever look a row stops at,
/// the chance that any of its intervals misses the median is at most 5% (``coverage``, exact per look); the
/// committed simulation (`CoverageSimulationTests`) checks ≥ 0.95 among rows that stopped as precise, over times
/// resampled from real rows. A fixed policy (min = max) has one look and a plain 95% interval.
public struct LookSchedule: Sendable, Equatable, CustomStringConvertible {
  /// The repetition counts at which a row may stop for precision, ascending; the last is the maximum.
  public let looks: [Int]
  /// The two-sided error each look's interval is taken at (0.05 / `looks.count`).
  public let alpha: Double

  /// The error the whole procedure allows: 95% intervals.
  public static let familyAlpha = 0.05

  /// A plain 95% interval at every n (one look).
  public static let single = LookSchedule(looks: [], alpha: familyAlpha)

  public init(looks: [Int], alpha: Double) {
    self.looks = looks
    self.alpha = alpha
  }

  /// The schedule of a policy of `minimum`…`maximum` measured repetitions.
  public init(minimum: Int, maximum: Int) {
    guard maximum > minimum else {
      self.init(looks: [maximum], alpha: Self.familyAlpha)
      return
    }
    var count = 2
    var looks: [Int] = []
    // The first look is the smallest count with an interval at the level the number of looks asks for, which
    // in turn depends on the first look: a few rounds settle it.
    for _ in 0..<6 {
      let alpha = Self.familyAlpha / Double(count)
      let first = max(minimum, MedianInterval.minimumCount(alpha: alpha))
      guard first < maximum else {
        looks = [maximum]
        break
      }
      let steps = Int((log(Double(maximum) / Double(first)) / log(1.4)).rounded(.up))
      let wanted = min(max(steps + 1, 2), 6)
      looks = (0..<wanted).map { index in
        Int(
          (Double(first) * pow(Double(maximum) / Double(first), Double(index) / Double(wanted - 1))).rounded()
        )
      }
      looks = Array(Set(looks)).sorted()
      if looks.count == count { break }
      count = looks.count
    }
    self.init(looks: looks, alpha: Self.familyAlpha / Double(max(looks.count, 1)))
  }

  /// Whether a row of `n` ok repetitions is at a look.
  public func isLook(_ n: Int) -> Bool { looks.isEmpty || looks.contains(n) }

  /// The interval of the median of an ascending sample at this schedule's level; nil when n is too small.
  public func interval(sorted: [Double]) -> MedianInterval? { MedianInterval(sorted: sorted, alpha: alpha) }

  /// The smallest n that has an interval.
  public var minimumCount: Int { MedianInterval.minimumCount(alpha: alpha) }

  /// A lower bound of the probability that every interval the procedure may report covers the median: one minus
  /// the summed exact miss probabilities of the looks (Bonferroni). Nil for a single look at another n.
  public func coverage(n: Int) -> Double? {
    guard looks.count > 1 else { return interval(sorted: (0..<n).map(Double.init))?.coverage }
    let misses = looks.compactMap { look in interval(sorted: (0..<look).map(Double.init)).map { 1 - $0.coverage } }
    return 1 - misses.reduce(0, +)
  }

  /// For environment.json and the docs.
  public var description: String {
    looks.count > 1
      ? "looks at n = \(looks.map(String.init).joined(separator: ", ")); each interval at \(String(format: "%.2f", 100 * (1 - alpha)))% "
        + "(Bonferroni over \(looks.count) looks: 95% for the procedure)"
      : "one look: a plain 95% interval"
  }
}
