/// The writes a sync makes: new articles and articles marked read, in units of work. The part of
/// ``ArticleStore`` a second thread uses in `sync-while-reading` (see ``SharedStore``).
public protocol ArticleWriter {
  /// Runs `body` as one app operation under the backend's transaction / flush policy (see ``Store``).
  func unitOfWork(_ body: () throws -> Void) throws
  /// Stores one new article (called once per article, inside a unit of work).
  func insert(_ article: Article) throws
  /// Sets `read = true` on the articles with these uids (all exist) and on no others.
  func markRead(uids: [String]) throws
}

/// What a UI thread reads: the first screen of the timeline.
public protocol TimelineReader {
  /// Loads the first screen: the newest `limit` messages (`created` descending, then `id` descending) and each
  /// of their authors exactly once, as model values.
  func loadTimeline(limit: Int) throws -> TimelineScreen
}

/// Role: the app's articles (`insert`, `mark-read`, `lookup`, `uid-set`, `delete`; crash and verify-store).
public protocol ArticleStore: Store, ArticleWriter {
  /// The article with this uid as a model value, or nil when there is none (one call per lookup).
  func article(uid: String) throws -> Article?
  /// Every stored uid, in any order (the "keep the ids in memory" trick: the caller makes a `Set`).
  func allUIDs() throws -> [String]
  /// Deletes the articles with these uids (all exist) and no others.
  func delete(uids: [String]) throws
  /// Saves one text edit (`edit`): the stored article `edit.uid` (it exists) takes the edit's title, summary and
  /// date, and nothing else changes; called inside a unit of work, one edit per app operation. In the backend's
  /// idiom: an SQL `UPDATE`, fetch-modify-save of a record, a put of the re-encoded value, a whole-file rewrite.
  func edit(_ edit: ArticleEdit) throws
  /// Untimed preparation: stores these articles as fast as the backend can, committed on return.
  func load(articles: [Article]) throws
  /// Untimed verification: every stored article, in any order.
  func allArticles() throws -> [Article]
  /// Calls `body` with every stored article: the scan a key-value app runs when it has no index. The default
  /// reads ``allArticles()``; a backend overrides it when its users would scan differently (e.g. in memory).
  func forEachArticle(_ body: (Article) throws -> Void) throws
}

/// Role: a social timeline of users and messages (`timeline`, `timeline-cold`, `timeline-warm`).
public protocol TimelineStore: Store, TimelineReader {
  /// Untimed preparation: stores the timeline data as fast as the backend can, committed on return.
  func load(users: [User], messages: [Message]) throws
}

/// Role: the queries an app runs over its articles (`query`, `search`, the launch list). Every ``ArticleStore`` can
/// play it by
/// scanning (the defaults in `StoreDefaults.swift`); SQL backends answer with SQL and indexes.
public protocol QueryStore: ArticleStore {
  /// The first screen of the app's own records: the newest `limit` articles, `published` descending, then `uid`
  /// ascending by UTF-8 (``Article/isNewer(_:_:)``), as model values (the launch list).
  func newestArticles(limit: Int) throws -> [Article]
  /// How this store answers ``newestArticles(limit:)``, for the row: `EXPLAIN QUERY PLAN` or the strategy.
  func newestArticlesPlan() throws -> String
  /// Unread articles per feed; feeds without an unread article are absent.
  func unreadCounts() throws -> [Int64: Int]
  /// The newest `limit` unread articles of one feed: `published` descending, then `uid` ascending (by UTF-8).
  func newestUnread(feedID: Int64, limit: Int) throws -> [Article]
  /// How this store answers ``unreadCounts()`` and ``newestUnread(feedID:limit:)``, for the report: SQL
  /// backends return `EXPLAIN QUERY PLAN` of each query; others name their strategy (e.g. a scan).
  func queryPlans() throws -> [String]
  /// The uids (any order) of the articles whose title or summary contains `keyword` — ASCII letters and
  /// digits only — ignoring ASCII case (SQL `LIKE '%keyword%'` semantics).
  func search(keyword: String) throws -> [String]
}

/// Role: small typed app settings (`settings`), the defaults use case.
public protocol SettingsStore: Store {
  /// Writes one small setting (called inside a unit of work; one setting per app operation).
  func setSetting(_ value: SettingValue, forKey key: String) throws
  /// The setting under `key`, read as `kind` (nil when there is none).
  func setting(forKey key: String, kind: SettingKind) throws -> SettingValue?
}

