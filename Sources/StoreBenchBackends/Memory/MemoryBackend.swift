import Foundation
import StoreBenchContract

/// `memory`: the floor — plain Swift collections, nothing on disk. It shows what the work itself costs.
///
/// "Reopening" a memory store finds the same collections again: they live in a ``MemoryVolumes`` owned by
/// this descriptor (one per registry, no global state), keyed by the store's directory. Entries whose
/// directory has been removed are dropped at the next open, so memory does not grow across repetitions.
public enum MemoryBackend {
    public static func descriptor() -> BackendDescriptor {
        let volumes = MemoryVolumes()
        return BackendDescriptor(
            name: "memory",
            summary: "in-process floor: Swift dictionaries and a sorted array, nothing on disk",
            persistent: false,
            open: { location in MemoryStore(contents: volumes.contents(for: location.directory)) }
        )
    }
}

/// The collections of one memory store.
final class MemoryContents {
    var articles: [String: Article] = [:]
    var users: [Int64: User] = [:]
    /// Newest first, kept sorted.
    var timeline: [Message] = []
    var settings: [String: SettingValue] = [:]
    var cache: [String: CacheEntry] = [:]
}

/// The memory stores of one registry, by directory.
final class MemoryVolumes: @unchecked Sendable {
    // @unchecked: the dictionary is only touched under `lock`.
    private let lock = NSLock()
    private var volumes: [String: MemoryContents] = [:]

    func contents(for directory: URL) -> MemoryContents {
        lock.lock()
        defer { lock.unlock() }
        volumes = volumes.filter { FileManager.default.fileExists(atPath: $0.key) }
        if let existing = volumes[directory.path] { return existing }
        let created = MemoryContents()
        volumes[directory.path] = created
        return created
    }
}

final class MemoryStore: AppStore {
    private let contents: MemoryContents
    let effectiveSettings = "durability=none"

    init(contents: MemoryContents) { self.contents = contents }

    func unitOfWork(_ body: () throws -> Void) throws { try body() }

    func insert(_ article: Article) throws {
        guard contents.articles.updateValue(article, forKey: article.uid) == nil else {
            throw StoreError.inconsistent("duplicate uid \(article.uid)")
        }
    }

    func markRead(uids: [String]) throws {
        for uid in uids { contents.articles[uid]?.read = true }
    }

    func article(uid: String) throws -> Article? { contents.articles[uid] }

    func allUIDs() throws -> [String] { Array(contents.articles.keys) }

    func delete(uids: [String]) throws {
        for uid in uids { contents.articles.removeValue(forKey: uid) }
    }

    func loadTimeline(limit: Int) throws -> TimelineScreen {
        let messages = Array(contents.timeline.prefix(limit))
        return try TimelineScreen(messages: messages) { contents.users[$0] }
    }

    func load(articles: [Article]) throws {
        for article in articles { try insert(article) }
    }

    func load(users: [User], messages: [Message]) throws {
        for user in users { contents.users[user.id] = user }
        contents.timeline = (contents.timeline + messages).sorted(by: Message.isNewer)
    }

    func allArticles() throws -> [Article] { Array(contents.articles.values) }

    func forEachArticle(_ body: (Article) throws -> Void) throws {
        for article in contents.articles.values { try body(article) }
    }

    func setSetting(_ value: SettingValue, forKey key: String) throws { contents.settings[key] = value }

    func setting(forKey key: String, kind: SettingKind) throws -> SettingValue? {
        guard let value = contents.settings[key] else { return nil }
        guard value.kind == kind else { throw StoreError.inconsistent("setting \(key) is a \(value.kind.rawValue), not a \(kind.rawValue)") }
        return value
    }

    func cachePut(_ entry: CacheEntry) throws { contents.cache[entry.key] = entry }
    func cacheEntry(forKey key: String) throws -> CacheEntry? { contents.cache[key] }
    func cacheRemove(forKey key: String) throws { contents.cache[key] = nil }
    func cacheEntries() throws -> [CacheEntry] { Array(contents.cache.values) }

    func close() throws {}
}
