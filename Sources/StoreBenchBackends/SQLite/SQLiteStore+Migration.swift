import SQLiteAPI
import StoreBenchContract

/// The `migrate` part of ``SQLiteStore``: model version 2 by `ALTER TABLE` and an in-place `UPDATE`, or by
/// SQLite's documented table rebuild; either in one transaction, `PRAGMA user_version` set to 2.
extension SQLiteStore: MigratingStore {
  /// Version 1's integer milliseconds as version 2's text, computed exactly with integers (`%f` would go through a
  /// floating-point Julian day and can be off by a millisecond).
  static let publishedAsText = """
    strftime('%Y-%m-%dT%H:%M:%S', published / 1000, 'unixepoch') || printf('.%03dZ', published % 1000)
    """

  func migrateToVersion2() throws -> String {
    try commitPending()
    let rebuild = settings.migration == .rebuild
    try connection.transaction {
      if rebuild {
        try connection.execute(
          """
          CREATE TABLE article_v2(
              uid TEXT NOT NULL, feed_id INTEGER NOT NULL, title TEXT NOT NULL, summary TEXT NOT NULL,
              published TEXT NOT NULL, read INTEGER NOT NULL DEFAULT 0, pinned INTEGER NOT NULL DEFAULT 0);
          INSERT INTO article_v2(rowid, uid, feed_id, title, summary, published, read)
              SELECT rowid, uid, feed_id, title, summary, \(Self.publishedAsText), read FROM article;
          DROP TABLE article;
          ALTER TABLE article_v2 RENAME TO article;
          """)
        // The indexes (and with search=fts5 the triggers) went with the old table; the FTS5 rows keep their
        // rowids, which the copy preserved.
        try connection.execute(Self.schema(for: settings))
      } else {
        try connection.execute(
          """
          ALTER TABLE article ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
          UPDATE article SET published = \(Self.publishedAsText);
          """)
      }
      try connection.execute("PRAGMA user_version = 2")
    }
    return rebuild
      ? "rebuild: CREATE TABLE, INSERT … SELECT, DROP, RENAME, indexes recreated (one transaction)"
      : "alter: ALTER TABLE ADD COLUMN pinned, UPDATE published (one transaction)"
  }

  func allArticlesV2() throws -> [ArticleV2] {
    let select = try connection.prepare("SELECT uid, feed_id, title, summary, published, read, pinned FROM article")
    defer { select.finalize() }
    var articles: [ArticleV2] = []
    while try select.step() {
      articles.append(
        ArticleV2(
          uid: select.text(at: 0), feedID: select.int64(at: 1), title: select.text(at: 2),
          summary: select.text(at: 3), published: select.text(at: 4),
          read: select.int64(at: 5) != 0, pinned: select.int64(at: 6) != 0))
    }
    return articles
  }
}
