import Foundation

/// A store shared between two threads (see ``SharableStore/shareWithSecondThread()``): the sync thread writes
/// through ``writer`` while the UI thread reads through ``reader``.
public struct SharedStore {
    /// The view for the thread that shared the store (the sync).
    public let writer: any ArticleWriter
    /// The view for the other thread (the UI).
    public let reader: any TimelineReader
    /// How the two threads share it, for the report (e.g. `second connection (WAL readers)`).
    public let concurrency: String
    /// Releases what sharing opened (e.g. the second connection); the store itself stays open.
    public let release: () throws -> Void

    public init(writer: any ArticleWriter, reader: any TimelineReader, concurrency: String,
                release: @escaping () throws -> Void = {}) {
        self.writer = writer
        self.reader = reader
        self.concurrency = concurrency
        self.release = release
    }

    /// Two views of `store` that take one recursive lock around every call (a unit of work holds it throughout):
    /// the serialization an app adds to a strategy with no concurrency of its own.
    public static func locked(_ store: some ArticleWriter & TimelineReader) -> SharedStore {
        let view = LockedView(store, lock: NSRecursiveLock())
        return SharedStore(writer: view, reader: view, concurrency: "one lock around the store (no concurrency of its own)")
    }
}

/// A view of a store whose every call holds a lock shared with the other thread. It does not own the store.
final class LockedView: ArticleWriter, TimelineReader {
    private let base: any ArticleWriter & TimelineReader
    private let lock: NSRecursiveLock

    init(_ base: any ArticleWriter & TimelineReader, lock: NSRecursiveLock) {
        self.base = base
        self.lock = lock
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    func unitOfWork(_ body: () throws -> Void) throws { try locked { try base.unitOfWork(body) } }
    func insert(_ article: Article) throws { try locked { try base.insert(article) } }
    func markRead(uids: [String]) throws { try locked { try base.markRead(uids: uids) } }
    func loadTimeline(limit: Int) throws -> TimelineScreen { try locked { try base.loadTimeline(limit: limit) } }
}
