import Foundation
import GDBMAPI
import StoreBenchContract

/// `gdbm`: a GDBM hash file through the typed `GDBMAPI` wrapper. Records in ``RecordCodec``'s encoding under
/// prefixed keys (`a:<uid>`, `u:<id>`, `m:<id>`). GDBM has no key order, so the timeline keeps an
/// auxiliary index record, `i:timeline`: the big-endian ids of all messages, newest first, rewritten when
/// messages are added. The first screen reads the index, then 200 messages and their authors by key.
public enum GDBMBackend {
  /// The store's file name inside its directory (for `storebench overhead`'s C baseline).
  public static var fileName: String { GDBMStore.fileName }

  public static var descriptor: BackendDescriptor {
    BackendDescriptor(
      name: "gdbm",
      summary: "GDBM hash file: binary records by key, an index record for the timeline order",
      settings: Settings.self,
      smoke: [Settings().with { $0.sync = .none }, Settings().with { $0.sync = .each }],
      advise: [.init(Settings().with { $0.sync = .close })],
      readBack: .afterClose("GDBM locks the file: no second handle can open while the writer has it"),
      storeFiles: [GDBMStore.fileName],
      promise: { _ in .mayLose },
      powerLossNote: { _ in
        "writes through a shared mapping: they reach the layer when the kernel writes the pages back "
          + "(msync at gdbm_sync, or writeback), so prefix images follow writeback order, not program order"
      },
      libraryVersions: { ["gdbm": GDBMFile.version] },
      open: { location, settings in try GDBMStore(location: location, settings: settings) }
    )
  }

  /// The settings of the `gdbm` backend.
  public struct Settings: BackendSettings {
    public enum Synchronize: String, SettingChoice { case none, close, each }
    public var sync = Synchronize.close
    public var migration = MigrationStrategy.eager
    public init() {}
    public static var axes: [SettingAxis<Settings>] {
      [
        .choice(
          "sync", \.sync, key: true,
          summary:
            "none: never call gdbm_sync (GDBM still syncs in gdbm_close); close: gdbm_sync at the end of each app operation and at close; each: gdbm_sync after every record (the GDBM_SYNC open flag does not do this in 1.23)"
        ),
        .choice("migrate", \.migration, summary: MigrationStrategy.summary),
      ]
    }
  }
}

final class GDBMStore: AppStore {
  static let fileName = "store.gdbm"
  static let timelineIndexKey = Array("i:timeline".utf8)

  let file: GDBMFile
  /// Where a record is encoded before GDBM copies it (the store has one writer).
  private let recordBuffer = ScratchBuffer()
  /// Where an insert or a point lookup builds its article's key (``articleKeyPrefix`` + the uid). One thread at a
  /// time uses the store: a second thread goes through `SharedStore.locked`.
  private let keyBuffer = ScratchBuffer(capacity: 256)
  private let syncEach: Bool
  private let syncAtEnd: Bool
  private let lazyMigration: Bool
  let effectiveSettings: String

  init(location: StoreLocation, settings: GDBMBackend.Settings) throws {
    file = try GDBMFile(path: location.path(Self.fileName))
    lazyMigration = settings.migration == .lazy
    syncEach = settings.sync == .each
    syncAtEnd = settings.sync != .none
    effectiveSettings = settings.text
  }

  /// The start of every article's key; the uid's bytes follow.
  static let articleKeyPrefix: StaticString = "a:"
  static let articlePrefix = articleKeyPrefix.withUTF8Buffer { Array($0) }
  static func articleKey(_ uid: String) -> [UInt8] { articlePrefix + Array(uid.utf8) }
  static func userKey(_ id: Int64) -> [UInt8] { Array("u:".utf8) + RecordCodec.idKey(id) }
  static func messageKey(_ id: Int64) -> [UInt8] { Array("m:".utf8) + RecordCodec.idKey(id) }
  static func settingKey(_ key: String) -> [UInt8] { Array("s:".utf8) + Array(key.utf8) }
  static let cachePrefix = Array("c:".utf8)
  static func cacheKey(_ key: String) -> [UInt8] { cachePrefix + Array(key.utf8) }

