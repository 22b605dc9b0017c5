import Foundation

/// An RSS reader's article, as a sync API delivers it.
public struct Article: Codable, Hashable, Sendable {
  /// Unique string id from the sync API.
  public var uid: String
  public var feedID: Int64
  public var title: String
  /// About 200 bytes of text.
  public var summary: String
  /// Publication date, always a whole number of milliseconds since 1970 (so every backend can store it exactly).
  public var published: Date
  public var read: Bool

  public init(uid: String, feedID: Int64, title: String, summary: String, published: Date, read: Bool) {
    (self.uid, self.feedID, self.title, self.summary) = (uid, feedID, title, summary)
    (self.published, self.read) = (published, read)
  }
}

extension Date {
  /// Milliseconds since 1970, rounded: the canonical integer form backends store and checksums use.
  public var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

  /// The date `milliseconds` after 1970-01-01T00:00:00Z.
  public init(millisecondsSince1970 milliseconds: Int64) {
    self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
  }
}

/// One text edit of a stored article: what a notes app saves when the user changes a note's title or body. The
/// date moves with it (`published` is the record's date: for a note, its modification date).
public struct ArticleEdit: Hashable, Sendable {
  public var uid: String
  public var title: String
  public var summary: String
  public var date: Date

  public init(uid: String, title: String, summary: String, date: Date) {
    (self.uid, self.title, self.summary, self.date) = (uid, title, summary, date)
  }

  /// `article` with this edit saved (its uid must be ``uid``): title, summary and date replaced, the rest kept.
  public func applied(to article: Article) -> Article {
    precondition(article.uid == uid, "edit of \(uid) applied to \(article.uid)")
    var edited = article
    (edited.title, edited.summary, edited.published) = (title, summary, date)
    return edited
  }
}
