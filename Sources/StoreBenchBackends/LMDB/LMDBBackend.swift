import Foundation
import LMDBAPI
import StoreBenchContract

/// `lmdb`: Lightning Memory-Mapped Database through the typed `LMDBAPI` wrapper. Records in the compact
/// binary encoding of ``RecordCodec``; messages keyed newest-first so the first screen is a cursor walk.
public enum LMDBBackend {
  public static var descriptor: BackendDescriptor {
    BackendDescriptor(
      name: "lmdb",
      summary: "LMDB key-value store: binary records by uid, a newest-first time index for the timeline",
      settings: Settings.self,
      smoke: [Settings(), Settings().with { ($0.txn, $0.sync) = (.each, .nometasync) }],
      advise: [.init(Settings().with { ($0.txn, $0.sync) = (.single, .full) })],
      readBack: .afterClose("LMDB forbids opening an environment twice in one process"),
      storeFiles: ["data.mdb"],
      promise: { settings in settings.sync == .full ? .durable : .survivesKill },
      powerLossNote: { _ in "pages are written with pwrite (no MDB_WRITEMAP); only lock.mdb is a shared mapping"
      },
      libraryVersions: { ["lmdb": LMDBEnvironment.version] },
      open: { location, settings in try LMDBStore(location: location, settings: settings) }
    )
  }

  /// The settings of the `lmdb` backend.
  public struct Settings: BackendSettings {
    public enum Transactions: String, SettingChoice { case single, each }
    public enum Synchronize: String, SettingChoice {
      case full, nometasync, nosync
      var durability: LMDBEnvironment.Durability {
        switch self {
        case .full: .full
        case .nometasync: .noMetaSync
        case .nosync: .noSync
        }
      }
    }
    public var txn = Transactions.single
    public var sync = Synchronize.full
    /// The memory map size in MiB.
    public var mapSizeMiB = 2048
    public var migration = MigrationStrategy.eager
    public init() {}
    public static var axes: [SettingAxis<Settings>] {
      [
        .choice(
          "txn", \.txn, key: true,
          summary: "single: one write transaction per app operation; each: one per record written"),
        .choice(
          "sync", \.sync, key: true,
          summary: "full: fsync at every commit; nometasync: MDB_NOMETASYNC; nosync: MDB_NOSYNC"),
        .integer(
          "mapsize_mb", \.mapSizeMiB, range: 1...1_048_576,
          summary: "the memory map (maximum database) size in MiB; too small fails with MDB_MAP_FULL"),
        .choice("migrate", \.migration, summary: MigrationStrategy.summary),
      ]
    }
  }
}

final class LMDBStore: AppStore {
  let environment: LMDBEnvironment
  let articles: LMDBDatabase
  let users: LMDBDatabase
  private let timeline: LMDBDatabase
  private let settingsTable: LMDBDatabase
  private let cache: LMDBDatabase
  /// The tag index records (``TagIndex``).
  let tags: LMDBDatabase
  /// The parents, their records and the records' order per parent (`LMDBStore+Parents.swift`).
  let parents: LMDBDatabase
  let entries: LMDBDatabase
  let entriesByParent: LMDBDatabase
  private let transactionPerRecord: Bool
  private let lazyMigration: Bool
  private let screen: LMDBScreenReader
  /// The write transaction of the running unit of work (txn=single).
  private var current: LMDBTransaction?
  /// Where a record is encoded before LMDB copies it into its page (only touched inside a write transaction).
  private let recordBuffer = ScratchBuffer()
  let effectiveSettings: String

  init(location: StoreLocation, settings: LMDBBackend.Settings) throws {
    let requested = settings.sync.durability
    environment = try LMDBEnvironment(
      path: location.directory.path, mapSize: settings.mapSizeMiB << 20,
      maxDatabases: 12, durability: requested)
    do {
      articles = try environment.openDatabase(named: "articles")
      users = try environment.openDatabase(named: "users")
      timeline = try environment.openDatabase(named: "timeline")
      settingsTable = try environment.openDatabase(named: "settings")
      cache = try environment.openDatabase(named: "cache")
      tags = try environment.openDatabase(named: "tags")
      parents = try environment.openDatabase(named: "parents")
      entries = try environment.openDatabase(named: "entries")
      entriesByParent = try environment.openDatabase(named: "entries_by_parent")
      screen = LMDBScreenReader(environment: environment, users: users, timeline: timeline)
      let durability = try environment.durability()
      guard durability == requested else {
        throw StoreError.settingMismatch(
          setting: "sync", requested: settings.sync.rawValue, effective: "\(durability)")
      }
      transactionPerRecord = settings.txn == .each
      lazyMigration = settings.migration == .lazy
      var effective = settings
      effective.mapSizeMiB = try environment.mapSize() >> 20
      effectiveSettings = effective.text
    } catch {
      environment.close()
      throw error
    }
  }

