import Foundation
import SQLiteAPI
import StoreBenchContract
import StoreBenchMeasure

/// A store in one SQLite file, `store.sqlite`, written with hand-written SQL and reused prepared statements.
final class SQLiteStore: AppStore {
  static let fileName = "store.sqlite"

  let connection: SQLiteConnection
  let location: StoreLocation
  let settings: SQLiteSettings
  /// The `search` variant: `fts5` keeps an FTS5 index of titles and summaries.
  let fullTextSearch: Bool
  let policy: TransactionPolicy
  private var batch = BatchState()
  /// Prepared statements by their SQL, each prepared on first use and reused afterwards.
  private var statements: [String: SQLiteStatement] = [:]
  /// The insert statement, held directly: it runs once per article in the timed loop.
  private var insertArticle: SQLiteStatement?
  /// A `sql` workload's statements (``SQLStore``), by handle, and whether each writes.
  var sqlStatements: [(statement: SQLiteStatement, writes: Bool)] = []
  let effectiveSettings: String

  /// The statements this store runs; each is prepared on first use and reused afterwards.
  enum Query: String {
    case insertArticle =
      "INSERT INTO article(uid, feed_id, title, summary, published, read) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
    case insertUser = "INSERT INTO user(id, name, handle, avatar_url) VALUES (?1, ?2, ?3, ?4)"
    case insertMessage = "INSERT INTO message(id, user_id, text, created) VALUES (?1, ?2, ?3, ?4)"
    case markRead = "UPDATE article SET read = 1 WHERE uid IN (SELECT value FROM json_each(?1))"
    case editArticle = "UPDATE article SET title = ?2, summary = ?3, published = ?4 WHERE uid = ?1"
    case newestArticles =
      "SELECT uid, feed_id, title, summary, published, read FROM article ORDER BY published DESC, uid LIMIT ?1"
    case newestMessages = "SELECT id, user_id, text, created FROM message ORDER BY created DESC, id DESC LIMIT ?1"
    case authorsOfNewest = """
      SELECT id, name, handle, avatar_url FROM user WHERE id IN \
      (SELECT user_id FROM message ORDER BY created DESC, id DESC LIMIT ?1)
      """
    case allArticles = "SELECT uid, feed_id, title, summary, published, read FROM article"
    case articleByUID = "SELECT uid, feed_id, title, summary, published, read FROM article WHERE uid = ?1"
    case allUIDs = "SELECT uid FROM article"
    case deleteArticles = "DELETE FROM article WHERE uid IN (SELECT value FROM json_each(?1))"
    case unreadCounts = "SELECT feed_id, count(*) FROM article WHERE read = 0 GROUP BY feed_id"
    case newestUnread = """
      SELECT uid, feed_id, title, summary, published, read FROM article WHERE feed_id = ?1 AND read = 0 \
      ORDER BY published DESC, uid LIMIT ?2
      """
    case searchLike = "SELECT uid FROM article WHERE title LIKE ?1 OR summary LIKE ?1"
    case searchFTS =
      "SELECT uid FROM article WHERE rowid IN (SELECT rowid FROM article_fts WHERE article_fts MATCH ?1)"
    case setSetting =
      "INSERT INTO setting(key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
    case setting = "SELECT value FROM setting WHERE key = ?1"
    case cachePut = "INSERT OR REPLACE INTO cache(key, value, expires) VALUES (?1, ?2, ?3)"
    case cacheEntry = "SELECT key, value, expires FROM cache WHERE key = ?1"
    case cacheRemove = "DELETE FROM cache WHERE key = ?1"
    case cacheEntries = "SELECT key, value, expires FROM cache"
    // The tags workload (`SQLiteStore+Tags.swift`); its tables exist once tags are loaded.
    case tagsWithUnarchivedNotesJoin = """
      SELECT DISTINCT note_tag.tag_id FROM note_tag JOIN article ON article.uid = note_tag.note_uid
      WHERE article.archived = 0 ORDER BY note_tag.tag_id
      """
    case tagsWithUnarchivedNotesCopy = "SELECT DISTINCT tag_id FROM note_tag WHERE archived = 0 ORDER BY tag_id"
    case newestNotesWithTag = """
      SELECT article.uid, article.feed_id, article.title, article.summary, article.published, article.read
      FROM note_tag JOIN article ON article.uid = note_tag.note_uid
      WHERE note_tag.tag_id = ?1 ORDER BY article.published DESC, article.uid LIMIT ?2
      """
    case addTagJoin = "INSERT INTO note_tag(note_uid, tag_id) SELECT uid, ?2 FROM article WHERE uid = ?1"
    case addTagCopy =
      "INSERT INTO note_tag(note_uid, tag_id, archived) SELECT uid, ?2, archived FROM article WHERE uid = ?1"
    case removeTag = "DELETE FROM note_tag WHERE note_uid = ?1 AND tag_id = ?2"
    case archiveNote = "UPDATE article SET archived = ?2 WHERE uid = ?1"
    case archiveNoteCopy = "UPDATE note_tag SET archived = ?2 WHERE note_uid = ?1"
  }

