import Foundation
import GRDB
import SQLiteAPI
import StoreBenchContract

/// `grdb`: the ORM layer. GRDB.swift records used the way Core Data users use objects (`style=records`),
/// or with what a good ORM adds (`style=batch`: query-interface batch updates and cached statements).
public enum GRDBBackend {
  /// The GRDB release this package pins (Package.swift); GRDB exposes no version constant.
  public static let version = "7.10.0"

  public static var descriptor: BackendDescriptor {
    BackendDescriptor(
      name: "grdb",
      summary: "GRDB.swift records over SQLite (the ORM layer), object-style or batch-style",
      settings: Settings.self,
      smoke: [
        Settings(),
        Settings().with { ($0.style, $0.writer) = (.batch, .pool) },
        Settings().with { ($0.style, $0.index, $0.search) = (.batch, .off, .fts5) },
      ],
      advise: [
        .init(
          Settings().with { ($0.style, $0.writer) = (.records, .pool) },
          provides: [
            .newestFirstList: { $0.listIndex = .on }, .coveringTagIndex: { $0.tags = .covering },
            .fullTextSearch: { $0.search = .fts5 },
          ])
      ],
      storeFiles: ["store.sqlite"],
      // queue: a rollback journal with synchronous=FULL, exactly sqlite's journal=delete sync=full, whose commit
      // point (the journal's unlink) is never synced: the last commit may roll back after a power loss
      // (storebench crash --fault power-loss measured 39 of 1,273 lost). pool: WAL with synchronous=NORMAL, which
      // SQLite documents as durable across a crash of the app but not of the machine.
      promise: { _ in .survivesKill },
      powerLossNote: { settings in
        settings.writer == .pool
          ? "the -shm index is a shared mapping; SQLite rebuilds it on recovery, so its content does not matter"
          : ""
      },
      libraryVersions: { ["grdb": version] },
      open: { location, settings in try GRDBStore(location: location, settings: settings) }
    )
  }

  /// The settings of the `grdb` backend.
  public struct Settings: BackendSettings {
    public enum Style: String, SettingChoice { case records, batch }
    public enum Writer: String, SettingChoice { case queue, pool }
    public var style = Style.records
    public var writer = Writer.queue
    public var index = SQLiteSettings.Switch.on
    public var listIndex = SQLiteSettings.Switch.off
    public var search = SQLiteSettings.Search.like
    public enum Tags: String, SettingChoice { case join, covering }
    public var tags = Tags.join
    public init() {}
    public static var axes: [SettingAxis<Settings>] {
      [
        .choice(
          "style", \.style, key: true,
          summary:
            "records: insert(db) per record, mark-read fetches records, sets read, saves each; batch: cached INSERT statement and filter(keys:).updateAll"
        ),
        .choice(
          "writer", \.writer, key: true,
          summary:
            "queue: DatabaseQueue (rollback journal); pool: DatabasePool (WAL, GRDB sets synchronous=NORMAL)"
        ),
        .choice(
          "index", \.index,
          summary: "on: an index on article(feedID, read, published, uid) for the query workload; off: none"),
        .choice(
          "list_index", \.listIndex,
          summary:
            "on: an index on article(published DESC, uid) for the launch list (newest first); off: none, the list scans and sorts"
        ),
        .choice(
          "search", \.search,
          summary:
            "like: filter with like() over title and summary; fts5: an FTS5 table synchronized with the article table"
        ),
        .choice(
          "tags", \.tags,
          summary:
            "the tags workload's noteTag pivot, indexed by tag: join: archived only on article, the association joins it; covering: archived copied into noteTag, kept in step, and an index on noteTag(archived, tagID) that answers the sidebar alone"
        ),
      ]
    }
  }
}

/// A GRDB error with the database file it happened in (GRDB's own description has the code, the
/// message and the SQL, but not the path).
struct GRDBStoreError: Error, CustomStringConvertible {
  let underlying: any Error
  let path: String
  var description: String { "\(underlying) [file: \(path)]" }

