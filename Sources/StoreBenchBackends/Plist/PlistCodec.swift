import Foundation
import StoreBenchContract

/// The timeline cache file's content: every user, and every message newest first.
struct TimelineCache: Codable {
  var users: [User]
  var messages: [Message]
}

/// Turns whole collections into property-list bytes and back.
protocol PlistCodec {
  var name: String { get }
  func encode(_ articles: [Article]) throws -> Data
  func decodeArticles(_ data: Data) throws -> [Article]
  func encode(_ cache: TimelineCache) throws -> Data
  func decodeTimeline(_ data: Data) throws -> TimelineCache
  /// Model version 2 of the articles collection (`migrate`).
  func encode(_ articles: [ArticleV2]) throws -> Data
  func decodeArticlesV2(_ data: Data) throws -> [ArticleV2]
}

/// `codec=codable`: `PropertyListEncoder` / `PropertyListDecoder` on `Codable` records.
///
/// Dates are stored as integer milliseconds: an XML property list writes a `Date` as an ISO 8601 `<date>`
/// with whole seconds, so encoding the model's `Date` directly silently drops the milliseconds in XML
/// (binary keeps them). The contract suite caught this; apps storing `Date` in XML plists lose the same.
struct CodablePlistCodec: PlistCodec {
  let format: PropertyListSerialization.PropertyListFormat
  var name: String { "codable" }

  struct StoredArticle: Codable {
    var uid: String, feedID: Int64, title: String, summary: String, publishedMS: Int64, read: Bool
  }

  struct StoredMessage: Codable {
    var id: Int64, userID: Int64, text: String, createdMS: Int64
  }

  struct StoredTimeline: Codable {
    var users: [User]
    var messages: [StoredMessage]
  }

  private func encoder() -> PropertyListEncoder {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = format
    return encoder
  }

  func encode(_ articles: [Article]) throws -> Data {
    try encoder().encode(
      articles.map {
        StoredArticle(
          uid: $0.uid, feedID: $0.feedID, title: $0.title, summary: $0.summary,
          publishedMS: $0.published.millisecondsSince1970, read: $0.read)
      })
  }

  func decodeArticles(_ data: Data) throws -> [Article] {
    try PropertyListDecoder().decode([StoredArticle].self, from: data).map {
      Article(
        uid: $0.uid, feedID: $0.feedID, title: $0.title, summary: $0.summary,
        published: Date(millisecondsSince1970: $0.publishedMS), read: $0.read)
    }
  }

  func encode(_ cache: TimelineCache) throws -> Data {
    try encoder().encode(
      StoredTimeline(
        users: cache.users,
        messages: cache.messages.map {
          StoredMessage(
            id: $0.id, userID: $0.userID, text: $0.text, createdMS: $0.created.millisecondsSince1970)
        }))
  }

  /// Version 2 stores its date as text already: the records are encoded as they are.
  func encode(_ articles: [ArticleV2]) throws -> Data { try encoder().encode(articles) }

  func decodeArticlesV2(_ data: Data) throws -> [ArticleV2] {
    try PropertyListDecoder().decode([ArticleV2].self, from: data)
  }

  func decodeTimeline(_ data: Data) throws -> TimelineCache {
    let stored = try PropertyListDecoder().decode(StoredTimeline.self, from: data)
    return TimelineCache(
      users: stored.users,
      messages: stored.messages.map {
        Message(id: $0.id, userID: $0.userID, text: $0.text, created: Date(millisecondsSince1970: $0.createdMS))
      })
  }
}

/// `codec=archiver`: `NSKeyedArchiver` / `NSKeyedUnarchiver` with `NSSecureCoding` classes.
///
/// On Linux an unexpected class makes Foundation crash instead of throwing, so decoding names exactly the
/// allowed classes, and the archived class names are registered per archiver and unarchiver instance
/// (stable names, no module prefix, no global registration).
struct ArchiverPlistCodec: PlistCodec {
  let format: PropertyListSerialization.PropertyListFormat
  var name: String { "archiver" }

  static let names: [(AnyClass, String)] = [
    (ArticleBox.self, "StoreBenchArticle"), (UserBox.self, "StoreBenchUser"),
    (MessageBox.self, "StoreBenchMessage"),
    (ArticleV2Box.self, "StoreBenchArticleV2"),
  ]

  private func archive(_ fill: (NSKeyedArchiver) -> Void) -> Data {
    let archiver = NSKeyedArchiver(requiringSecureCoding: true)
    archiver.outputFormat = format
    for (type, name): (AnyClass, String) in Self.names { archiver.setClassName(name, for: type) }
    fill(archiver)
    archiver.finishEncoding()
    return archiver.encodedData
  }

  private func unarchiver(_ data: Data) throws -> NSKeyedUnarchiver {
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = true
    for (type, name): (AnyClass, String) in Self.names { unarchiver.setClass(type, forClassName: name) }
    return unarchiver
  }

  private func decodeArray<T: NSObject>(_ type: T.Type, key: String, from unarchiver: NSKeyedUnarchiver) throws -> [T] {
    guard let array = unarchiver.decodeObject(of: [NSArray.self, type], forKey: key) as? [T] else {
      throw StoreError.inconsistent(
        "archive has no '\(key)' array of \(type): \(unarchiver.error.map { "\($0)" } ?? "missing")")
    }
    return array
  }

  func encode(_ articles: [Article]) throws -> Data {
    archive { $0.encode(articles.map(ArticleBox.init) as NSArray, forKey: NSKeyedArchiveRootObjectKey) }
  }

  func decodeArticles(_ data: Data) throws -> [Article] {
    let unarchiver = try unarchiver(data)
    defer { unarchiver.finishDecoding() }
    return try decodeArray(ArticleBox.self, key: NSKeyedArchiveRootObjectKey, from: unarchiver).map(\.article)
  }

  func encode(_ articles: [ArticleV2]) throws -> Data {
    archive { $0.encode(articles.map(ArticleV2Box.init) as NSArray, forKey: NSKeyedArchiveRootObjectKey) }
  }

  func decodeArticlesV2(_ data: Data) throws -> [ArticleV2] {
    let unarchiver = try unarchiver(data)
    defer { unarchiver.finishDecoding() }
    return try decodeArray(ArticleV2Box.self, key: NSKeyedArchiveRootObjectKey, from: unarchiver).map(\.article)
  }

  func encode(_ cache: TimelineCache) throws -> Data {
    archive { archiver in
      archiver.encode(cache.users.map(UserBox.init) as NSArray, forKey: "users")
      archiver.encode(cache.messages.map(MessageBox.init) as NSArray, forKey: "messages")
    }
  }

  func decodeTimeline(_ data: Data) throws -> TimelineCache {
    let unarchiver = try unarchiver(data)
    defer { unarchiver.finishDecoding() }
    return TimelineCache(
      users: try decodeArray(UserBox.self, key: "users", from: unarchiver).map(\.user),
      messages: try decodeArray(MessageBox.self, key: "messages", from: unarchiver).map(\.message))
  }
}
