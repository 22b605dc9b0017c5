import Foundation
import StoreBenchContract

/// `defaults`: Foundation's `UserDefaults(suiteName:)` as a key store, one key per record (a property-list
/// dictionary), as apps that keep small data in defaults do.
///
/// On Linux Foundation reads `XDG_CONFIG_HOME` once, at process start, and stores a suite as
/// `$XDG_CONFIG_HOME/<suite>.plist` — except that a suite name that is an absolute path is used as the file
/// path itself. The store therefore names its suite `<store directory>/defaults` (validated), so the file is
/// `<store directory>/defaults.plist` and nothing is read or written in the user's `~/.config`.
public enum DefaultsBackend {
  public static var descriptor: BackendDescriptor {
    BackendDescriptor(
      name: "defaults",
      summary: "Foundation UserDefaults suite: one property-list dictionary per record",
      settings: Settings.self,
      smoke: [Settings(), Settings().with { $0.sync = .each }],
      advise: [
        .init(
          Settings().with { $0.sync = .end }, mostRecords: 5_000,
          beyondMost: "rewrites its whole file at every save: megabytes a save at this size")
      ],
      storeFiles: ["defaults.plist"],
      promise: { _ in .mayLose },
      open: { location, settings in try DefaultsStore(location: location, settings: settings) }
    )
  }

  /// The settings of the `defaults` backend.
  public struct Settings: BackendSettings {
    public enum Synchronize: String, SettingChoice { case each, end }
    public var sync = Synchronize.end
    public init() {}
    public static var axes: [SettingAxis<Settings>] {
      [
        .choice(
          "sync", \.sync, key: true,
          summary:
            "each: synchronize() after every record written; end: once per app operation (nothing persists without it on Linux)"
        )
      ]
    }
  }

  /// The suite name for a store directory: an absolute path inside it, made only of safe characters.
  public static func suiteName(for directory: URL) throws -> String {
    let path = directory.standardizedFileURL.path
    let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "/._-"))
    guard path.hasPrefix("/"), !path.split(separator: "/").contains(".."),
      path.unicodeScalars.allSatisfy({ $0.isASCII && allowed.contains($0) })
    else {
      throw StoreError.inconsistent(
        "store directory \(path) cannot be a defaults suite name (only ASCII letters, digits, '/', '.', '_', '-')"
      )
    }
    return path + "/defaults"
  }
}

final class DefaultsStore: AppStore {
  let defaults: UserDefaults
  private let fileURL: URL
  let syncEach: Bool
  let effectiveSettings: String

  static let orderKey = "timeline.order"
  static func articleKey(_ uid: String) -> String { "article." + uid }
  static func userKey(_ id: Int64) -> String { "user.\(id)" }
  static func messageKey(_ id: Int64) -> String { "message.\(id)" }

  init(location: StoreLocation, settings: DefaultsBackend.Settings) throws {
    let suite = try DefaultsBackend.suiteName(for: location.directory)
    guard let defaults = UserDefaults(suiteName: suite) else {
      throw StoreError.inconsistent("UserDefaults refused suite \(suite)")
    }
    self.defaults = defaults
    fileURL = URL(fileURLWithPath: suite + ".plist")
    syncEach = settings.sync == .each
    effectiveSettings = settings.text + " file=inplace-truncate+fsync"
  }

  func synchronize() throws {
    guard defaults.synchronize() else {
      throw FileStoreError(operation: "UserDefaults.synchronize", path: fileURL.path, reason: "returned false")
    }
  }

  func set(_ value: Any, forKey key: String) throws {
    defaults.set(value, forKey: key)
    if syncEach { try synchronize() }
  }

  func unitOfWork(_ body: () throws -> Void) throws {
    try body()
    if !syncEach { try synchronize() }
  }

  func insert(_ article: Article) throws {
    try set(PlistRecords.dictionary(article), forKey: Self.articleKey(article.uid))
  }

  func markRead(uids: [String]) throws {
    for uid in uids {
      guard var record = defaults.dictionary(forKey: Self.articleKey(uid)) else {
        throw StoreError.inconsistent("no article \(uid)")
      }
      record["read"] = true
      try set(record, forKey: Self.articleKey(uid))
    }
  }

  func edit(_ edit: ArticleEdit) throws {
    guard var record = defaults.dictionary(forKey: Self.articleKey(edit.uid)) else {
      throw StoreError.inconsistent("no article \(edit.uid)")
    }
    record["title"] = edit.title
    record["summary"] = edit.summary
    record["published"] = NSNumber(value: edit.date.millisecondsSince1970)
    try set(record, forKey: Self.articleKey(edit.uid))
  }

  func article(uid: String) throws -> Article? {
    try defaults.dictionary(forKey: Self.articleKey(uid)).map(PlistRecords.article)
  }

  func allUIDs() throws -> [String] {
    defaults.dictionaryRepresentation().keys.filter { $0.hasPrefix("article.") }.map { String($0.dropFirst(8)) }
  }

  func delete(uids: [String]) throws {
    for uid in uids {
      defaults.removeObject(forKey: Self.articleKey(uid))
      if syncEach { try synchronize() }
    }
  }