  func store(_ value: [UInt8], for key: [UInt8]) throws {
    try key.withUnsafeBytes { k in try value.withUnsafeBytes { v in try store(v, for: k) } }
  }

  /// Stores one record from borrowed bytes, synced when the variant syncs each write.
  func store(_ value: UnsafeRawBufferPointer, for key: UnsafeRawBufferPointer) throws {
    try file.store(value, for: key)
    if syncEach { try file.sync() }
  }

  func unitOfWork(_ body: () throws -> Void) throws {
    try body()
    if syncAtEnd && !syncEach { try file.sync() }
  }

  func insert(_ article: Article) throws {
    try recordBuffer.withEncoded(article) { value in
      try store(value, for: keyBuffer.key(Self.articleKeyPrefix, article.uid))
    }
  }

  func markRead(uids: [String]) throws {
    for uid in uids {
      let key = Self.articleKey(uid)
      guard let bytes = try file.fetch(key) else { throw StoreError.inconsistent("no article \(uid)") }
      var article = try RecordCodec.decodeArticle(bytes)
      article.read = true
      try store(RecordCodec.encode(article), for: key)
    }
  }

  func edit(_ edit: ArticleEdit) throws {
    let key = Self.articleKey(edit.uid)
    guard let bytes = try file.fetch(key) else { throw StoreError.inconsistent("no article \(edit.uid)") }
    try store(RecordCodec.encode(edit.applied(to: try RecordCodec.decodeArticle(bytes))), for: key)
  }

  func article(uid: String) throws -> Article? {
    try file.withValue(for: keyBuffer.key(Self.articleKeyPrefix, uid)) {
      try RecordCodec.decodeArticle($0, key: uid)
    }
  }

  func allUIDs() throws -> [String] {
    try file.keys().filter { $0.starts(with: Self.articlePrefix) }.map {
      String(decoding: $0.dropFirst(Self.articlePrefix.count), as: UTF8.self)
    }
  }

  func delete(uids: [String]) throws {
    for uid in uids {
      guard try file.delete(Self.articleKey(uid)) else { throw StoreError.inconsistent("no article \(uid)") }
      if syncEach { try file.sync() }
    }
  }

  /// The first `limit` messages of the timeline index record, newest first.
  private func indexedMessages(limit: Int = .max) throws -> [Message] {
    try RecordCodec.decodeIDs(try file.fetch(Self.timelineIndexKey) ?? [], limit: limit).map { id in
      guard let bytes = try file.fetch(Self.messageKey(id)) else {
        throw StoreError.inconsistent("timeline index names a missing message \(id)")
      }
      return try RecordCodec.decodeMessage(bytes)
    }
  }

  func loadTimeline(limit: Int) throws -> TimelineScreen {
    try TimelineScreen(messages: try indexedMessages(limit: limit)) { id in
      try file.fetch(Self.userKey(id)).map(RecordCodec.decodeUser)
    }
  }

  func load(articles: [Article]) throws {
    for article in articles { try file.store(RecordCodec.encode(article), for: Self.articleKey(article.uid)) }
    try file.sync()
  }

  func load(users: [User], messages: [Message]) throws {
    for user in users { try file.store(RecordCodec.encode(user), for: Self.userKey(user.id)) }
    let existing = try indexedMessages()
    for message in messages { try file.store(RecordCodec.encode(message), for: Self.messageKey(message.id)) }
    let ordered = (existing + messages).sorted(by: Message.isNewer)
    try file.store(RecordCodec.encodeIDs(ordered.map(\.id)), for: Self.timelineIndexKey)
    try file.sync()
  }

  func allArticles() throws -> [Article] { try records(under: Self.articlePrefix, RecordCodec.decodeArticle) }