  static let schema = """
    CREATE TABLE IF NOT EXISTS article(
        uid TEXT NOT NULL, feed_id INTEGER NOT NULL, title TEXT NOT NULL, summary TEXT NOT NULL,
        published INTEGER NOT NULL, read INTEGER NOT NULL DEFAULT 0);
    CREATE UNIQUE INDEX IF NOT EXISTS article_uid ON article(uid);
    CREATE TABLE IF NOT EXISTS user(
        id INTEGER PRIMARY KEY, name TEXT NOT NULL, handle TEXT NOT NULL, avatar_url TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS message(
        id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, text TEXT NOT NULL, created INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS message_created ON message(created DESC, id DESC);
    CREATE TABLE IF NOT EXISTS setting(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS cache(key TEXT PRIMARY KEY, value BLOB NOT NULL, expires INTEGER NOT NULL);
    """

  /// `index=on`: the index the query workload's queries use (feed, unread, newest first).
  static let queryIndex =
    "CREATE INDEX IF NOT EXISTS article_feed_unread ON article(feed_id, read, published DESC, uid);"

  /// `list_index=on`: the index the launch list reads (newest first).
  static let listIndex = "CREATE INDEX IF NOT EXISTS article_published ON article(published DESC, uid);"

  /// `search=fts5`: an external-content FTS5 table over titles and summaries, kept in step by triggers.
  static let fullTextSchema = """
    CREATE VIRTUAL TABLE IF NOT EXISTS article_fts USING fts5(title, summary, content='article', content_rowid='rowid');
    CREATE TRIGGER IF NOT EXISTS article_fts_insert AFTER INSERT ON article BEGIN
        INSERT INTO article_fts(rowid, title, summary) VALUES (new.rowid, new.title, new.summary); END;
    CREATE TRIGGER IF NOT EXISTS article_fts_delete AFTER DELETE ON article BEGIN
        INSERT INTO article_fts(article_fts, rowid, title, summary) VALUES ('delete', old.rowid, old.title, old.summary); END;
    CREATE TRIGGER IF NOT EXISTS article_fts_update AFTER UPDATE OF title, summary ON article BEGIN
        INSERT INTO article_fts(article_fts, rowid, title, summary) VALUES ('delete', old.rowid, old.title, old.summary);
        INSERT INTO article_fts(rowid, title, summary) VALUES (new.rowid, new.title, new.summary); END;
    """

  /// Everything a store with `settings` creates: the tables, the query index with `index=on`, the FTS5 table and
  /// its triggers with `search=fts5`.
  static func schema(for settings: SQLiteSettings) -> String {
    schema + (settings.index == .on ? "\n" + queryIndex : "") + (settings.listIndex == .on ? "\n" + listIndex : "")
      + (settings.search == .fts5 ? "\n" + fullTextSchema : "")
  }

  init(location: StoreLocation, settings: SQLiteSettings) throws {
    self.location = location
    self.settings = settings
    fullTextSearch = settings.search == .fts5
    #if !canImport(Darwin)
      if settings.fullFsync == .on {
        throw StoreError.unsupported(
          "fullfsync=on: F_FULLFSYNC exists only on Apple platforms; on Linux fsync already "
            + "flushes the drive's cache, so this setting cannot be measured here (docs/PLATFORMS.md)")
      }
    #endif
    connection = try SQLiteConnection(path: location.path(Self.fileName))
    do {
      // Another connection's or process's lock is waited for up to busy_timeout (sync-while-reading, shared).
      try connection.setBusyHandler(
        settings.busyTimeout > 0 ? SQLiteBusyWait(timeoutMilliseconds: settings.busyTimeout) : nil)
      try Self.apply("journal_mode", settings.journal, on: connection) {
        SQLiteSettings.JournalMode(rawValue: $0.lowercased())
      }
      try Self.apply("synchronous", settings.sync, on: connection) { SQLiteSettings.Synchronous(pragmaValue: $0) }
      #if canImport(Darwin)
        // Untested on Apple platforms (docs/PLATFORMS.md): F_FULLFSYNC for commits and WAL checkpoints.
        if settings.fullFsync == .on {
          try connection.execute("PRAGMA fullfsync = ON; PRAGMA checkpoint_fullfsync = ON")
        }
      #endif
      // Temporary tables and sort files stay in memory, so the store creates no file outside its directory.
      try connection.execute("PRAGMA temp_store = MEMORY")
      // Taken only by a file without tables; a file created with another mode reads back as a mismatch.
      try Self.apply("auto_vacuum", settings.autoVacuum, on: connection) {
        SQLiteSettings.AutoVacuum(pragmaValue: $0)
      }
      // A file a `sql` workload made holds that workload's schema alone (SQLiteStore+SQL.swift).
      if try connection.scalarText("PRAGMA application_id") != String(SQLWorkloadMark.applicationID) {
        try connection.execute(Self.schema(for: settings))
      }
      policy = TransactionPolicy(settings)
      // `apply` read journal_mode and synchronous back and refused a difference: the settings are in force.
      effectiveSettings = settings.text + " temp_store=memory"
    } catch {
      try? connection.close()
      throw error
    }
  }

