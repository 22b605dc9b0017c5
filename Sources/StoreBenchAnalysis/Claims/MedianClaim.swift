import Foundation

/// A claim about one measured time: its median over n repetitions with the distribution-free 95% interval of the
/// median ("12.3 ms [11.9–12.8 ms, n=10]"). It refuses what the evidence cannot carry: fewer repetitions than the
/// run's first look needs print the median and n alone, and so does an interval of zero width (a time identical at
/// both order statistics says nothing about spread; counts, which can be exact, are not times).
public struct MedianClaim: Sendable, Equatable {
  public let median: Double
  public let interval: ClosedRange<Double>?
  public let count: Int

  public init(median: Double, interval: ClosedRange<Double>?, count: Int, minimumCount: Int) {
    self.median = median
    self.count = count
    self.interval = interval.flatMap { count >= minimumCount && $0.upperBound > $0.lowerBound ? $0 : nil }
  }

  /// "12.3 ms [11.9–12.8 ms, n=10]"; "12.3 ms (n=4, too few for an interval)".
  public var text: String {
    guard let interval else { return "\(MarkdownTable.duration(median)) (n=\(count), no interval)" }
    let (scale, unit, digits) = MarkdownTable.durationUnit(median)
    var places = digits
    // As many digits as keep the interval's ends apart and around the median.
    while places < digits + 3 {
      let round = { (value: Double) in Double(String(format: "%.\(places)f", value * scale))! }
      if round(interval.lowerBound) < round(interval.upperBound) { break }
      places += 1
    }
    let format = { (value: Double) in String(format: "%.\(places)f", value * scale) }
    return
      "\(format(median)) \(unit) [\(format(interval.lowerBound))–\(format(interval.upperBound)) \(unit), n=\(count)]"
  }
}
