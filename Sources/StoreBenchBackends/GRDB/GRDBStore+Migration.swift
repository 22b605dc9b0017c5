import GRDB
import StoreBenchContract

/// The `migrate` part of ``GRDBStore``: model version 2 as one more migration of the store's `DatabaseMigrator`.
extension GRDBStore: MigratingStore {
  /// The store's migrator with version 2 registered after the schema's own migrations.
  func migratorToVersion2() -> DatabaseMigrator {
    var migrator = GRDBSchema.migrator(index: indexed, listIndex: listIndexed, fullText: fullTextSearch)
    migrator.registerMigration("v2: pinned, published as ISO 8601 text") { db in
      try db.alter(table: "article") { t in t.add(column: "pinned", .boolean).notNull().defaults(to: false) }
      // GRDB stored the Date as "yyyy-MM-dd HH:mm:ss.SSS" (UTC): the same instant as ISO 8601 text.
      try db.execute(sql: "UPDATE article SET published = replace(published, ' ', 'T') || 'Z'")
    }
    return migrator
  }

  func migrateToVersion2() throws -> String {
    try located { try migratorToVersion2().migrate(writer) }
    return "DatabaseMigrator: registerMigration(v2) { alter(table:) add pinned; UPDATE published }"
  }

  func allArticlesV2() throws -> [ArticleV2] {
    try located {
      try writer.read { db in
        try Row.fetchAll(db, sql: "SELECT uid, feedID, title, summary, published, read, pinned FROM article")
          .map { row in
            ArticleV2(
              uid: row["uid"], feedID: row["feedID"], title: row["title"], summary: row["summary"],
              published: row["published"], read: row["read"], pinned: row["pinned"])
          }
      }
    }
  }
}