  /// Runs `body`, adding the database path to GRDB's errors.
  static func located<T>(_ path: String, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as DatabaseError {
      throw GRDBStoreError(underlying: error, path: path)
    }
  }
}

final class GRDBStore: AppStore {
  let path: String
  let writer: any DatabaseWriter
  let batchStyle: Bool
  let fullTextSearch: Bool
  /// `index=on`: the query index is part of the schema's migrations.
  let indexed: Bool
  /// `list_index=on`: the launch list's index is part of the schema's migrations.
  let listIndexed: Bool
  /// `tags=covering`: the pivot carries `archived`, with an index on (archived, tagID).
  let coveringTags: Bool
  private let screen: GRDBScreenReader
  /// The database of the running unit of work.
  var current: Database?
  /// A `sql` workload's statements (``SQLStore``), by handle: their SQL (GRDB caches each connection's statements).
  var sqlStatements: [String] = []
  /// Another process's lock is waited for up to 10 s (GRDB's `busyMode`), counted (`GRDBStore+Processes.swift`).
  let busyWait = SQLiteBusyWait(timeoutMilliseconds: GRDBStore.busyTimeoutMilliseconds)
  let effectiveSettings: String

  static let insertSQL = """
    INSERT INTO article (uid, feedID, title, summary, published, read) VALUES (?, ?, ?, ?, ?, ?)
    """

  init(location: StoreLocation, settings: GRDBBackend.Settings) throws {
    let path = location.path("store.sqlite")
    self.path = path
    let usePool = settings.writer == .pool
    do {
      var configuration = Configuration()
      let busyWait = busyWait
      configuration.busyMode = .callback { busyWait.shouldRetry(afterTries: $0) }
      writer =
        usePool
        ? try DatabasePool(path: path, configuration: configuration)
        : try DatabaseQueue(path: path, configuration: configuration)
    } catch let error as DatabaseError {
      throw GRDBStoreError(underlying: error, path: path)
    }
    screen = GRDBScreenReader(writer: writer, path: path)
    do {
      fullTextSearch = settings.search == .fts5
      indexed = settings.index == .on
      listIndexed = settings.listIndex == .on
      coveringTags = settings.tags == .covering
      // A file a `sql` workload made holds that workload's schema alone (GRDBStore+SQL.swift).
      let mark = try writer.writeWithoutTransaction { db in try Int32.fetchOne(db, sql: "PRAGMA application_id") }
      if mark != SQLWorkloadMark.applicationID {
        try GRDBSchema.migrator(index: indexed, listIndex: listIndexed, fullText: fullTextSearch).migrate(
          writer)
      }
      // Read on the writer connection: a pool's reader connections do not carry the writer's `synchronous`.
      let (journal, sync) = try writer.writeWithoutTransaction { db in
        (
          try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "?",
          try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
        )
      }
      let expectedJournal = usePool ? "wal" : "delete"
      guard journal == expectedJournal else {
        throw StoreError.settingMismatch(
          setting: "journal_mode", requested: expectedJournal, effective: journal)
      }
      let syncName = SQLiteSettings.Synchronous(pragmaValue: String(sync))?.rawValue ?? "\(sync)"
      batchStyle = settings.style == .batch
      effectiveSettings = settings.text + " journal=\(journal) sync=\(syncName)"
    } catch let error as DatabaseError {
      try? writer.close()
      throw GRDBStoreError(underlying: error, path: path)
    } catch {
      try? writer.close()
      throw error
    }
  }

  func shareWithSecondThread() throws -> SharedStore {
    let screen = screen
    return SharedStore(
      writer: self,
      concurrency: writer is DatabasePool
        ? "one DatabasePool: WAL, reads run while the writer writes"
        : "one DatabaseQueue: GRDB serializes every read behind the running write"
    ) { SharedReader(screen) }
  }

  /// Runs `body`, adding the database path to GRDB's errors.
  func located<T>(_ body: () throws -> T) throws -> T { try GRDBStoreError.located(path, body) }

  /// Runs `body` in the unit of work's transaction, or in a write transaction of its own.
  func inDatabase(_ body: (Database) throws -> Void) throws {
    if let current {
      try body(current)
    } else {
      try writer.write(body)
    }
  }