/// Role: storage for an expiring cache (`cache`): the requirements of ``CacheStorage``, each in the backend's
/// idiom; the policy lives in ``ExpiringCache``.
public protocol CacheStore: Store, CacheStorage {}

/// Role: articles and a timeline shared by two threads (`sync-while-reading`).
public protocol SharableStore: ArticleStore, TimelineStore {
  /// Shares the store between this thread (the writer) and one other (the reader), in the backend's natural
  /// idiom: a second connection (SQLite WAL readers), the same thread-safe database object (GRDB), one
  /// environment with a read transaction per call (LMDB), a second handle on atomically replaced files — or, for a
  /// strategy with no concurrency of its own, one serial queue around the store, as an app would add (the default).
  /// Called
  /// once, with no unit of work running; the store stays open until both views are done.
  func shareWithSecondThread() throws -> SharedStore
}

/// Role: a store whose files keep the room of deleted and rewritten records for reuse, and that can give it back
/// (`aging`): SQLite (`VACUUM`, `incremental_vacuum`), LMDB (a compacting copy), GDBM (`gdbm_reorganize`). Stores
/// that rewrite whole files or keep a file per record have nothing to compact and do not play it.
public protocol CompactingStore: QueryStore {
  /// What the library says about the free room inside the store's files (outside any unit of work).
  func freeSpace() throws -> FreeSpace
  /// Gives the free room back to the file system in the library's idiom, and says how. Called outside any unit of
  /// work with nothing pending. When the answer's ``Compaction/needsReopen`` is true, the caller closes the store
  /// and opens it again before any other use (LMDB: the compacted copy replaced the file the environment had open).
  func compact() throws -> Compaction
}

/// Role: a store whose articles can be upgraded to model version 2 (``ArticleV2``) in place (`migrate`): a
/// release of the app that changes its model. After ``migrateToVersion2()`` the store holds version 2 (or, for a
/// lazy strategy, version-1 records it upgrades as it reads them); the version-1 article calls are then not used.
public protocol MigratingStore: ArticleStore {
  /// Upgrades the stored articles to version 2 in the backend's idiom and its variant's strategy (an `ALTER TABLE`
  /// and per-row conversion, a table rebuild, a migrator, every record decoded and re-encoded, or — lazy — only a
  /// version mark), durable as the variant promises when it returns. Returns how, for the row.
  func migrateToVersion2() throws -> String
  /// Every article as version 2, in any order. A lazy store upgrades the version-1 records it reads and writes
  /// them back (the deferred cost).
  func allArticlesV2() throws -> [ArticleV2]
}

/// Role: notes × tags, many-to-many (`tags`, seed 000): the tags of each article (a note), whether it is archived,
/// and the two queries a notes app runs on its tags — in the backend's idiom: a lookup table with or without a
/// covering index or a denormalized `archived` (SQLite), associations (GRDB), index records the store keeps itself
/// (LMDB, GDBM, files), or a table held whole in memory and scanned (memory, plist, defaults).
public protocol TaggingStore: ArticleStore {
  /// Untimed preparation: stores the articles and their tags (``NoteTags`` of stored uids), committed on return.
  func load(articles: [Article], tags: [NoteTags]) throws
  /// The tags at least one unarchived note carries, ascending ("the tags that have unarchived notes").
  func tagsWithUnarchivedNotes() throws -> [Int64]
  /// The newest `limit` notes (archived or not) carrying `tag`: `published` descending, then `uid` ascending by
  /// UTF-8 (``Article/isNewer(_:_:)``), as model values.
  func newestNotes(tag: Int64, limit: Int) throws -> [Article]
  /// Saves one change to the tags (called inside a unit of work, one change per app operation), keeping whatever
  /// index or copy the store maintains in step.
  func apply(_ change: TagChange) throws
  /// Untimed verification: the tags of every note that has tags or is archived, in any order.
  func allNoteTags() throws -> [NoteTags]
  /// How this store answers the two tag queries, for the row: `EXPLAIN QUERY PLAN` or the strategy.
  func tagQueryPlans() throws -> [String]
}