  /// Sets a pragma to a setting's value (an enum case: pragma values never come from scenario text itself), reads
  /// it back, and fails when SQLite did not take it.
  private static func apply<Value: SettingChoice>(
    _ pragma: String, _ requested: Value, on connection: SQLiteConnection, parse: (String) -> Value?
  ) throws {
    try connection.execute("PRAGMA \(pragma) = \(requested.rawValue.uppercased())")
    let text = try connection.scalarText("PRAGMA \(pragma)") ?? ""
    guard parse(text) == requested else {
      throw StoreError.settingMismatch(
        setting: pragma, requested: requested.rawValue, effective: text.lowercased())
    }
  }

  func statement(_ query: Query) throws -> SQLiteStatement { try statement(sql: query.rawValue) }

  /// The prepared statement of `sql` (a constant of this store's code, never scenario text).
  func statement(sql: String) throws -> SQLiteStatement {
    if let cached = statements[sql] { return cached }
    let prepared = try connection.prepare(sql)
    statements[sql] = prepared
    return prepared
  }

  func unitOfWork(_ body: () throws -> Void) throws {
    if case .single = policy {
      try connection.transaction(body)
    } else {
      try body()
    }
  }

  /// txn=batch: opens the batch transaction before a write if none is open.
  @inline(__always)
  func beginWrite() throws {
    guard case .batch = policy, !batch.open else { return }
    try connection.execute("BEGIN IMMEDIATE")
    batch = BatchState(open: true, writes: 0, started: monotonicNanoseconds())
  }

  /// txn=batch: counts the write and commits when the batch is full or old enough.
  @inline(__always)
  func endWrite() throws {
    guard case .batch(let operations, let nanoseconds) = policy else { return }
    batch.writes += 1
    if batch.writes >= operations || monotonicNanoseconds() - batch.started >= nanoseconds {
      try commitBatch()
    }
  }

  /// txn=batch: the app operation ended; its open batch is committed (inside the clock, see `Store`).
  func commitPending() throws { try commitBatch() }

  /// Commits the pending batch, if any (also before bulk loads and at close).
  private func commitBatch() throws {
    guard batch.open else { return }
    // A refused COMMIT (SQLITE_BUSY) leaves the batch open, to be committed by the next try.
    try connection.execute("COMMIT")
    batch.open = false
  }

  func insert(_ article: Article) throws {
    let insert: SQLiteStatement
    if let cached = insertArticle {
      insert = cached
    } else {
      insert = try statement(.insertArticle)
      insertArticle = insert
    }
    try Self.bind(article, to: insert)
    try beginWrite()
    try insert.run()
    try endWrite()
  }

  /// Binds an article's fields to the parameters of ``Query/insertArticle``.
  @inline(__always)
  private static func bind(_ article: Article, to insert: SQLiteStatement) throws {
    try insert.bind(article.uid, at: 1)
    try insert.bind(article.feedID, at: 2)
    try insert.bind(article.title, at: 3)
    try insert.bind(article.summary, at: 4)
    try insert.bind(article.published.millisecondsSince1970, at: 5)
    try insert.bind(article.read ? 1 : 0, at: 6)
  }

  func markRead(uids: [String]) throws {
    let update = try statement(.markRead)
    try update.bind(String(decoding: try JSONEncoder().encode(uids), as: UTF8.self), at: 1)
    try beginWrite()
    try update.run()
    try endWrite()
  }

  func edit(_ edit: ArticleEdit) throws {
    let update = try statement(.editArticle)
    try update.bind(edit.uid, at: 1)
    try update.bind(edit.title, at: 2)
    try update.bind(edit.summary, at: 3)
    try update.bind(edit.date.millisecondsSince1970, at: 4)
    try beginWrite()
    try update.run()
    guard connection.changes == 1 else { throw StoreError.inconsistent("no article \(edit.uid)") }
    try endWrite()
  }

