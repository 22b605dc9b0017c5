import Foundation
import StoreBenchContract

#if canImport(Glibc)
  import Glibc
#endif

/// `files`: a file-per-object cache (the Kache idea). Each record is one JSON file (`Codable`), named by the
/// hex of its key under a two-hex-digit fan-out directory (`articles/3f/<hex uid>.json`), replaced
/// atomically (temporary file + rename). The timeline's order lives in a small index file,
/// `timeline.index`: the message ids, newest first, as big-endian Int64.
public enum FilesBackend {
  public static var descriptor: BackendDescriptor {
    BackendDescriptor(
      name: "files",
      summary: "one JSON file per record under fan-out directories, atomic replace, an index file for order",
      settings: Settings.self,
      smoke: [Settings(), Settings().with { $0.fsync = .each }],
      advise: [
        .init(
          Settings().with { $0.fsync = .each }, mostRecords: 20_000,
          beyondMost: "a file per record: loading every record alone outlasts the run")
      ],
      storeFiles: ["articles"],
      promise: { settings in settings.fsync == .each ? .durable : .survivesKill },
      open: { location, settings in try FilesStore(location: location, settings: settings) }
    )
  }

  /// The settings of the `files` backend.
  public struct Settings: BackendSettings {
    /// Whether every written file (and its directory) is fsynced.
    public enum FileSync: String, SettingChoice { case none, each }
    public var fsync = FileSync.none
    public init() {}
    public static var axes: [SettingAxis<Settings>] {
      [
        .choice(
          "fsync", \.fsync, key: true,
          summary: "none: rename without fsync; each: fsync every file and its directory")
      ]
    }
  }
}

final class FilesStore: AppStore {
  private let location: StoreLocation
  private let settings: FilesBackend.Settings
  let root: URL
  let durable: Bool
  private let encoder = JSONEncoder()
  private let decoder = JSONDecoder()
  private var madeDirectories = Set<String>()
  let effectiveSettings: String

  init(location: StoreLocation, settings: FilesBackend.Settings) throws {
    self.location = location
    self.settings = settings
    root = location.directory
    durable = settings.fsync == .each
    encoder.dateEncodingStrategy = .millisecondsSince1970
    decoder.dateDecodingStrategy = .millisecondsSince1970
    effectiveSettings = settings.text + " write=rename"
  }

  /// `<root>/<kind>/<fan>/<hex key>.json`, creating the fan-out directory on first use. Under `fsync=each` a
  /// directory this call created is fsynced into its parent (and a new kind directory into the root), so the new
  /// names survive a power loss along with the files in them.
  private func url(kind: String, key: String) throws -> URL {
    try url(kind: kind, key: Array(key.utf8), extension: "json")
  }

  /// `<root>/<kind>/<fan>/<hex key>.<extension>` for a key of any bytes (the tag index's records).
  func url(kind: String, key: [UInt8], extension fileExtension: String) throws -> URL {
    var hash = FNV1a()
    hash.combine(bytes: key)
    hash.combine(bytes: CollectionOfOne(0xFF))
    let kindDirectory = root.appendingPathComponent(kind)
    let directory = kindDirectory.appendingPathComponent(String(hash.hex.prefix(2)))
    if !madeDirectories.contains(directory.path) {
      let newKind = !FileManager.default.fileExists(atPath: kindDirectory.path)
      let new = newKind || !FileManager.default.fileExists(atPath: directory.path)
      // One level at a time, never "with intermediate directories": the store's own directory must exist (a
      // store whose directory was removed under it fails, instead of making it again where nobody removes it).
      for level in [kindDirectory, directory] {
        guard mkdir(level.path, 0o700) == 0 || errno == EEXIST else {
          throw SystemError("mkdir", path: level.path)
        }
      }
      madeDirectories.insert(directory.path)
      if durable && new {
        try FileWriter.syncDirectory(kindDirectory)
        if newKind { try FileWriter.syncDirectory(root) }
      }
    }
    let name = key.map { String(format: "%02x", $0) }.joined()
    return directory.appendingPathComponent(name + "." + fileExtension)
  }

  private func save<T: Encodable>(_ value: T, kind: String, key: String, durable: Bool) throws {
    try FileWriter.replace(try url(kind: kind, key: key), with: try encoder.encode(value), durable: durable)
  }

  private func fetch<T: Decodable>(_ type: T.Type, kind: String, key: String) throws -> T {
    try decoder.decode(type, from: try FileWriter.read(try url(kind: kind, key: key)))
  }

  /// The record under `key`, or nil when it has no file.
  private func fetchIfPresent<T: Decodable>(_ type: T.Type, kind: String, key: String) throws -> T? {
    let url = try url(kind: kind, key: key)
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    return try decoder.decode(type, from: try FileWriter.read(url))
  }

  /// Unlinks the record's file (and fsyncs its directory with fsync=each).
  private func remove(kind: String, key: String) throws {
    let url = try url(kind: kind, key: key)
    guard unlink(url.path) == 0 else { throw FileWriter.error("unlink", url) }
    if durable { try FileWriter.syncDirectory(url.deletingLastPathComponent()) }
  }

  func unitOfWork(_ body: () throws -> Void) throws { try body() }

  func insert(_ article: Article) throws {
    try save(article, kind: "articles", key: article.uid, durable: durable)
  }

