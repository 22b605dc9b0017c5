import Foundation
import StoreBenchContract

/// `plist`: property-list files, the "timeline cache" of the seeds. Each collection is one file
/// (`articles.plist`, `timeline.plist`) that is decoded whole when first needed and rewritten whole.
public enum PlistBackend {
  public static var descriptor: BackendDescriptor {
    BackendDescriptor(
      name: "plist",
      summary: "property-list files: each collection decoded whole and rewritten whole",
      settings: Settings.self,
      smoke: [
        Settings(),
        Settings().with { ($0.format, $0.codec, $0.write, $0.flush) = (.xml, .archiver, .inplace, .each) },
      ],
      advise: [
        .init(
          Settings().with { ($0.format, $0.codec, $0.write, $0.flush) = (.binary, .codable, .atomic, .end) },
          mostRecords: 20_000,
          beyondMost: "rewrites its whole file at every save: megabytes a save at this size")
      ],
      storeFiles: ["articles.plist"],
      promise: { settings in settings.write == .atomic ? .durable : .mayLose },
      open: { location, settings in try PlistStore(location: location, settings: settings) }
    )
  }

  /// The settings of the `plist` backend.
  public struct Settings: BackendSettings {
    public enum Format: String, SettingChoice { case binary, xml }
    public enum Codec: String, SettingChoice { case codable, archiver }
    public enum Write: String, SettingChoice { case atomic, inplace }
    public enum Flush: String, SettingChoice { case each, end }
    public var format = Format.binary
    public var codec = Codec.codable
    public var write = Write.atomic
    public var flush = Flush.end
    public init() {}
    public static var axes: [SettingAxis<Settings>] {
      [
        .choice("format", \.format, summary: "property-list format"),
        .choice(
          "codec", \.codec,
          summary:
            "codable: PropertyListEncoder/Decoder; archiver: NSKeyedArchiver with NSSecureCoding classes"),
        .choice(
          "write", \.write, key: true,
          summary:
            "atomic: Data.write(.atomic) (temp file, fsync, rename), then the directory fsynced; inplace: Data.write without .atomic (the file truncated and rewritten in place, which Foundation fsyncs: a kill during the rewrite leaves a torn file)"
        ),
        .choice(
          "flush", \.flush, key: true,
          summary: "each: rewrite the file after every call; end: once at the end of the app operation"),
      ]
    }
  }
}

final class PlistStore: AppStore {
  private let articlesURL: URL
  private let timelineURL: URL
  let settingsURL: URL
  let cacheURL: URL
  let tagsURL: URL
  let format: PropertyListSerialization.PropertyListFormat
  private let codec: any PlistCodec
  private let atomic: Bool
  let flushEach: Bool
  /// The settings and cache collections (see `PlistStore+SettingsCache.swift`), decoded on first use.
  var settings: [String: Any]?
  var cache: [String: CacheEntry]?
  var settingsDirty = false
  var cacheDirty = false
  /// The notes' tags (see `PlistStore+Tags.swift`), decoded on first use.
  var noteTags: NoteTagTable?
  var tagsDirty = false
  /// The parent files written since the last flush (see `PlistStore+Parents.swift`), by name.
  var pendingParentFiles: [String: [UInt8]] = [:]
  let parentsDirectory: URL
  /// The decoded articles collection (nil until first needed) and a uid → position index.
  private var articles: [Article]?
  private var positions: [String: Int] = [:]
  private var dirty = false
  let effectiveSettings: String

  init(location: StoreLocation, settings: PlistBackend.Settings) throws {
    articlesURL = location.directory.appendingPathComponent("articles.plist")
    timelineURL = location.directory.appendingPathComponent("timeline.plist")
    settingsURL = location.directory.appendingPathComponent("settings.plist")
    cacheURL = location.directory.appendingPathComponent("cache.plist")
    tagsURL = location.directory.appendingPathComponent("tags.plist")
    parentsDirectory = location.directory.appendingPathComponent("parents")
    format = settings.format == .xml ? .xml : .binary
    codec = settings.codec == .archiver ? ArchiverPlistCodec(format: format) : CodablePlistCodec(format: format)
    atomic = settings.write == .atomic
    flushEach = settings.flush == .each
    effectiveSettings = settings.text
  }

  /// Writes a whole collection. Atomic: Foundation writes a temporary file, fsyncs it and renames it, but does
  /// not fsync the directory, so the rename itself could be lost on power loss; the directory is fsynced here.
  func write(_ data: Data, to url: URL) throws {
    do {
      try data.write(to: url, options: atomic ? .atomic : [])
    } catch {
      throw FileStoreError(operation: "write", path: url.path, reason: "\(error.localizedDescription)")
    }
    if atomic { try FileWriter.syncDirectory(url.deletingLastPathComponent()) }
  }

