import Foundation

/// The one vocabulary for comparing two measured values (docs/MEASURING.md, "The words a claim may use"), judged
/// from the interval of their ratio (the compared value over the reference):
/// - **equivalent**: the interval lies within the tie margin (±10% by default): any difference is smaller than what
///   the margin says matters;
/// - **slower** / **faster**: the interval lies wholly above / below 1 (the difference is shown) and not wholly within
///   the margin — its near end may lie inside it, so the difference may be smaller than the margin;
/// - **indistinguishable**: the interval includes 1 but is wider than the margin: not settled, no verdict.
public enum RatioVerdict: String, CaseIterable, Sendable {
  case faster, slower, equivalent, indistinguishable

  /// Whether the verdict says the two differ.
  public var isDifference: Bool { self == .faster || self == .slower }
}

/// How close a ratio must lie to 1 to be called equivalent: `1/(1+fraction) … 1+fraction` (multiplicatively
/// symmetric, so "a is equivalent to b" and "b to a" agree).
public struct TieMargin: Sendable, Equatable, CustomStringConvertible {
  public let fraction: Double
  /// ±10%.
  public static let standard = TieMargin(fraction: 0.10)

  public init(fraction: Double) { self.fraction = fraction }

  public var low: Double { 1 / (1 + fraction) }
  public var high: Double { 1 + fraction }

  /// The verdict of an interval of a ratio.
  public func verdict(low: Double, high: Double) -> RatioVerdict {
    if low >= self.low && high <= self.high { return .equivalent }
    if low > 1 { return .slower }
    if high < 1 { return .faster }
    return .indistinguishable
  }

  /// "±10%".
  public var description: String { "±" + ClaimNumber.trimmed(fraction * 100, digits: 1) + "%" }
}

/// Number formatting the claims share.
public enum ClaimNumber {
  /// `value` with up to `digits` decimals, trailing zeros dropped ("10", "5.8").
  public static func trimmed(_ value: Double, digits: Int) -> String {
    var text = String(format: "%.\(digits)f", value)
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return text
  }
}
