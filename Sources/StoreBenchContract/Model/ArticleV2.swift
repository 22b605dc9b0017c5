import Foundation

/// Model version 2 of an article (the `migrate` workload): a new field with a default (`pinned`, false) and a field
/// whose type changed (`published`: integer milliseconds in version 1, ISO 8601 text with milliseconds in UTC now,
/// `2025-03-04T05:06:07.123Z`).
public struct ArticleV2: Codable, Hashable, Sendable {
  public var uid: String
  public var feedID: Int64
  public var title: String
  public var summary: String
  public var published: String
  public var read: Bool
  public var pinned: Bool

  public init(uid: String, feedID: Int64, title: String, summary: String, published: String, read: Bool, pinned: Bool) {
    (self.uid, self.feedID, self.title, self.summary) = (uid, feedID, title, summary)
    (self.published, self.read, self.pinned) = (published, read, pinned)
  }

  /// Version 1 as version 2: the date as text, not pinned.
  public init(upgrading article: Article) {
    self.init(
      uid: article.uid, feedID: article.feedID, title: article.title, summary: article.summary,
      published: Self.text(millisecondsSince1970: article.published.millisecondsSince1970),
      read: article.read, pinned: false)
  }

  private static let style = Date.ISO8601FormatStyle()

  /// `2025-03-04T05:06:07.123Z`: always three fraction digits, UTC. The whole seconds come from Foundation's ISO 8601
  /// style; the milliseconds are appended from the integer, because the style's own fraction goes through a
  /// `Double` and can come out one millisecond low (1735689600123 ms printed as `…00.122Z`).
  public static func text(millisecondsSince1970 milliseconds: Int64) -> String {
    let (seconds, fraction) = (milliseconds.floorDivided(by: 1000), milliseconds.floorModulo(1000))
    let whole = style.format(Date(timeIntervalSince1970: Double(seconds)))  // "2025-03-04T05:06:07Z"
    let digits = String(fraction)
    return whole.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
  }
}

extension Int64 {
  /// Division rounding toward negative infinity (dates before 1970 keep a positive millisecond part).
  func floorDivided(by divisor: Int64) -> Int64 {
    let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
    return remainder < 0 ? quotient - 1 : quotient
  }

  func floorModulo(_ divisor: Int64) -> Int64 { self - floorDivided(by: divisor) * divisor }
}