/// Role: records that belong to a parent (`open-parent`, `parent-list`, `parent-save`, `parent-read`): messages in
/// conversations, notes in folders, articles in feeds, each with an author — in the backend's idiom: a column and an
/// index `(parent, date)` (SQLite, GRDB), ordered key prefixes (LMDB), index records the store keeps itself (GDBM,
/// files), or a collection per parent held whole (memory, a property list per parent, a defaults key per parent).
public protocol ParentStore: Store {
  /// Untimed preparation: stores the parents, the authors and the records (each naming a stored parent and author),
  /// committed on return.
  func load(parents: [Parent], authors: [User], entries: [Entry]) throws
  /// Opens a parent: its newest `limit` records, newest first (``Entry/isNewer(_:than:)``), and each of their
  /// authors once (``ParentScreen``). A parent without records gives an empty screen.
  func openParent(_ parent: Int64, limit: Int) throws -> ParentScreen
  /// The list at launch: the first `limit` parents, each with its newest record, in ``ParentListing`` order.
  func parentList(limit: Int) throws -> [ParentListing]
  /// Saves one new record into its (stored) parent; called inside a unit of work, one record per app operation,
  /// keeping whatever index the store maintains in step.
  func save(_ entry: Entry) throws
  /// Marks every record of `parent` read (called inside a unit of work: one app operation).
  func markParentRead(_ parent: Int64) throws
  /// Untimed verification: every stored record, in any order.
  func allEntries() throws -> [Entry]
  /// How this store opens a parent and lists the parents, for the row: `EXPLAIN QUERY PLAN` or the strategy.
  func parentPlans() throws -> [String]
}

/// Role: a store that runs an app's own SQL (`sql` workload files, docs/WORKLOADS.md): the file's schema, its fill
/// and its statements, through the backend's own library and in its idiom (prepared statements reused, the variant's
/// transaction policy around each app operation, read-only operations as reads).
///
/// The workload checks the file against SQLite before any store opens (every statement prepares, every parameter
/// has a generator); a store still throws its library's error, with its message, when a statement fails.
public protocol SQLStore: Store {
  /// Untimed, on a fresh store: makes the store hold the file's schema alone. The store's own tables (empty in a
  /// fresh store) are dropped, the file is marked as a SQL workload's (``SQLWorkloadMark``) so that a reopen does
  /// not create them again, and `schema` (one or more statements) is run and committed.
  func createSchema(_ schema: String) throws
  /// Untimed: inserts `rows` (values in `columns` order) into `table`, committed on return.
  func insert(into table: String, columns: [String], rows: [[SQLValue]]) throws
  /// Untimed: prepares `sql` for ``run(_:_:into:)`` and returns its handle (0, 1, … in the order prepared).
  func prepareStatement(_ sql: String) throws -> Int
  /// Timed: one app operation, the statements `body` runs, under the variant's policy (one transaction, an
  /// auto-batch, autocommit); `writes` is false when every statement only reads (a read transaction where the
  /// library has one). Committed on return, as ``Store/unitOfWork(_:)``.
  func operation(writes: Bool, _ body: () throws -> Void) throws
  /// Timed: runs prepared statement `statement` with `parameters` bound to its parameters 1…n, adds every cell of
  /// every row it returns to `hash` (``SQLValue/combine(into:)``, row by row, column by column) and returns the
  /// number of rows.
  func run(_ statement: Int, _ parameters: [SQLValue], into hash: inout FNV1a) throws -> Int
  /// Untimed: `EXPLAIN QUERY PLAN` of `sql`, its steps' details joined by `; `.
  func queryPlan(_ sql: String) throws -> String
  /// Untimed: every row `sql` returns (a check query).
  func query(_ sql: String) throws -> [[SQLValue]]
  /// Stops the statement running now, from any thread (`sqlite3_interrupt`): it fails with the library's
  /// interrupt error. The harness calls it when a repetition runs past its bound or a signal arrives.
  var interrupter: @Sendable () -> Void { get }
}

/// Role: a store that several processes open at once (`shared`: an app and its extension), each with its own
/// handle opened by the backend's `open`, in the library's idiom for sharing: SQLite's locks with the variant's busy
/// timeout, a GRDB `DatabasePool`, LMDB's lock file, GDBM's single writer, whole files rewritten by whoever writes
/// last. The app's and the extension's writes go through the article and settings roles, each as one unit of work.
public protocol ProcessSharingStore: QueryStore, SettingsStore {
  /// How this store shares its files with other processes (``ProcessSharing``).
  var processSharing: ProcessSharing { get }
  /// The lock waits this handle counted since it opened (``LockWaits``); zero where the library waits unseen.
  var lockWaits: LockWaits { get }
  /// The library's name for `error` when it is a refusal another process's lock caused (`SQLITE_BUSY`,
  /// `GDBM_CANT_BE_WRITER`): the operation did nothing and may be retried. Nil for any other error.
  func refusal(in error: any Error) -> String?
}

