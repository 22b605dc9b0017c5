import Foundation

/// A store shared between two threads (see ``Store/shareWithSecondThread()``).
public struct SharedStore {
    /// The view for the thread that shared the store.
    public let first: any Store
    /// The view for the other thread.
    public let second: any Store
    /// How the two threads share it, for the report (e.g. `second connection (WAL readers)`).
    public let concurrency: String
    /// Releases what sharing opened (e.g. the second connection); the store itself stays open.
    public let release: () throws -> Void

    public init(first: any Store, second: any Store, concurrency: String, release: @escaping () throws -> Void = {}) {
        self.first = first
        self.second = second
        self.concurrency = concurrency
        self.release = release
    }

    /// Two views of `store` that take one recursive lock around every call (a unit of work holds it throughout):
    /// the serialization an app adds to a strategy with no concurrency of its own.
    public static func locked(_ store: any Store) -> SharedStore {
        let lock = NSRecursiveLock()
        return SharedStore(first: LockedStore(store, lock: lock), second: LockedStore(store, lock: lock),
                           concurrency: "one lock around the store (no concurrency of its own)")
    }
}

/// A view of a store whose every call holds a lock shared with other views. Closing a view does nothing: the
/// store's owner closes the store.
final class LockedStore: Store {
    private let base: any Store
    private let lock: NSRecursiveLock

    init(_ base: any Store, lock: NSRecursiveLock) {
        self.base = base
        self.lock = lock
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    var effectiveSettings: String { base.effectiveSettings }
    func unitOfWork(_ body: () throws -> Void) throws { try locked { try base.unitOfWork(body) } }
    func insert(_ article: Article) throws { try locked { try base.insert(article) } }
    func markRead(uids: [String]) throws { try locked { try base.markRead(uids: uids) } }
    func loadTimeline(limit: Int) throws -> TimelineScreen { try locked { try base.loadTimeline(limit: limit) } }
    func article(uid: String) throws -> Article? { try locked { try base.article(uid: uid) } }
    func allUIDs() throws -> [String] { try locked { try base.allUIDs() } }
    func delete(uids: [String]) throws { try locked { try base.delete(uids: uids) } }
    func load(articles: [Article]) throws { try locked { try base.load(articles: articles) } }
    func load(users: [User], messages: [Message]) throws { try locked { try base.load(users: users, messages: messages) } }
    func allArticles() throws -> [Article] { try locked { try base.allArticles() } }
    func forEachArticle(_ body: (Article) throws -> Void) throws { try locked { try base.forEachArticle(body) } }
    func checkIntegrity() throws { try locked { try base.checkIntegrity() } }
    func unreadCounts() throws -> [Int64: Int] { try locked { try base.unreadCounts() } }
    func newestUnread(feedID: Int64, limit: Int) throws -> [Article] {
        try locked { try base.newestUnread(feedID: feedID, limit: limit) }
    }
    func queryPlans() throws -> [String] { try locked { try base.queryPlans() } }
    func search(keyword: String) throws -> [String] { try locked { try base.search(keyword: keyword) } }
    func shareWithSecondThread() throws -> SharedStore { throw StoreError.unsupported("sharing a shared view") }
    func setSetting(_ value: SettingValue, forKey key: String) throws { try locked { try base.setSetting(value, forKey: key) } }
    func setting(forKey key: String, kind: SettingKind) throws -> SettingValue? {
        try locked { try base.setting(forKey: key, kind: kind) }
    }
    func cachePut(_ entry: CacheEntry) throws { try locked { try base.cachePut(entry) } }
    func cacheEntry(forKey key: String) throws -> CacheEntry? { try locked { try base.cacheEntry(forKey: key) } }
    func cacheRemove(forKey key: String) throws { try locked { try base.cacheRemove(forKey: key) } }
    func cacheEntries() throws -> [CacheEntry] { try locked { try base.cacheEntries() } }
    func close() throws {}
}