  func loadTimeline(limit: Int) throws -> TimelineScreen {
    let newest = try statement(.newestMessages)
    try newest.bind(limit, at: 1)
    defer { newest.reset() }
    var messages: [Message] = []
    messages.reserveCapacity(limit)
    while try newest.step() {
      messages.append(
        Message(
          id: newest.int64(at: 0), userID: newest.int64(at: 1), text: newest.text(at: 2),
          created: Date(millisecondsSince1970: newest.int64(at: 3))))
    }
    let authors = try statement(.authorsOfNewest)
    try authors.bind(limit, at: 1)
    defer { authors.reset() }
    var users: [User] = []
    while try authors.step() {
      users.append(
        User(
          id: authors.int64(at: 0), name: authors.text(at: 1), handle: authors.text(at: 2),
          avatarURL: authors.text(at: 3)))
    }
    return TimelineScreen(messages: messages, users: users)
  }

  func load(articles: [Article]) throws {
    try commitBatch()
    try connection.transaction {
      let insert = try statement(.insertArticle)
      for article in articles {
        try Self.bind(article, to: insert)
        try insert.run()
      }
    }
  }

  func load(users: [User], messages: [Message]) throws {
    try commitBatch()
    try connection.transaction {
      try insert(users: users)
      let insertMessage = try statement(.insertMessage)
      for message in messages {
        try insertMessage.bind(message.id, at: 1)
        try insertMessage.bind(message.userID, at: 2)
        try insertMessage.bind(message.text, at: 3)
        try insertMessage.bind(message.created.millisecondsSince1970, at: 4)
        try insertMessage.run()
      }
    }
  }

  /// Inserts users (timeline users, parents' authors) inside the caller's transaction.
  func insert(users: [User]) throws {
    let insertUser = try statement(.insertUser)
    for user in users {
      try insertUser.bind(user.id, at: 1)
      try insertUser.bind(user.name, at: 2)
      try insertUser.bind(user.handle, at: 3)
      try insertUser.bind(user.avatarURL, at: 4)
      try insertUser.run()
    }
  }

  func allArticles() throws -> [Article] {
    let select = try statement(.allArticles)
    defer { select.reset() }
    var articles: [Article] = []
    while try select.step() { articles.append(Self.article(from: select)) }
    return articles
  }

  /// The article in the current row of a statement selecting ``Query/allArticles``'s columns.
  static func article(from row: SQLiteStatement) -> Article {
    Article(
      uid: row.text(at: 0), feedID: row.int64(at: 1), title: row.text(at: 2), summary: row.text(at: 3),
      published: Date(millisecondsSince1970: row.int64(at: 4)), read: row.int64(at: 5) != 0)
  }

  func article(uid: String) throws -> Article? {
    let select = try statement(.articleByUID)
    defer { select.reset() }
    try select.bind(uid, at: 1)
    return try select.step() ? Self.article(from: select) : nil
  }

  func allUIDs() throws -> [String] {
    let select = try statement(.allUIDs)
    defer { select.reset() }
    var uids: [String] = []
    while try select.step() { uids.append(select.text(at: 0)) }
    return uids
  }

  func delete(uids: [String]) throws {
    let delete = try statement(.deleteArticles)
    try delete.bind(String(decoding: try JSONEncoder().encode(uids), as: UTF8.self), at: 1)
    try beginWrite()
    try delete.run()
    try endWrite()
  }

  func close() throws {
    try commitBatch()
    for statement in statements.values { statement.finalize() }
    statements = [:]
    for prepared in sqlStatements { prepared.statement.finalize() }
    sqlStatements = []
    insertArticle = nil
    try connection.close()
  }
}

/// How a ``SQLiteStore`` brackets writes in transactions.
enum TransactionPolicy {
  /// Autocommit: every statement is its own transaction.
  case none
  /// One explicit transaction per unit of work.
  case single
  /// One open transaction, committed after `operations` writes or at the first write `nanoseconds` after it
  /// began, and at close (GYDataCenter's auto-batching, made synchronous: there is no timer thread, so a
  /// quiet store commits its last batch at the next write or at close).
  case batch(operations: Int, nanoseconds: UInt64)

  init(_ settings: SQLiteSettings) {
    switch settings.txn {
    case .none: self = .none
    case .single: self = .single
    case .batch:
      self = .batch(
        operations: settings.batchOperations,
        nanoseconds: UInt64(settings.batchMilliseconds) * 1_000_000)
    }
  }
}

/// The open batch of a txn=batch store.
struct BatchState {
  var open = false
  var writes = 0
  var started: UInt64 = 0
}