extension ProcessSharingStore {
  /// No waits counted: the library waits unseen, or never waits (whole files, a file per record).
  public var lockWaits: LockWaits { LockWaits() }

  /// No refusals: the library never refuses another process (it waits, or nothing coordinates processes).
  public func refusal(in error: any Error) -> String? { nil }
}

/// The free room inside a store's files, as its library reports it.
public struct FreeSpace: Sendable, Equatable {
  /// Bytes held free for reuse inside the files; nil when the library cannot say.
  public var freeBytes: Int64?
  /// The library's own figures: `freelist_count=12 page_count=80 page_size=4096`.
  public var detail: String

  public init(freeBytes: Int64?, detail: String) {
    self.freeBytes = freeBytes
    self.detail = detail
  }
}

/// How a store compacted itself.
public struct Compaction: Sendable, Equatable {
  /// The library calls made (`VACUUM; wal_checkpoint(TRUNCATE)`).
  public var method: String
  /// The store must be closed and reopened before it is used again.
  public var needsReopen: Bool

  public init(method: String, needsReopen: Bool = false) {
    self.method = method
    self.needsReopen = needsReopen
  }
}

/// Every role: what the shipped backends' stores play.
public typealias AppStore = QueryStore & TimelineStore & SettingsStore & CacheStore & SharableStore

/// The roles a store type plays, checked from the type before a row runs.
public struct StoreRoles: OptionSet, Sendable, Hashable, CustomStringConvertible {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  public static let articles = StoreRoles(rawValue: 1 << 0)
  public static let timeline = StoreRoles(rawValue: 1 << 1)
  public static let queries = StoreRoles(rawValue: 1 << 2)
  public static let settings = StoreRoles(rawValue: 1 << 3)
  public static let cache = StoreRoles(rawValue: 1 << 4)
  public static let sharing = StoreRoles(rawValue: 1 << 5)
  /// The data survives its process (a fresh process can read it back): not a protocol, the backend says so.
  public static let persistence = StoreRoles(rawValue: 1 << 6)
  public static let compacting = StoreRoles(rawValue: 1 << 7)
  public static let migrating = StoreRoles(rawValue: 1 << 8)
  public static let tagging = StoreRoles(rawValue: 1 << 9)
  public static let parents = StoreRoles(rawValue: 1 << 10)
  public static let sql = StoreRoles(rawValue: 1 << 11)
  public static let processes = StoreRoles(rawValue: 1 << 12)

  /// Every protocol role: its flag, its name and the protocol that declares it. The one list of roles: names,
  /// ``of(_:)`` and `list` derive from it, and a test checks that every role protocol above is in it.
  static let protocols: [(role: StoreRoles, name: String, plays: @Sendable (any Store.Type) -> Bool)] = [
    (.articles, "articles", { $0 is any ArticleStore.Type }),
    (.timeline, "timeline", { $0 is any TimelineStore.Type }),
    (.queries, "queries", { $0 is any QueryStore.Type }),
    (.settings, "settings", { $0 is any SettingsStore.Type }),
    (.cache, "cache", { $0 is any CacheStore.Type }),
    (.sharing, "sharing", { $0 is any SharableStore.Type }),
    (.compacting, "compacting", { $0 is any CompactingStore.Type }),
    (.migrating, "migrating", { $0 is any MigratingStore.Type }),
    (.tagging, "tagging", { $0 is any TaggingStore.Type }),
    (.parents, "parents", { $0 is any ParentStore.Type }),
    (.sql, "sql", { $0 is any SQLStore.Type }),
    (.processes, "processes", { $0 is any ProcessSharingStore.Type }),
  ]

  static var names: [(StoreRoles, String)] { protocols.map { ($0.role, $0.name) } + [(.persistence, "persistence")] }

  /// `articles, timeline`.
  public var description: String {
    Self.names.filter { contains($0.0) }.map(\.1).joined(separator: ", ")
  }

  /// The protocol roles `type` conforms to.
  public static func of(_ type: any Store.Type) -> StoreRoles {
    StoreRoles(protocols.filter { $0.plays(type) }.map(\.role))
  }
}
