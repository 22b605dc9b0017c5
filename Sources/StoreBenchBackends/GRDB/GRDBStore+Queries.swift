import Foundation
import GRDB
import StoreBenchContract

/// The query, search, settings and cache parts of ``GRDBStore``, through GRDB's query interface and records.
extension GRDBStore {
  private typealias Columns = ArticleRecord.Columns

  private static var unreadCountsRequest: QueryInterfaceRequest<Row> {
    ArticleRecord.filter(Columns.read == false).group(Columns.feedID).select(Columns.feedID, count(Columns.uid))
      .asRequest(of: Row.self)
  }

  private static func newestUnreadRequest(feedID: Int64, limit: Int) -> QueryInterfaceRequest<ArticleRecord> {
    ArticleRecord.filter(Columns.feedID == feedID && Columns.read == false)
      .order(Columns.published.desc, Columns.uid)
      .limit(limit)
  }

  private static func newestArticlesRequest(limit: Int) -> QueryInterfaceRequest<ArticleRecord> {
    ArticleRecord.order(Columns.published.desc, Columns.uid).limit(limit)
  }

  /// `PRAGMA integrity_check`: "ok", or the problems it lists.
  func checkIntegrity() throws {
    let problems = try located { try writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") } }
    guard problems == ["ok"] else {
      throw StoreError.inconsistent("integrity_check of \(path): " + problems.prefix(5).joined(separator: "; "))
    }
  }

  func unreadCounts() throws -> [Int64: Int] {
    try located {
      try writer.read { db in
        var counts: [Int64: Int] = [:]
        for row in try Self.unreadCountsRequest.fetchAll(db) {
          counts[row[0]] = row[1]
        }
        return counts
      }
    }
  }

  func newestUnread(feedID: Int64, limit: Int) throws -> [Article] {
    try located {
      try writer.read { db in
        try Self.newestUnreadRequest(feedID: feedID, limit: limit).fetchAll(db).map(\.article)
      }
    }
  }

  /// The launch list: one ordered request, the records turned into model values.
  func newestArticles(limit: Int) throws -> [Article] {
    try located {
      try writer.read { db in try Self.newestArticlesRequest(limit: limit).fetchAll(db).map(\.article) }
    }
  }

  func newestArticlesPlan() throws -> String {
    try located {
      try writer.read { db in
        "newest-articles: " + (try Self.plan(of: Self.newestArticlesRequest(limit: 50), in: db))
      }
    }
  }

  /// `EXPLAIN QUERY PLAN` of the SQL GRDB generates for `request`, each step's detail joined by "; ".
  static func plan<T>(of request: QueryInterfaceRequest<T>, in db: Database) throws -> String {
    let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
    let steps = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments)
    return steps.map { $0["detail"] as String? ?? "?" }.joined(separator: "; ")
  }

  /// `EXPLAIN QUERY PLAN` of the SQL GRDB generates for both requests.
  func queryPlans() throws -> [String] {
    try located {
      try writer.read { db in
        [
          "unread-counts: " + (try Self.plan(of: Self.unreadCountsRequest, in: db)),
          "newest-unread: " + (try Self.plan(of: Self.newestUnreadRequest(feedID: 1, limit: 50), in: db)),
        ]
      }
    }
  }

  /// search=like: `like("%keyword%")` on both columns; search=fts5: a phrase pattern on the synchronized FTS5 table.
  func search(keyword: String) throws -> [String] {
    try located {
      try writer.read { db in
        if fullTextSearch {
          return try String.fetchAll(
            db,
            sql: """
              SELECT article.uid FROM article JOIN article_fts ON article_fts.rowid = article.rowid \
              AND article_fts MATCH ?
              """, arguments: [FTS5Pattern(matchingPhrase: keyword)])
        }
        let pattern = "%" + keyword + "%"
        return try String.fetchAll(
          db,
          ArticleRecord.select(Columns.uid)
            .filter(Columns.title.like(pattern) || Columns.summary.like(pattern)))
      }
    }
  }

  func setSetting(_ value: SettingValue, forKey key: String) throws {
    try located { try inDatabase { db in try SettingRecord(key: key, value: value.encoded).upsert(db) } }
  }

  func setting(forKey key: String, kind: SettingKind) throws -> SettingValue? {
    try located {
      try writer.read { db in
        try SettingRecord.fetchOne(db, key: key).map { try SettingValue(encoded: $0.value, kind: kind) }
      }
    }
  }

  func cachePut(_ entry: CacheEntry) throws {
    try located { try inDatabase { db in try StoredCacheEntry(entry).upsert(db) } }
  }

  func cacheEntry(forKey key: String) throws -> CacheEntry? {
    try located { try writer.read { db in try StoredCacheEntry.fetchOne(db, key: key)?.entry } }
  }

  func cacheRemove(forKey key: String) throws {
    try located {
      try inDatabase { db in
        guard try StoredCacheEntry.deleteOne(db, key: key) else {
          throw StoreError.inconsistent("no cache entry \(key)")
        }
      }
    }
  }

  func cacheEntries() throws -> [CacheEntry] {
    try located { try writer.read { db in try StoredCacheEntry.fetchAll(db).map(\.entry) } }
  }
}
