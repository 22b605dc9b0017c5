import Foundation
import GRDB
import StoreBenchContract

/// The ORM's record types, as a GRDB app declares them (`Codable` + `FetchableRecord` + `PersistableRecord`).
/// Dates are `Date` properties, stored by GRDB in its own text format (millisecond precision).
struct ArticleRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "article"
  var uid: String
  var feedID: Int64
  var title: String
  var summary: String
  var published: Date
  var read: Bool

  enum Columns: String, ColumnExpression { case uid, feedID, title, summary, published, read }

  init(_ article: Article) {
    uid = article.uid
    feedID = article.feedID
    title = article.title
    summary = article.summary
    published = article.published
    read = article.read
  }

  /// The model value; the date is normalized to whole milliseconds, since GRDB's text date format round-trips
  /// the millisecond but not every bit of the `Double`.
  var article: Article {
    Article(
      uid: uid, feedID: feedID, title: title, summary: summary,
      published: Date(millisecondsSince1970: published.millisecondsSince1970), read: read)
  }
}

/// Users are stored as the model type itself: `User` is `Codable` and its properties are the table's columns, which
/// is how a GRDB app declares a record when no conversion is needed.
extension User: FetchableRecord, PersistableRecord {
  public static let databaseTableName = "user"
}

/// Messages too: their properties are the table's columns.
extension Message: FetchableRecord, PersistableRecord {
  public static let databaseTableName = "message"

  /// The message as read back, its date normalized to whole milliseconds (GRDB's text date format round-trips the
  /// millisecond but not every bit of the `Double`).
  var wholeMilliseconds: Message {
    Message(id: id, userID: userID, text: text, created: Date(millisecondsSince1970: created.millisecondsSince1970))
  }
}

/// An app setting: its ``SettingValue/encoded`` text under its key.
struct SettingRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "setting"
  var key: String
  var value: String
}

/// A cache entry: the shared `Codable` form, as a GRDB record of table `cache`.
extension StoredCacheEntry: FetchableRecord, PersistableRecord {
  static let databaseTableName = "cache"
}

enum GRDBSchema {
  /// The schema as GRDB migrations; `index` adds the query workload's index, `listIndex` the launch list's
  /// (newest first), `fullText` an FTS5 table synchronized with the article table (GRDB creates the triggers).
  static func migrator(index: Bool, listIndex: Bool, fullText: Bool) -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.create(table: "article") { t in
        t.primaryKey("uid", .text)
        t.column("feedID", .integer).notNull()
        t.column("title", .text).notNull()
        t.column("summary", .text).notNull()
        t.column("published", .datetime).notNull()
        t.column("read", .boolean).notNull().defaults(to: false)
      }
      try db.create(table: "user") { t in
        t.primaryKey("id", .integer)
        t.column("name", .text).notNull()
        t.column("handle", .text).notNull()
        t.column("avatarURL", .text).notNull()
      }
      try db.create(table: "message") { t in
        t.primaryKey("id", .integer)
        t.column("userID", .integer).notNull()
        t.column("text", .text).notNull()
        t.column("created", .datetime).notNull()
      }
      try db.create(index: "message_created", on: "message", columns: ["created", "id"])
      try db.create(table: "setting") { t in
        t.primaryKey("key", .text)
        t.column("value", .text).notNull()
      }
      try db.create(table: "cache") { t in
        t.primaryKey("key", .text)
        t.column("value", .blob).notNull()
        t.column("expires", .integer).notNull()
      }
    }
    if index {
      migrator.registerMigration("query-index") { db in
        try db.create(
          index: "article_feed_unread", on: "article", columns: ["feedID", "read", "published", "uid"])
      }
    }
    if listIndex {
      migrator.registerMigration("list-index") { db in
        try db.execute(sql: "CREATE INDEX article_published ON article(published DESC, uid)")
      }
    }
    if fullText {
      migrator.registerMigration("fts5") { db in
        try db.create(virtualTable: "article_fts", using: FTS5()) { t in
          t.synchronize(withTable: "article")
          t.column("title")
          t.column("summary")
        }
      }
    }
    return migrator
  }
}
