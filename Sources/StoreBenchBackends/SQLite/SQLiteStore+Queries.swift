import Foundation
import SQLiteAPI
import StoreBenchContract

/// The query, search, settings, cache and two-thread parts of ``SQLiteStore``: hand-written SQL, prepared once.
extension SQLiteStore {
  /// `PRAGMA integrity_check`: "ok", or the problems it lists.
  func checkIntegrity() throws {
    let problems = try connection.columnTexts("PRAGMA integrity_check")
    guard problems == ["ok"] else {
      throw StoreError.inconsistent(
        "integrity_check of \(connection.path): " + problems.prefix(5).joined(separator: "; "))
    }
  }

  func unreadCounts() throws -> [Int64: Int] {
    let select = try statement(.unreadCounts)
    defer { select.reset() }
    var counts: [Int64: Int] = [:]
    while try select.step() { counts[select.int64(at: 0)] = Int(select.int64(at: 1)) }
    return counts
  }

  func newestUnread(feedID: Int64, limit: Int) throws -> [Article] {
    let select = try statement(.newestUnread)
    defer { select.reset() }
    try select.bind(feedID, at: 1)
    try select.bind(limit, at: 2)
    var articles: [Article] = []
    while try select.step() { articles.append(Self.article(from: select)) }
    return articles
  }

  /// The launch list: one `ORDER BY published DESC, uid LIMIT` (a scan and sort without `list_index=on`).
  func newestArticles(limit: Int) throws -> [Article] {
    let select = try statement(.newestArticles)
    defer { select.reset() }
    try select.bind(limit, at: 1)
    var articles: [Article] = []
    articles.reserveCapacity(limit)
    while try select.step() { articles.append(Self.article(from: select)) }
    return articles
  }

  func newestArticlesPlan() throws -> String { "newest-articles: " + (try plan(Query.newestArticles.rawValue)) }

  /// `EXPLAIN QUERY PLAN` of both queries, each step's detail joined by "; ".
  func queryPlans() throws -> [String] {
    try [("unread-counts", Query.unreadCounts), ("newest-unread", Query.newestUnread)].map { name, query in
      name + ": " + (try plan(query.rawValue))
    }
  }

  /// The plan SQLite chooses for `sql` (parameters unbound).
  func plan(_ sql: String) throws -> String {
    let explain = try connection.prepare("EXPLAIN QUERY PLAN " + sql)
    defer { explain.finalize() }
    var steps: [String] = []
    while try explain.step() { steps.append(explain.text(at: 3)) }
    return steps.joined(separator: "; ")
  }

  /// search=like: `LIKE '%keyword%'` over both columns (a full scan); search=fts5: the FTS5 index, the keyword
  /// quoted as one FTS5 string so query syntax in it is never interpreted.
  func search(keyword: String) throws -> [String] {
    let select = try statement(fullTextSearch ? .searchFTS : .searchLike)
    defer { select.reset() }
    try select.bind(
      fullTextSearch ? "\"" + keyword.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : "%" + keyword + "%",
      at: 1)
    var uids: [String] = []
    while try select.step() { uids.append(select.text(at: 0)) }
    return uids
  }

  /// A second connection to the same file, as an app opens one for its UI thread.
  func shareWithSecondThread() throws -> SharedStore {
    let location = location
    let settings = settings
    return SharedStore(
      writer: self,
      concurrency: settings.journal == .wal
        ? "second connection: WAL readers do not wait for the writer"
        : "second connection: rollback journal, readers wait while the writer commits (busy_timeout)"
    ) {
      let reader = try SQLiteStore(location: location, settings: settings)
      return SharedReader(reader, close: reader.close)
    }
  }

  func setSetting(_ value: SettingValue, forKey key: String) throws {
    let upsert = try statement(.setSetting)
    try upsert.bind(key, at: 1)
    try upsert.bind(value.encoded, at: 2)
    try beginWrite()
    try upsert.run()
    try endWrite()
  }

  func setting(forKey key: String, kind: SettingKind) throws -> SettingValue? {
    let select = try statement(.setting)
    defer { select.reset() }
    try select.bind(key, at: 1)
    return try select.step() ? try SettingValue(encoded: select.text(at: 0), kind: kind) : nil
  }

  func cachePut(_ entry: CacheEntry) throws {
    let put = try statement(.cachePut)
    try put.bind(entry.key, at: 1)
    try put.bind(entry.value, at: 2)
    try put.bind(entry.expires, at: 3)
    try beginWrite()
    try put.run()
    try endWrite()
  }

  func cacheEntry(forKey key: String) throws -> CacheEntry? {
    let select = try statement(.cacheEntry)
    defer { select.reset() }
    try select.bind(key, at: 1)
    return try select.step()
      ? CacheEntry(key: select.text(at: 0), value: select.bytes(at: 1), expires: select.int64(at: 2)) : nil
  }

  func cacheRemove(forKey key: String) throws {
    let delete = try statement(.cacheRemove)
    try delete.bind(key, at: 1)
    try beginWrite()
    try delete.run()
    try endWrite()
    guard connection.changes == 1 else { throw StoreError.inconsistent("no cache entry \(key)") }
  }

  func cacheEntries() throws -> [CacheEntry] {
    let select = try statement(.cacheEntries)
    defer { select.reset() }
    var entries: [CacheEntry] = []
    while try select.step() {
      entries.append(
        CacheEntry(key: select.text(at: 0), value: select.bytes(at: 1), expires: select.int64(at: 2)))
    }
    return entries
  }
}