  func loadTimeline(limit: Int) throws -> TimelineScreen {
    let order = (defaults.array(forKey: Self.orderKey) as? [NSNumber]) ?? []
    let messages = try order.prefix(limit).map { id -> Message in
      guard let record = defaults.dictionary(forKey: Self.messageKey(id.int64Value)) else {
        throw StoreError.inconsistent("no message \(id)")
      }
      return try PlistRecords.message(record)
    }
    return try TimelineScreen(messages: messages) { id in
      try defaults.dictionary(forKey: Self.userKey(id)).map(PlistRecords.user)
    }
  }

  func load(articles: [Article]) throws {
    for article in articles { defaults.set(PlistRecords.dictionary(article), forKey: Self.articleKey(article.uid)) }
    try synchronize()
  }

  func load(users: [User], messages: [Message]) throws {
    for user in users { defaults.set(PlistRecords.dictionary(user), forKey: Self.userKey(user.id)) }
    var all = try ((defaults.array(forKey: Self.orderKey) as? [NSNumber]) ?? []).map { id -> Message in
      guard let record = defaults.dictionary(forKey: Self.messageKey(id.int64Value)) else {
        throw StoreError.inconsistent("no message \(id)")
      }
      return try PlistRecords.message(record)
    }
    for message in messages { defaults.set(PlistRecords.dictionary(message), forKey: Self.messageKey(message.id)) }
    all += messages
    defaults.set(all.sorted(by: Message.isNewer).map { NSNumber(value: $0.id) }, forKey: Self.orderKey)
    try synchronize()
  }

  /// Reads the suite's file from disk: Foundation caches a suite per process, so a "fresh" `UserDefaults`
  /// here would be served from memory; the file is what the next launch of the app will read.
  func allArticles() throws -> [Article] {
    try Self.records(in: storedValues(), prefix: "article.") { _, record in try PlistRecords.article(record) }
  }

  /// The dictionary records of `values` whose keys start with `prefix`, decoded (given the key without it).
  static func records<T>(
    in values: [String: Any], prefix: String,
    _ decode: (String, [String: Any]) throws -> T
  ) throws -> [T] {
    try values.compactMap { key, value in
      guard key.hasPrefix(prefix) else { return nil }
      guard let record = value as? [String: Any] else {
        throw StoreError.inconsistent("\(key) is not a dictionary")
      }
      return try decode(String(key.dropFirst(prefix.count)), record)
    }
  }

  /// The suite as its file holds it (what the next process will read), not Foundation's per-process cache.
  func storedValues() throws -> [String: Any] {
    guard FileManager.default.fileExists(atPath: fileURL.path) else { return [:] }
    let data = try FileWriter.read(fileURL)
    guard let root = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
      throw FileStoreError(operation: "parse", path: fileURL.path, reason: "not a property-list dictionary")
    }
    return root
  }

  func close() throws { try synchronize() }
}

/// The model as property-list dictionaries (String, NSNumber and Bool values only: anything else crashes
/// `UserDefaults.set` on Linux).
enum PlistRecords {
  static func dictionary(_ article: Article) -> [String: Any] {
    [
      "uid": article.uid, "feedID": NSNumber(value: article.feedID), "title": article.title,
      "summary": article.summary,
      "published": NSNumber(value: article.published.millisecondsSince1970), "read": article.read,
    ]
  }

  static func dictionary(_ user: User) -> [String: Any] {
    ["id": NSNumber(value: user.id), "name": user.name, "handle": user.handle, "avatarURL": user.avatarURL]
  }

  static func dictionary(_ message: Message) -> [String: Any] {
    [
      "id": NSNumber(value: message.id), "userID": NSNumber(value: message.userID), "text": message.text,
      "created": NSNumber(value: message.created.millisecondsSince1970),
    ]
  }

  static func article(_ d: [String: Any]) throws -> Article {
    Article(
      uid: try text(d, "uid"), feedID: try number(d, "feedID").int64Value, title: try text(d, "title"),
      summary: try text(d, "summary"),
      published: Date(millisecondsSince1970: try number(d, "published").int64Value),
      read: try number(d, "read").boolValue)
  }

  static func user(_ d: [String: Any]) throws -> User {
    User(
      id: try number(d, "id").int64Value, name: try text(d, "name"), handle: try text(d, "handle"),
      avatarURL: try text(d, "avatarURL"))
  }

  static func message(_ d: [String: Any]) throws -> Message {
    Message(
      id: try number(d, "id").int64Value, userID: try number(d, "userID").int64Value, text: try text(d, "text"),
      created: Date(millisecondsSince1970: try number(d, "created").int64Value))
  }

  static func text(_ d: [String: Any], _ key: String) throws -> String {
    guard let value = d[key] as? String else { throw StoreError.inconsistent("record field \(key) is not text") }
    return value
  }

  static func number(_ d: [String: Any], _ key: String) throws -> NSNumber {
    if let value = d[key] as? NSNumber { return value }
    if let value = d[key] as? Bool { return NSNumber(value: value) }
    if let value = d[key] as? Int64 { return NSNumber(value: value) }
    if let value = d[key] as? Int { return NSNumber(value: value) }
    throw StoreError.inconsistent("record field \(key) is not a number")
  }
}
