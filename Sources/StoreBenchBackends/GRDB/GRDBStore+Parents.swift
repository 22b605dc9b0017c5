import Foundation
import GRDB
import StoreBenchContract

/// A parent (a conversation, a folder, a feed), as a GRDB app declares it: it has many entries.
struct ParentRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "parent"
  var id: Int64
  var title: String

  static let entries = hasMany(EntryRecord.self)
}

/// A record of a parent, with foreign keys to its parent and its author (a `user`).
struct EntryRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "entry"
  var id: Int64
  var parentID: Int64
  var authorID: Int64
  var text: String
  var date: Date
  var read: Bool

  enum Columns: String, ColumnExpression { case id, parentID, authorID, text, date, read }

  static let author = belongsTo(User.self, using: ForeignKey(["authorID"]))

  init(_ entry: Entry) {
    (id, parentID, authorID, text) = (entry.id, entry.parent, entry.author, entry.text)
    (date, read) = (entry.date, entry.read)
  }

  /// The model value, its date normalized to whole milliseconds (as ``ArticleRecord/article``).
  var entry: Entry {
    Entry(
      id: id, parent: parentID, author: authorID, text: text,
      date: Date(millisecondsSince1970: date.millisecondsSince1970), read: read)
  }
}

/// The `parents` part of ``GRDBStore``: one more migration (`parent`, `entry` with foreign keys and the index
/// `(parentID, date DESC, id DESC)`), registered when parents are first loaded. Opening a parent is a request
/// through the association, its authors fetched by key; the parent list is SQL (each parent with its newest entry,
/// which the query interface cannot say), decoded into the records. style=records marks a parent read by
/// fetch-modify-save of each unread record; style=batch with one `updateAll`.
extension GRDBStore: ParentStore {
  private func migratorWithParents() -> DatabaseMigrator {
    var migrator = GRDBSchema.migrator(index: indexed, listIndex: listIndexed, fullText: fullTextSearch)
    migrator.registerMigration("parents") { db in
      try db.create(table: "parent") { t in
        t.primaryKey("id", .integer)
        t.column("title", .text).notNull()
      }
      try db.create(table: "entry") { t in
        t.primaryKey("id", .integer)
        t.column("parentID", .integer).notNull().references("parent")
        t.column("authorID", .integer).notNull().references("user")
        t.column("text", .text).notNull()
        t.column("date", .datetime).notNull()
        t.column("read", .boolean).notNull()
      }
      try db.execute(sql: "CREATE INDEX entry_parentID_date ON entry(parentID, date DESC, id DESC)")
    }
    return migrator
  }

  private static func newestRequest(parent: Int64, limit: Int) -> QueryInterfaceRequest<EntryRecord> {
    ParentRecord(id: parent, title: "").request(for: ParentRecord.entries)
      .order(EntryRecord.Columns.date.desc, EntryRecord.Columns.id.desc).limit(limit)
  }

  private static let parentListSQL = """
    SELECT parent.id AS parentKey, parent.title AS parentTitle, entry.*
    FROM parent LEFT JOIN entry ON entry.id =
        (SELECT id FROM entry WHERE parentID = parent.id ORDER BY date DESC, id DESC LIMIT 1)
    ORDER BY entry.id IS NULL, entry.date DESC, entry.id DESC, parent.id LIMIT ?
    """

  func load(parents: [Parent], authors: [User], entries: [Entry]) throws {
    try located {
      try migratorWithParents().migrate(writer)
      try writer.write { db in
        for parent in parents { try ParentRecord(id: parent.id, title: parent.title).insert(db) }
        for author in authors { try author.insert(db) }
        for entry in entries { try EntryRecord(entry).insert(db) }
      }
    }
  }

  func openParent(_ parent: Int64, limit: Int) throws -> ParentScreen {
    try located {
      try writer.read { db in
        let entries = try Self.newestRequest(parent: parent, limit: limit).fetchAll(db).map(\.entry)
        let authors = try User.fetchAll(db, keys: Set(entries.map(\.author))).sorted { $0.id < $1.id }
        return ParentScreen(parent: parent, entries: entries, authors: authors)
      }
    }
  }

  func parentList(limit: Int) throws -> [ParentListing] {
    try located {
      try writer.read { db in
        try Row.fetchAll(db, sql: Self.parentListSQL, arguments: [limit]).map { row in
          let parent = Parent(id: row["parentKey"], title: row["parentTitle"])
          let newest: Entry? =
            (row["id"] as Int64?) == nil ? nil : try EntryRecord(row: row).entry
          return ParentListing(parent: parent, newest: newest)
        }
      }
    }
  }

  func save(_ entry: Entry) throws {
    try located { try inDatabase { db in try EntryRecord(entry).insert(db) } }
  }

  func markParentRead(_ parent: Int64) throws {
    try located {
      try inDatabase { db in
        let unread = EntryRecord.filter(
          EntryRecord.Columns.parentID == parent && EntryRecord.Columns.read == false)
        if batchStyle {
          try unread.updateAll(db, EntryRecord.Columns.read.set(to: true))
        } else {
          for var record in try unread.fetchAll(db) {
            record.read = true
            try record.update(db)
          }
        }
      }
    }
  }

  func allEntries() throws -> [Entry] {
    try located { try writer.read { db in try EntryRecord.fetchAll(db).map(\.entry) } }
  }

  func parentPlans() throws -> [String] {
    try located {
      try writer.read { db in
        let list = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + Self.parentListSQL, arguments: [1])
        return [
          "open-parent: " + (try Self.plan(of: Self.newestRequest(parent: 1, limit: 50), in: db)),
          "parent-list: " + list.map { $0["detail"] as String? ?? "?" }.joined(separator: "; "),
        ]
      }
    }
  }
}
