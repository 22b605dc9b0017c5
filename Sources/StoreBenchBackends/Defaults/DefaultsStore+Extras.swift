import Foundation
import StoreBenchContract

/// Settings (what defaults are for: native property-list values under `setting.<key>`), cache entries (a
/// dictionary `{value, expires}` under `cache.<key>`) and the in-memory scan a defaults app filters with.
extension DefaultsStore {
  static func settingKey(_ key: String) -> String { "setting." + key }
  static func cacheKey(_ key: String) -> String { "cache." + key }

  /// The suite's values in memory (`dictionaryRepresentation()`), filtered to the articles.
  func forEachArticle(_ body: (Article) throws -> Void) throws {
    let articles = try Self.records(in: defaults.dictionaryRepresentation(), prefix: "article.") { _, record in
      try PlistRecords.article(record)
    }
    for article in articles { try body(article) }
  }

  func setSetting(_ value: SettingValue, forKey key: String) throws {
    try set(PlistSettings.native(value), forKey: Self.settingKey(key))
  }

  func setting(forKey key: String, kind: SettingKind) throws -> SettingValue? {
    try defaults.object(forKey: Self.settingKey(key)).map { try PlistSettings.value($0, kind: kind, key: key) }
  }

  func cachePut(_ entry: CacheEntry) throws {
    try set(
      ["value": Data(entry.value), "expires": NSNumber(value: entry.expires)] as [String: Any],
      forKey: Self.cacheKey(entry.key))
  }

  func cacheEntry(forKey key: String) throws -> CacheEntry? {
    try defaults.dictionary(forKey: Self.cacheKey(key)).map { try Self.entry(key: key, $0) }
  }

  func cacheRemove(forKey key: String) throws {
    defaults.removeObject(forKey: Self.cacheKey(key))
    if syncEach { try synchronize() }
  }

  /// Read from the suite's file (as ``allArticles()`` is), so a reopened store shows what was persisted.
  func cacheEntries() throws -> [CacheEntry] {
    try Self.records(in: storedValues(), prefix: "cache.", Self.entry)
  }

  private static func entry(key: String, _ record: [String: Any]) throws -> CacheEntry {
    guard let value = record["value"] as? Data, let expires = record["expires"] as? NSNumber else {
      throw StoreError.inconsistent("cache entry \(key) is not {value, expires}")
    }
    return CacheEntry(key: key, value: Array(value), expires: expires.int64Value)
  }
}

/// The `migrate` part of ``DefaultsStore``: every article dictionary read, changed to version 2 (`published` as
/// text, `pinned` added) and set again; one `synchronize()` at the end.
extension DefaultsStore: MigratingStore {
  func migrateToVersion2() throws -> String {
    let all = defaults.dictionaryRepresentation()
    for (key, value) in all where key.hasPrefix("article.") {
      guard var record = value as? [String: Any] else {
        throw StoreError.inconsistent("\(key) is not a dictionary")
      }
      record["published"] = ArticleV2.text(
        millisecondsSince1970: try PlistRecords.number(record, "published").int64Value)
      record["pinned"] = false
      defaults.set(record, forKey: key)
    }
    try synchronize()
    return "every article dictionary rewritten as version 2, then one synchronize()"
  }

  func allArticlesV2() throws -> [ArticleV2] {
    try Self.records(in: defaults.dictionaryRepresentation(), prefix: "article.") { _, d in
      ArticleV2(
        uid: try PlistRecords.text(d, "uid"), feedID: try PlistRecords.number(d, "feedID").int64Value,
        title: try PlistRecords.text(d, "title"), summary: try PlistRecords.text(d, "summary"),
        published: try PlistRecords.text(d, "published"), read: try PlistRecords.number(d, "read").boolValue,
        pinned: try PlistRecords.number(d, "pinned").boolValue)
    }
  }
}
