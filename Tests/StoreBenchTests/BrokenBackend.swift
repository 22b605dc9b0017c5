import Foundation
import StoreBenchBackends
import StoreBenchCore

/// A deliberately broken backend for tests: a memory store that silently drops one insert in a thousand, one
/// uid of every mark-read and search, one edit, one tag change and one setting in ten and one cache put in a hundred.
/// The runner's verify phase must catch it.
enum BrokenBackend {
  static func descriptor() -> BackendDescriptor {
    let memory = MemoryBackend.descriptor()
    return BackendDescriptor(name: "broken", summary: "drops 1 write in 1,000 (test double)") { location in
      DroppingStore(wrapped: try memory.open(location, as: (any AppStore).self))
    }
  }

  final class DroppingStore: AppStore {
    let wrapped: any AppStore
    var inserts = 0

    init(wrapped: any AppStore) { self.wrapped = wrapped }

    var effectiveSettings: String { "drops=1/1000" }
    func unitOfWork(_ body: () throws -> Void) throws { try wrapped.unitOfWork(body) }
    func insert(_ article: Article) throws {
      inserts += 1
      if inserts % 1000 == 500 { return }
      try wrapped.insert(article)
    }
    func markRead(uids: [String]) throws { try wrapped.markRead(uids: Array(uids.dropLast())) }
    func loadTimeline(limit: Int) throws -> TimelineScreen { try wrapped.loadTimeline(limit: limit) }
    func load(articles: [Article]) throws { try wrapped.load(articles: articles) }
    func load(users: [User], messages: [Message]) throws { try wrapped.load(users: users, messages: messages) }
    func allArticles() throws -> [Article] { try wrapped.allArticles() }
    func article(uid: String) throws -> Article? { try wrapped.article(uid: uid) }
    func allUIDs() throws -> [String] { try wrapped.allUIDs() }
    func delete(uids: [String]) throws { try wrapped.delete(uids: uids) }
    var edits = 0
    func edit(_ edit: ArticleEdit) throws {
      edits += 1
      if edits % 10 == 5 { return }
      try wrapped.edit(edit)
    }
    func search(keyword: String) throws -> [String] { Array(try wrapped.search(keyword: keyword).dropLast()) }
    var settings = 0
    func setSetting(_ value: SettingValue, forKey key: String) throws {
      settings += 1
      if settings % 10 == 5 { return }
      try wrapped.setSetting(value, forKey: key)
    }
    func setting(forKey key: String, kind: SettingKind) throws -> SettingValue? {
      try wrapped.setting(forKey: key, kind: kind)
    }
    var puts = 0
    func cachePut(_ entry: CacheEntry) throws {
      puts += 1
      if puts % 100 == 50 { return }
      try wrapped.cachePut(entry)
    }
    func cacheEntry(forKey key: String) throws -> CacheEntry? { try wrapped.cacheEntry(forKey: key) }
    func cacheRemove(forKey key: String) throws { try wrapped.cacheRemove(forKey: key) }
    func cacheEntries() throws -> [CacheEntry] { try wrapped.cacheEntries() }
    func close() throws { try wrapped.close() }
  }

  /// Tags through the memory store, one change in ten dropped.
  final class DroppingTagStore: TaggingStore {
    let store: DroppingStore
    let tags: any TaggingStore
    var changes = 0
    init(_ store: DroppingStore) throws {
      self.store = store
      tags = try store.wrapped.playing((any TaggingStore).self)
    }
    var effectiveSettings: String { store.effectiveSettings }
    func unitOfWork(_ body: () throws -> Void) throws { try store.unitOfWork(body) }
    func insert(_ article: Article) throws { try store.insert(article) }
    func markRead(uids: [String]) throws { try store.markRead(uids: uids) }
    func article(uid: String) throws -> Article? { try store.article(uid: uid) }
    func allUIDs() throws -> [String] { try store.allUIDs() }
    func delete(uids: [String]) throws { try store.delete(uids: uids) }
    func edit(_ edit: ArticleEdit) throws { try store.edit(edit) }
    func load(articles: [Article]) throws { try store.load(articles: articles) }
    func allArticles() throws -> [Article] { try store.allArticles() }
    func close() throws { try store.close() }
    func load(articles: [Article], tags notes: [NoteTags]) throws { try tags.load(articles: articles, tags: notes) }
    func tagsWithUnarchivedNotes() throws -> [Int64] { try tags.tagsWithUnarchivedNotes() }
    func newestNotes(tag: Int64, limit: Int) throws -> [Article] { try tags.newestNotes(tag: tag, limit: limit) }
    func apply(_ change: TagChange) throws {
      changes += 1
      if changes % 10 == 5 { return }
      try tags.apply(change)
    }
    func allNoteTags() throws -> [NoteTags] { try tags.allNoteTags() }
    func tagQueryPlans() throws -> [String] { try tags.tagQueryPlans() }
  }

  /// A store whose tag changes are dropped one in ten (`tag-edit` must fail verification).
  static func droppingTags() -> BackendDescriptor {
    let memory = MemoryBackend.descriptor()
    return BackendDescriptor(name: "broken-tags", summary: "drops 1 tag change in 10 (test double)") { location in
      try DroppingTagStore(DroppingStore(wrapped: try memory.open(location, as: (any AppStore).self)))
    }
  }
}