  func unitOfWork(_ body: () throws -> Void) throws {
    try located {
      try writer.write { db in
        current = db
        defer { current = nil }
        try body()
      }
    }
  }

  func insert(_ article: Article) throws {
    try located {
      try inDatabase { db in
        if batchStyle {
          try db.cachedStatement(sql: Self.insertSQL).execute(arguments: [
            article.uid, article.feedID, article.title, article.summary, article.published, article.read,
          ])
        } else {
          try ArticleRecord(article).insert(db)
        }
      }
    }
  }

  func markRead(uids: [String]) throws {
    try located {
      try inDatabase { db in
        if batchStyle {
          try ArticleRecord.filter(keys: uids).updateAll(db, ArticleRecord.Columns.read.set(to: true))
        } else {
          for var record in try ArticleRecord.fetchAll(db, keys: uids) {
            record.read = true
            try record.update(db)
          }
        }
      }
    }
  }

  /// style=records: fetch the record, change it, save it (Core Data's way); style=batch: one UPDATE of the columns.
  func edit(_ edit: ArticleEdit) throws {
    try located {
      try inDatabase { db in
        if batchStyle {
          let changed = try ArticleRecord.filter(key: edit.uid).updateAll(
            db, ArticleRecord.Columns.title.set(to: edit.title),
            ArticleRecord.Columns.summary.set(to: edit.summary),
            ArticleRecord.Columns.published.set(to: edit.date))
          guard changed == 1 else { throw StoreError.inconsistent("no article \(edit.uid)") }
        } else {
          guard var record = try ArticleRecord.fetchOne(db, key: edit.uid) else {
            throw StoreError.inconsistent("no article \(edit.uid)")
          }
          (record.title, record.summary, record.published) = (edit.title, edit.summary, edit.date)
          try record.update(db)
        }
      }
    }
  }

  func loadTimeline(limit: Int) throws -> TimelineScreen { try screen.loadTimeline(limit: limit) }

  func load(articles: [Article]) throws {
    try located {
      try writer.write { db in
        for article in articles { try ArticleRecord(article).insert(db) }
      }
    }
  }

  func load(users: [User], messages: [Message]) throws {
    try located {
      try writer.write { db in
        for user in users { try user.insert(db) }
        for message in messages { try message.insert(db) }
      }
    }
  }

  func article(uid: String) throws -> Article? {
    try located { try writer.read { db in try ArticleRecord.fetchOne(db, key: uid)?.article } }
  }

  func allUIDs() throws -> [String] {
    try located {
      try writer.read { db in try String.fetchAll(db, ArticleRecord.select(ArticleRecord.Columns.uid)) }
    }
  }

  func delete(uids: [String]) throws {
    try located {
      try inDatabase { db in
        if batchStyle {
          try ArticleRecord.deleteAll(db, keys: uids)
        } else {
          for record in try ArticleRecord.fetchAll(db, keys: uids) { try record.delete(db) }
        }
      }
    }
  }

  func allArticles() throws -> [Article] {
    try located { try writer.read { db in try ArticleRecord.fetchAll(db).map(\.article) } }
  }

  func close() throws {
    try located { try writer.close() }
  }
}

/// The first screen, read the way a GRDB app's UI reads it: records through the query interface, on any thread
/// (GRDB's queues and pools are thread-safe). The UI thread's view in `sync-while-reading`.
struct GRDBScreenReader: TimelineReader, Sendable {
  let writer: any DatabaseWriter
  let path: String

  func loadTimeline(limit: Int) throws -> TimelineScreen {
    try GRDBStoreError.located(path) {
      try writer.read { db in
        let messages =
          try Message
          .order(Column("created").desc, Column("id").desc)
          .limit(limit)
          .fetchAll(db)
          .map(\.wholeMilliseconds)
        let users = try User.fetchAll(db, keys: Set(messages.map(\.userID)))
        return TimelineScreen(messages: messages, users: users)
      }
    }
  }
}