  func shareWithSecondThread() throws -> SharedStore {
    let screen = screen
    return SharedStore(writer: self, concurrency: "one environment: MVCC readers never wait for the single writer") {
      SharedReader(screen)
    }
  }

  /// Runs `body` in the unit of work's transaction, or in a transaction of its own.
  func writing(_ body: (LMDBTransaction) throws -> Void) throws {
    if let current {
      try body(current)
    } else {
      try environment.write(body)
    }
  }

  func unitOfWork(_ body: () throws -> Void) throws {
    if transactionPerRecord {
      try body()
      return
    }
    try environment.write { txn in
      current = txn
      defer { current = nil }
      try body()
    }
  }

  func insert(_ article: Article) throws {
    var uid = article.uid
    try writing { txn in
      // Inside the write transaction, which LMDB gives one thread at a time: the record buffer is ours.
      try recordBuffer.withEncoded(article) { value in
        try uid.withUTF8 { key in
          try txn.put(value, for: UnsafeRawBufferPointer(key), in: articles, noOverwrite: true)
        }
      }
    }
  }

  func markRead(uids: [String]) throws {
    for uid in uids {
      try writing { txn in
        let key = Array(uid.utf8)
        guard let bytes = try txn.get(key, in: articles) else {
          throw StoreError.inconsistent("no article \(uid)")
        }
        var article = try RecordCodec.decodeArticle(bytes)
        article.read = true
        try txn.put(RecordCodec.encode(article), for: key, in: articles)
      }
    }
  }

  func edit(_ edit: ArticleEdit) throws {
    try writing { txn in
      let key = Array(edit.uid.utf8)
      guard let bytes = try txn.get(key, in: articles) else {
        throw StoreError.inconsistent("no article \(edit.uid)")
      }
      try txn.put(
        RecordCodec.encode(edit.applied(to: try RecordCodec.decodeArticle(bytes))), for: key, in: articles)
    }
  }

  func article(uid: String) throws -> Article? {
    var key = uid
    return try key.withUTF8 { bytes in
      try environment.withValue(for: UnsafeRawBufferPointer(bytes), in: articles) {
        try RecordCodec.decodeArticle($0, key: uid)
      }
    }
  }

  func allUIDs() throws -> [String] {
    try environment.read { txn in
      var uids: [String] = []
      try txn.forEach(in: articles) { key, _ in
        uids.append(String(decoding: key, as: UTF8.self))
        return true
      }
      return uids
    }
  }

  func delete(uids: [String]) throws {
    for uid in uids {
      try writing { txn in
        guard try txn.delete(Array(uid.utf8), in: articles) else {
          throw StoreError.inconsistent("no article \(uid)")
        }
      }
    }
  }

  func loadTimeline(limit: Int) throws -> TimelineScreen { try screen.loadTimeline(limit: limit) }

  func load(articles batch: [Article]) throws {
    try environment.write { txn in
      for article in batch {
        try txn.put(RecordCodec.encode(article), for: Array(article.uid.utf8), in: articles)
      }
    }
  }

  func load(users userBatch: [User], messages: [Message]) throws {
    try environment.write { txn in
      for user in userBatch { try txn.put(RecordCodec.encode(user), for: RecordCodec.idKey(user.id), in: users) }
      for message in messages {
        try txn.put(RecordCodec.encode(message), for: RecordCodec.timeKey(message), in: timeline)
      }
    }
  }

  func allArticles() throws -> [Article] { try records(in: articles, RecordCodec.decodeArticle) }

  func forEachArticle(_ body: (Article) throws -> Void) throws {
    try environment.read { txn in
      try txn.forEach(in: articles) { _, value in
        try body(try RecordCodec.decodeArticle(value))
        return true
      }
    }
  }

  /// Every record of `database`, decoded, in key order (one read transaction).
  private func records<T>(in database: LMDBDatabase, _ decode: ([UInt8]) throws -> T) throws -> [T] {
    try environment.read { txn in
      var found: [T] = []
      try txn.forEach(in: database) { _, value in
        found.append(try decode(value))
        return true
      }
      return found
    }
  }

  func setSetting(_ value: SettingValue, forKey key: String) throws {
    try writing { txn in try txn.put(Array(value.encoded.utf8), for: Array(key.utf8), in: settingsTable) }
  }

  func setting(forKey key: String, kind: SettingKind) throws -> SettingValue? {
    try environment.read { txn in
      try txn.get(Array(key.utf8), in: settingsTable).map { try RecordCodec.decodeSetting($0, kind: kind) }
    }
  }

  func cachePut(_ entry: CacheEntry) throws {
    try writing { txn in try txn.put(RecordCodec.encode(entry), for: Array(entry.key.utf8), in: cache) }
  }

  func cacheEntry(forKey key: String) throws -> CacheEntry? {
    try environment.read { txn in try txn.get(Array(key.utf8), in: cache).map(RecordCodec.decodeCacheEntry) }
  }