  /// A full key walk (GDBM keeps no order), decoding every record whose key starts with `prefix`.
  private func records<T>(under prefix: [UInt8], _ decode: ([UInt8]) throws -> T) throws -> [T] {
    var found: [T] = []
    try forEachRecord(under: prefix) { _, bytes in found.append(try decode(bytes)) }
    return found
  }

  /// Calls `body` with every key under `prefix` and its value (GDBM has no key order: a walk of every key).
  private func forEachRecord(under prefix: [UInt8], _ body: ([UInt8], [UInt8]) throws -> Void) throws {
    for key in try file.keys() where key.starts(with: prefix) {
      guard let bytes = try file.fetch(key) else { throw StoreError.inconsistent("key vanished while reading") }
      try body(key, bytes)
    }
  }

  func setSetting(_ value: SettingValue, forKey key: String) throws {
    try store(Array(value.encoded.utf8), for: Self.settingKey(key))
  }

  func setting(forKey key: String, kind: SettingKind) throws -> SettingValue? {
    try file.fetch(Self.settingKey(key)).map { try RecordCodec.decodeSetting($0, kind: kind) }
  }

  func cachePut(_ entry: CacheEntry) throws { try store(RecordCodec.encode(entry), for: Self.cacheKey(entry.key)) }

  func cacheEntry(forKey key: String) throws -> CacheEntry? {
    try file.fetch(Self.cacheKey(key)).map(RecordCodec.decodeCacheEntry)
  }

  func cacheRemove(forKey key: String) throws {
    guard try file.delete(Self.cacheKey(key)) else { throw StoreError.inconsistent("no cache entry \(key)") }
    if syncEach { try file.sync() }
  }

  func cacheEntries() throws -> [CacheEntry] { try records(under: Self.cachePrefix, RecordCodec.decodeCacheEntry) }

  func close() throws {
    if syncAtEnd { try file.sync() }
    try file.close()
  }
}

/// The `aging` part of ``GDBMStore``: GDBM's bucket count, and `gdbm_reorganize`.
extension GDBMStore: CompactingStore {
  /// GDBM does not report its free (avail) lists; the hash directory's buckets are what it says.
  func freeSpace() throws -> FreeSpace {
    FreeSpace(freeBytes: nil, detail: "buckets=\(try file.bucketCount())")
  }

  /// `gdbm_reorganize` rewrites the records into a fresh file renamed over the old one; synced as the variant syncs.
  func compact() throws -> Compaction {
    try file.reorganize()
    if syncAtEnd { try file.sync() }
    return Compaction(method: syncAtEnd ? "gdbm_reorganize; gdbm_sync" : "gdbm_reorganize")
  }
}

/// The `migrate` part of ``GDBMStore``: every value rewritten as version 2 (eager), or a version record written and
/// each value upgraded when it is first read (lazy).
extension GDBMStore: MigratingStore {
  static let modelVersionKey = Array("v:model".utf8)

  func migrateToVersion2() throws -> String {
    if !lazyMigration { _ = try upgradeArticles { _ in } }
    try file.store(Array("2".utf8), for: Self.modelVersionKey)
    if syncAtEnd { try file.sync() }
    return lazyMigration
      ? "lazy: version record written; values upgraded when read"
      : "eager: every value decoded and stored again as version 2"
  }

  func allArticlesV2() throws -> [ArticleV2] {
    var articles: [ArticleV2] = []
    if try upgradeArticles({ articles.append($0) }) > 0 && syncAtEnd { try file.sync() }
    return articles
  }

  /// Calls `body` with every article as version 2, storing each version-1 value again as version 2 on the way: the
  /// whole eager migration, and what a lazy store does on its first read. Returns how many it upgraded.
  private func upgradeArticles(_ body: (ArticleV2) -> Void) throws -> Int {
    var upgraded = 0
    try forEachRecord(under: Self.articlePrefix) { key, bytes in
      let article = try RecordCodec.decodeArticleV2(bytes)
      if !RecordCodec.isVersion2(bytes) {
        try file.store(RecordCodec.encode(article), for: key)
        upgraded += 1
      }
      body(article)
    }
    return upgraded
  }
}