  func decoded<T>(_ url: URL, _ decode: (Data) throws -> T) throws -> T {
    do {
      return try decode(try FileWriter.read(url))
    } catch let error as FileStoreError {
      throw error
    } catch {
      throw FileStoreError(operation: "decode (\(codec.name))", path: url.path, reason: "\(error)")
    }
  }

  /// The articles collection, decoded from disk on first use.
  func loadedArticles() throws -> [Article] {
    if let articles { return articles }
    let loaded =
      FileManager.default.fileExists(atPath: articlesURL.path)
      ? try decoded(articlesURL, codec.decodeArticles) : []
    positions = Dictionary(uniqueKeysWithValues: loaded.enumerated().map { ($0.element.uid, $0.offset) })
    articles = loaded
    return loaded
  }

  private func changed() throws {
    dirty = true
    if flushEach { try flush() }
  }

  /// Marks the settings or cache collection changed, rewriting it now with flush=each.
  func changed(settings: Bool) throws {
    if settings { settingsDirty = true } else { cacheDirty = true }
    if flushEach { try flush() }
  }

  private func flush() throws {
    if dirty, let articles {
      try write(try codec.encode(articles), to: articlesURL)
      dirty = false
    }
    try flushSettingsAndCache()
    try flushTags()
    try flushParents()
  }

  func unitOfWork(_ body: () throws -> Void) throws {
    try body()
    try flush()
  }

  func insert(_ article: Article) throws {
    _ = try loadedArticles()
    guard positions[article.uid] == nil else { throw StoreError.inconsistent("duplicate uid \(article.uid)") }
    positions[article.uid] = articles!.count
    articles!.append(article)
    try changed()
  }

  func markRead(uids: [String]) throws {
    _ = try loadedArticles()
    for uid in uids {
      guard let position = positions[uid] else { throw StoreError.inconsistent("no article \(uid)") }
      articles![position].read = true
    }
    try changed()
  }

  /// The whole file is rewritten, as for every change.
  func edit(_ edit: ArticleEdit) throws {
    _ = try loadedArticles()
    guard let position = positions[edit.uid] else { throw StoreError.inconsistent("no article \(edit.uid)") }
    articles![position] = edit.applied(to: articles![position])
    try changed()
  }

  func article(uid: String) throws -> Article? {
    let articles = try loadedArticles()
    return positions[uid].map { articles[$0] }
  }

  func allUIDs() throws -> [String] { try loadedArticles().map(\.uid) }

  func delete(uids: [String]) throws {
    let doomed = Set(uids)
    articles = try loadedArticles().filter { !doomed.contains($0.uid) }
    positions = Dictionary(uniqueKeysWithValues: articles!.enumerated().map { ($0.element.uid, $0.offset) })
    try changed()
  }

  func loadTimeline(limit: Int) throws -> TimelineScreen {
    let cache = try decoded(timelineURL, codec.decodeTimeline)
    let messages = Array(cache.messages.prefix(limit))
    let users = Dictionary(cache.users.map { ($0.id, $0) }) { first, _ in first }
    return try TimelineScreen(messages: messages) { users[$0] }
  }

  func load(articles batch: [Article]) throws {
    for article in batch { try insertWithoutFlush(article) }
    dirty = true
    try flush()
  }

  private func insertWithoutFlush(_ article: Article) throws {
    _ = try loadedArticles()
    positions[article.uid] = articles!.count
    articles!.append(article)
  }

  func load(users: [User], messages: [Message]) throws {
    var cache =
      FileManager.default.fileExists(atPath: timelineURL.path)
      ? try decoded(timelineURL, codec.decodeTimeline) : TimelineCache(users: [], messages: [])
    cache.users += users
    cache.messages = (cache.messages + messages).sorted(by: Message.isNewer)
    try write(try codec.encode(cache), to: timelineURL)
  }

  /// The in-memory collection, as a plist app filters it.
  func forEachArticle(_ body: (Article) throws -> Void) throws {
    for article in try loadedArticles() { try body(article) }
  }

  func allArticles() throws -> [Article] {
    FileManager.default.fileExists(atPath: articlesURL.path) ? try decoded(articlesURL, codec.decodeArticles) : []
  }

  func close() throws {
    try flush()
    articles = nil
    settings = nil
    cache = nil
    noteTags = nil
  }
}

/// The `migrate` part of ``PlistStore``: the whole collection decoded as version 1 and written again as version 2
/// with the variant's codec (version-2 `Codable` records, or a version-2 archived class), as every save is written.
extension PlistStore: MigratingStore {
  func migrateToVersion2() throws -> String {
    try write(try codec.encode(try loadedArticles().map(ArticleV2.init(upgrading:))), to: articlesURL)
    (articles, positions, dirty) = (nil, [:], false)
    return
      "every article decoded and the file rewritten as version 2 (\(codec.name), \(format == .xml ? "xml" : "binary"))"
  }

  func allArticlesV2() throws -> [ArticleV2] { try decoded(articlesURL, codec.decodeArticlesV2) }
}