  func markRead(uids: [String]) throws {
    for uid in uids {
      var article = try fetch(Article.self, kind: "articles", key: uid)
      article.read = true
      try save(article, kind: "articles", key: uid, durable: durable)
    }
  }

  func edit(_ edit: ArticleEdit) throws {
    let article = try fetch(Article.self, kind: "articles", key: edit.uid)
    try save(edit.applied(to: article), kind: "articles", key: edit.uid, durable: durable)
  }

  func article(uid: String) throws -> Article? { try fetchIfPresent(Article.self, kind: "articles", key: uid) }

  /// The uids, from the file names alone (hex of the uid's bytes): no record is read.
  func allUIDs() throws -> [String] {
    try articleFiles().map { url in
      let hex = Array(url.deletingPathExtension().lastPathComponent.utf8)
      var bytes: [UInt8] = []
      bytes.reserveCapacity(hex.count / 2)
      for index in stride(from: 0, to: hex.count - 1, by: 2) {
        guard let byte = UInt8(String(decoding: hex[index...index + 1], as: UTF8.self), radix: 16) else {
          throw StoreError.inconsistent("unexpected file \(url.path)")
        }
        bytes.append(byte)
      }
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  func delete(uids: [String]) throws {
    for uid in uids { try remove(kind: "articles", key: uid) }
  }

  /// Every article file (temporary files excluded).
  private func articleFiles() throws -> [URL] { try files(kind: "articles") }

  /// Every record file of one kind (temporary files excluded).
  private func files(kind: String) throws -> [URL] {
    let directory = root.appendingPathComponent(kind)
    guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
      return []
    }
    return enumerator.compactMap { $0 as? URL }.filter {
      $0.pathExtension == "json" && !$0.lastPathComponent.hasPrefix(".")
    }
  }

  private var indexURL: URL { root.appendingPathComponent("timeline.index") }

  /// The first `limit` messages of the timeline index, newest first.
  private func indexedMessages(limit: Int = .max) throws -> [Message] {
    guard FileManager.default.fileExists(atPath: indexURL.path) else { return [] }
    return try RecordCodec.decodeIDs(try FileWriter.read(indexURL), limit: limit).map {
      try fetch(Message.self, kind: "messages", key: String($0))
    }
  }

  func loadTimeline(limit: Int) throws -> TimelineScreen {
    try TimelineScreen(messages: try indexedMessages(limit: limit)) { id in
      try fetch(User.self, kind: "users", key: String(id))
    }
  }

  func load(articles: [Article]) throws {
    for article in articles { try save(article, kind: "articles", key: article.uid, durable: false) }
    try FileWriter.syncFileSystem(of: root)
  }

  func load(users: [User], messages: [Message]) throws {
    for user in users { try save(user, kind: "users", key: String(user.id), durable: false) }
    for message in messages { try save(message, kind: "messages", key: String(message.id), durable: false) }
    let ordered = (try indexedMessages() + messages).sorted(by: Message.isNewer)
    try FileWriter.replace(indexURL, with: Data(RecordCodec.encodeIDs(ordered.map(\.id))), durable: false)
    try FileWriter.syncFileSystem(of: root)
  }

  func allArticles() throws -> [Article] {
    try articleFiles().map { try decoder.decode(Article.self, from: try FileWriter.read($0)) }
  }

  /// A second handle on the same directory: every file is replaced by an atomic rename, so a reader sees
  /// the old or the new record and needs no lock.
  func shareWithSecondThread() throws -> SharedStore {
    let location = location
    let settings = settings
    return SharedStore(
      writer: self, concurrency: "second handle: files are replaced by atomic rename, readers take no lock"
    ) {
      let reader = try FilesStore(location: location, settings: settings)
      return SharedReader(reader, close: reader.close)
    }
  }

  func setSetting(_ value: SettingValue, forKey key: String) throws {
    try save(value.encoded, kind: "settings", key: key, durable: durable)
  }

  func setting(forKey key: String, kind: SettingKind) throws -> SettingValue? {
    try fetchIfPresent(String.self, kind: "settings", key: key).map { try SettingValue(encoded: $0, kind: kind) }
  }

  func cachePut(_ entry: CacheEntry) throws {
    try save(StoredCacheEntry(entry), kind: "cache", key: entry.key, durable: durable)
  }

  func cacheEntry(forKey key: String) throws -> CacheEntry? {
    try fetchIfPresent(StoredCacheEntry.self, kind: "cache", key: key)?.entry
  }

  func cacheRemove(forKey key: String) throws { try remove(kind: "cache", key: key) }

  func cacheEntries() throws -> [CacheEntry] {
    try files(kind: "cache").map { try decoder.decode(StoredCacheEntry.self, from: try FileWriter.read($0)).entry }
  }

  func close() throws {}
}

/// The `migrate` part of ``FilesStore``: every article file decoded as version 1 and replaced by its version 2.
extension FilesStore: MigratingStore {
  func migrateToVersion2() throws -> String {
    let files = try articleFiles()
    for file in files {
      let article = try decoder.decode(Article.self, from: try FileWriter.read(file))
      try FileWriter.replace(file, with: try encoder.encode(ArticleV2(upgrading: article)), durable: durable)
    }
    return "every article file decoded and replaced as version 2 (\(durable ? "fsync each" : "rename only"))"
  }

  func allArticlesV2() throws -> [ArticleV2] {
    try articleFiles().map { try decoder.decode(ArticleV2.self, from: try FileWriter.read($0)) }
  }
}
