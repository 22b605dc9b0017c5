import Foundation
import StoreBenchContract
import Synchronization

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

/// The collections of one memory store, behind a lock: stores may be opened on any thread (the descriptor's
/// `open` is `@Sendable`), and every store of one directory sees the same collections.
final class MemoryContents: Sendable {
  struct Collections {
    var articles: [String: Article] = [:]
    /// The articles after `migrate` (model version 2).
    var articlesV2: [String: ArticleV2] = [:]
    var users: [Int64: User] = [:]
    /// Newest first, kept sorted.
    var timeline: [Message] = []
    var settings: [String: SettingValue] = [:]
    var cache: [String: CacheEntry] = [:]
    var noteTags = NoteTagTable()
    var parents = ParentTable()
  }

  private let collections = Mutex(Collections())

  /// Runs `body` on the collections, holding the lock (`body` must not call back into a store).
  @inline(__always)
  func access<T, E: Error>(_ body: (inout Collections) throws(E) -> T) throws(E) -> T {
    try collections.withLock { (collections: inout sending Collections) throws(E) -> sending T in
      try body(&collections)
    }
  }
}

/// The memory stores of one registry, by directory.
final class MemoryVolumes: Sendable {
  private let volumes = Mutex<[String: MemoryContents]>([:])

  func contents(for directory: URL) -> MemoryContents {
    volumes.withLock { volumes in
      volumes = volumes.filter { FileManager.default.fileExists(atPath: $0.key) }
      if let existing = volumes[directory.path] { return existing }
      let created = MemoryContents()
      volumes[directory.path] = created
      return created
    }
  }
}

final class MemoryStore: AppStore {
  private let contents: MemoryContents
  let effectiveSettings = "durability=none"

  init(contents: MemoryContents) { self.contents = contents }

  func unitOfWork(_ body: () throws -> Void) throws { try body() }

  func insert(_ article: Article) throws {
    let duplicate = contents.access { $0.articles.updateValue(article, forKey: article.uid) != nil }
    guard !duplicate else { throw StoreError.inconsistent("duplicate uid \(article.uid)") }
  }

  func markRead(uids: [String]) throws {
    contents.access { collections in
      for uid in uids { collections.articles[uid]?.read = true }
    }
  }

  func edit(_ edit: ArticleEdit) throws {
    try contents.access { collections in
      guard let article = collections.articles[edit.uid] else {
        throw StoreError.inconsistent("no article \(edit.uid)")
      }
      collections.articles[edit.uid] = edit.applied(to: article)
    }
  }

  func article(uid: String) throws -> Article? { contents.access { $0.articles[uid] } }

  func allUIDs() throws -> [String] { contents.access { Array($0.articles.keys) } }

  func delete(uids: [String]) throws {
    contents.access { collections in
      for uid in uids { collections.articles.removeValue(forKey: uid) }
    }
  }

  func loadTimeline(limit: Int) throws -> TimelineScreen {
    try contents.access { collections in
      try TimelineScreen(messages: Array(collections.timeline.prefix(limit))) { collections.users[$0] }
    }
  }

  func load(articles: [Article]) throws {
    for article in articles { try insert(article) }
  }

  func load(users: [User], messages: [Message]) throws {
    contents.access { collections in
      for user in users { collections.users[user.id] = user }
      collections.timeline = (collections.timeline + messages).sorted(by: Message.isNewer)
    }
  }

  func allArticles() throws -> [Article] { contents.access { Array($0.articles.values) } }

  func forEachArticle(_ body: (Article) throws -> Void) throws {
    for article in contents.access({ $0.articles.values }) { try body(article) }
  }

  func setSetting(_ value: SettingValue, forKey key: String) throws { contents.access { $0.settings[key] = value } }

  func setting(forKey key: String, kind: SettingKind) throws -> SettingValue? {
    guard let value = contents.access({ $0.settings[key] }) else { return nil }
    guard value.kind == kind else {
      throw StoreError.inconsistent("setting \(key) is a \(value.kind.rawValue), not a \(kind.rawValue)")
    }
    return value
  }

  func cachePut(_ entry: CacheEntry) throws { contents.access { $0.cache[entry.key] = entry } }
  func cacheEntry(forKey key: String) throws -> CacheEntry? { contents.access { $0.cache[key] } }
  func cacheRemove(forKey key: String) throws { contents.access { $0.cache[key] = nil } }
  func cacheEntries() throws -> [CacheEntry] { contents.access { Array($0.cache.values) } }

  func close() throws {}
}

/// `migrate` in memory: every article converted in place.
extension MemoryStore: MigratingStore {
  func migrateToVersion2() throws -> String {
    contents.access { collections in
      collections.articlesV2 = collections.articles.mapValues(ArticleV2.init(upgrading:))
      collections.articles = [:]
    }
    return "every article converted in the dictionary"
  }

  func allArticlesV2() throws -> [ArticleV2] { contents.access { Array($0.articlesV2.values) } }
}

/// `tags` in memory: the table of every note's tags, scanned for both queries.
extension MemoryStore: TaggingStore {
  func load(articles: [Article], tags: [NoteTags]) throws {
    try load(articles: articles)
    contents.access { $0.noteTags = NoteTagTable(tags) }
  }

  func tagsWithUnarchivedNotes() throws -> [Int64] { contents.access { $0.noteTags.tagsWithUnarchivedNotes() } }

  func newestNotes(tag: Int64, limit: Int) throws -> [Article] {
    try contents.access { collections in
      var newest = TopArticles(limit: limit)
      for uid in collections.noteTags.uids(withTag: tag) {
        guard let article = collections.articles[uid] else {
          throw StoreError.inconsistent("tag \(tag) names a missing note \(uid)")
        }
        newest.offer(article)
      }
      return newest.sorted
    }
  }

  func apply(_ change: TagChange) throws { try contents.access { try $0.noteTags.apply(change) } }

  func allNoteTags() throws -> [NoteTags] { contents.access { $0.noteTags.canonical } }

  func tagQueryPlans() throws -> [String] { ["scan: every note's tags in one dictionary, filtered in memory"] }
}

/// The `parents` part of ``MemoryStore``: a ``ParentTable`` (each parent's records in a newest-first array).
extension MemoryStore: ParentStore {
  func load(parents: [Parent], authors: [User], entries: [Entry]) throws {
    let table = ParentTable(parents: parents, authors: authors, entries: entries)
    contents.access { $0.parents = table }
  }

  func openParent(_ parent: Int64, limit: Int) throws -> ParentScreen {
    try contents.access { try $0.parents.screen(parent: parent, limit: limit) }
  }

  func parentList(limit: Int) throws -> [ParentListing] { contents.access { $0.parents.list(limit: limit) } }

  func save(_ entry: Entry) throws { try contents.access { try $0.parents.save(entry) } }

  func markParentRead(_ parent: Int64) throws { _ = contents.access { $0.parents.markRead(parent: parent) } }

  func allEntries() throws -> [Entry] { contents.access { $0.parents.allEntries } }

  func parentPlans() throws -> [String] { ["a newest-first array per parent, in memory"] }
}