  func cacheRemove(forKey key: String) throws {
    try writing { txn in
      guard try txn.delete(Array(key.utf8), in: cache) else {
        throw StoreError.inconsistent("no cache entry \(key)")
      }
    }
  }

  func cacheEntries() throws -> [CacheEntry] { try records(in: cache, RecordCodec.decodeCacheEntry) }

  func close() throws {
    environment.close()
  }
}

/// The first screen as a cursor walk in a read transaction of its own: usable from any thread (LMDB environments
/// are thread-safe and readers never wait for the writer). The UI thread's view in `sync-while-reading`.
struct LMDBScreenReader: TimelineReader, Sendable {
  let environment: LMDBEnvironment
  let users: LMDBDatabase
  let timeline: LMDBDatabase

  func loadTimeline(limit: Int) throws -> TimelineScreen {
    try environment.read { txn in
      var messages: [Message] = []
      messages.reserveCapacity(limit)
      try txn.forEach(in: timeline) { _, value in
        messages.append(try RecordCodec.decodeMessage(value))
        return messages.count < limit
      }
      return try TimelineScreen(messages: messages) { id in
        try txn.get(RecordCodec.idKey(id), in: users).map(RecordCodec.decodeUser)
      }
    }
  }
}

/// The `aging` part of ``LMDBStore``: LMDB's free list, and a compacting copy that replaces the file.
extension LMDBStore: CompactingStore {
  /// Pages on the free list (`FREE_DBI`) of the pages the file holds (`mdb_env_info`'s last page).
  func freeSpace() throws -> FreeSpace {
    let (pages, pageSize) = try environment.pageUsage()
    let free = try environment.read { try $0.freePages() }
    return FreeSpace(
      freeBytes: Int64(free * pageSize), detail: "free_pages=\(free) pages=\(pages) page_size=\(pageSize)")
  }

  /// LMDB never shrinks its file: `mdb_env_copy2` with `MDB_CP_COMPACT` writes a copy without the free pages, which
  /// is fsynced and renamed over `data.mdb` (the directory fsynced after), and the stale `lock.mdb` removed. The
  /// open environment still maps the old file: the caller reopens the store.
  func compact() throws -> Compaction {
    let directory = URL(fileURLWithPath: environment.path)
    let copy = directory.appendingPathComponent("compacting")
    try? FileManager.default.removeItem(at: copy)
    try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(at: copy) }
    try environment.copyCompacted(to: copy.path)
    let compacted = copy.appendingPathComponent("data.mdb")
    let data = directory.appendingPathComponent("data.mdb")
    let fd = try SystemError.check("open", path: compacted.path) { open(compacted.path, O_RDONLY | O_CLOEXEC) }
    defer { Glibc.close(fd) }
    try SystemError.check("fsync", path: compacted.path) { fsync(fd) }
    try SystemError.check("rename", path: data.path) { rename(compacted.path, data.path) }
    try FileWriter.syncDirectory(directory)
    environment.close()
    try SystemError.check("unlink", path: directory.appendingPathComponent("lock.mdb").path) {
      unlink(directory.appendingPathComponent("lock.mdb").path)
    }
    return Compaction(
      method: "mdb_env_copy2(MDB_CP_COMPACT); fsync; rename over data.mdb; reopen", needsReopen: true)
  }
}

/// The `migrate` part of ``LMDBStore``: in one write transaction, every value rewritten as version 2 (eager), or
/// only the model version recorded and each value upgraded when first read (lazy).
extension LMDBStore: MigratingStore {
  /// The model version's key, in the settings database (a setting key never starts with a control character).
  static let modelVersionKey = Array("\u{1}model.version".utf8)

  func migrateToVersion2() throws -> String {
    try environment.write { txn in
      if !lazyMigration { try upgradeArticles(in: txn) { _ in } }
      try txn.put(Array("2".utf8), for: Self.modelVersionKey, in: settingsTable)
    }
    return lazyMigration
      ? "lazy: model version recorded (one commit); values upgraded when read"
      : "eager: every value rewritten as version 2 in one write transaction"
  }

  func allArticlesV2() throws -> [ArticleV2] {
    try environment.write { txn in
      var found: [ArticleV2] = []
      try upgradeArticles(in: txn) { found.append($0) }
      return found
    }
  }

  /// Calls `body` with every article as version 2 and puts each version-1 value back as version 2 (after the cursor
  /// walk): the whole eager migration, and what a lazy store does on its first read.
  private func upgradeArticles(in txn: LMDBTransaction, _ body: (ArticleV2) -> Void) throws {
    var stale: [([UInt8], ArticleV2)] = []
    try txn.forEach(in: articles) { key, value in
      let article = try RecordCodec.decodeArticleV2(value)
      if !RecordCodec.isVersion2(value) { stale.append((key, article)) }
      body(article)
      return true
    }
    for (key, article) in stale { try txn.put(RecordCodec.encode(article), for: key, in: articles) }
  }
}
