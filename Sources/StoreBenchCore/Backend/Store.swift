/// An open store: one storage strategy holding the benchmark's data in one directory.
///
/// This is the whole backend contract. It is phrased in the app's terms so that each backend does each job
/// in its own natural idiom (one SQL `UPDATE`, fetch-modify-save of records, a whole-file rewrite, …) — the
/// point of storebench is to compare those idioms, so do not reduce a job to key-value calls.
///
/// Rules every conforming type follows (the contract suite in the tests checks them):
/// - **Files**: create files only inside the directory the store was opened in.
/// - **Durability**: after ``unitOfWork(_:)`` returns and ``close()`` is called, the data is on disk as the
///   backend's variant promises (a store reopened from the same directory sees every committed change).
/// - **Units of work**: ``unitOfWork(_:)`` brackets one app operation. The backend applies its policy there
///   (one transaction, flush at the end, nothing) and must commit on return. On throw, a transactional
///   backend rolls back; a backend without transactions keeps what it wrote (as its users' apps would).
///   Writes made outside a unit of work (the untimed `load` calls) are committed before the call returns.
/// - **Order**: ``loadTimeline(limit:)`` returns messages newest first (`created` descending, then `id`
///   descending) and each of their authors exactly once.
/// - **Fidelity**: strings round-trip byte for byte; dates to the millisecond.
/// - **Unsupported work**: a store that cannot do an operation meaningfully throws
///   ``StoreError/unsupported(_:)``; the runner reports the row as `unsupported`. Never skip work silently.
/// - **Threads**: a store is used from one thread at a time and need not be `Sendable`.
/// - **Errors**: throw the library's own error (with its code and message and the file); the runner adds the
///   backend, workload and phase.
public protocol Store: AnyObject {
    /// The settings in force, read back from the library where it can say (e.g. `journal=wal sync=normal`).
    /// Space-separated `key=value` pairs; recorded in every report row.
    var effectiveSettings: String { get }

    /// Runs `body` as one app operation under the backend's transaction / flush policy.
    func unitOfWork(_ body: () throws -> Void) throws

    /// Stores one new article (called once per article, inside a unit of work).
    func insert(_ article: Article) throws

    /// Sets `read = true` on the articles with these uids (all exist) and on no others.
    func markRead(uids: [String]) throws

    /// Loads the first screen: the newest `limit` messages and their authors, as model values.
    func loadTimeline(limit: Int) throws -> TimelineScreen

    /// The article with this uid as a model value, or nil when there is none (one call per lookup).
    func article(uid: String) throws -> Article?

    /// Every stored uid, in any order (the "keep the ids in memory" trick: the caller makes a `Set`).
    func allUIDs() throws -> [String]

    /// Deletes the articles with these uids (all exist) and no others.
    func delete(uids: [String]) throws

    /// Untimed preparation: stores these articles as fast as the backend can, committed on return.
    func load(articles: [Article]) throws

    /// Untimed preparation: stores the timeline data as fast as the backend can, committed on return.
    func load(users: [User], messages: [Message]) throws

    /// Untimed verification: every stored article, in any order.
    func allArticles() throws -> [Article]

    /// Checks the store's own integrity after a crash (SQLite: `PRAGMA integrity_check`); throws what it found.
    /// Callers read and decode every article right after it, so a store with no check of its own does nothing
    /// here (the default).
    func checkIntegrity() throws

    // MARK: Queries (`query`, `search`). Defaults in `StoreDefaults.swift` scan ``forEachArticle(_:)``.

    /// Calls `body` with every stored article: the scan a key-value app runs when it has no index. The default
    /// reads ``allArticles()``; a backend overrides it when its users would scan differently (e.g. in memory).
    func forEachArticle(_ body: (Article) throws -> Void) throws

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

    // MARK: Two threads (`sync-while-reading`)

    /// Shares the store between this thread and one other, in the backend's natural idiom: a second connection
    /// (SQLite WAL readers), the same thread-safe database object (GRDB), one environment with a read
    /// transaction per call (LMDB), a second handle on atomically replaced files — or, for a strategy with no
    /// concurrency of its own, one lock around the store, as an app would add (the default). Called once, with no
    /// unit of work running; the store stays open until both views are done.
    func shareWithSecondThread() throws -> SharedStore

    // MARK: Settings (`settings`)

    /// Writes one small setting (called inside a unit of work; one setting per app operation).
    func setSetting(_ value: SettingValue, forKey key: String) throws

    /// The setting under `key`, read as `kind` (nil when there is none).
    func setting(forKey key: String, kind: SettingKind) throws -> SettingValue?

    // MARK: Expiring cache (`cache`): storage only; the policy lives in ``ExpiringCache``.

    /// Stores `entry`, replacing any entry under its key.
    func cachePut(_ entry: CacheEntry) throws

    /// The entry under `key`, expired or not, or nil.
    func cacheEntry(forKey key: String) throws -> CacheEntry?

    /// Removes the entry under `key` (which exists).
    func cacheRemove(forKey key: String) throws

    /// Every cache entry, in any order (read when a cache opens, and for verification).
    func cacheEntries() throws -> [CacheEntry]

    /// Closes the store, releasing every handle. Called exactly once; the store is not used afterwards.
    func close() throws
}

/// Errors a store raises that are not a library's own.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    /// The strategy cannot do this operation meaningfully; the row is reported as `unsupported`.
    case unsupported(String)
    /// The settings in force differ from those requested (e.g. WAL refused).
    case settingMismatch(setting: String, requested: String, effective: String)
    /// The store's content is not what the workload wrote.
    case inconsistent(String)

    public var description: String {
        switch self {
        case .unsupported(let operation): "unsupported: \(operation)"
        case let .settingMismatch(setting, requested, effective):
            "setting \(setting): requested \(requested) but the library reports \(effective)"
        case .inconsistent(let detail): "inconsistent store: \(detail)"
        }
    }
}
