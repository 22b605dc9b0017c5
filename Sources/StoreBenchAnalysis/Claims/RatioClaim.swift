import Foundation

/// A claim about the ratio of two measured times ("1.26× [1.08–1.42] slower"): the ratio of medians, the interval
/// of that ratio and the verdict the interval supports under a ``TieMargin``.
///
/// The renderer refuses what the evidence cannot carry: without an interval (either side has fewer repetitions
/// than `minimumCount`) it prints the bare ratio and "too few repetitions to tell", never a verdict; and it prints as
/// many digits as the verdict needs, so a reader who recomputes the verdict from the printed bounds gets the
/// printed verdict (a bound just above 1 is never shown as 1.00). ``ClaimSyntax`` reads the form back.
public struct RatioClaim: Sendable, Equatable {
  public let ratio: Double
  /// The interval of the ratio; nil when either side has too few repetitions.
  public let interval: ClosedRange<Double>?
  public let margin: TieMargin

  /// `counts` are the two sides' repetitions; an interval from fewer than `minimumCount` on either side is dropped.
  public init(
    ratio: Double, interval: ClosedRange<Double>?, counts: (Int, Int), minimumCount: Int,
    margin: TieMargin = .standard
  ) {
    self.ratio = ratio
    self.margin = margin
    self.interval = min(counts.0, counts.1) >= minimumCount ? interval : nil
  }

  /// A ratio whose interval comes from resampling something other than repetitions (advise's cost a day resamples
  /// every operation), so no repetition count decides whether it has one.
  public init(ratio: Double, interval: ClosedRange<Double>?, margin: TieMargin = .standard) {
    self.ratio = ratio
    self.margin = margin
    self.interval = interval
  }

  /// The verdict the interval supports; nil without an interval.
  public var verdict: RatioVerdict? { interval.map { margin.verdict(low: $0.lowerBound, high: $0.upperBound) } }

  /// "1.26× [1.08–1.42] slower"; "1.26× (too few repetitions to tell)".
  public var text: String {
    guard let interval, let verdict else {
      return String(format: "%.2f×", ratio) + " (too few repetitions to tell)"
    }
    let digits = Self.digits(ratio: ratio, interval: interval, margin: margin, verdict: verdict)
    let format = { (value: Double) in String(format: "%.\(digits)f", value) }
    return "\(format(ratio))× [\(format(interval.lowerBound))–\(format(interval.upperBound))] \(verdict.rawValue)"
  }

  /// The fewest decimals (2…6) at which the printed bounds give the same verdict and keep the printed ratio
  /// between them.
  static func digits(ratio: Double, interval: ClosedRange<Double>, margin: TieMargin, verdict: RatioVerdict) -> Int {
    for digits in 2...6 {
      let round = { (value: Double) in Double(String(format: "%.\(digits)f", value))! }
      let (low, high, value) = (round(interval.lowerBound), round(interval.upperBound), round(ratio))
      if margin.verdict(low: low, high: high) == verdict && low <= value && value <= high { return digits }
    }
    return 6
  }
}
