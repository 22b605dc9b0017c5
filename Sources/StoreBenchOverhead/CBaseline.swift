import CBaselines
import Foundation
import StoreBenchBackends
import StoreBenchCore

/// The C side of ``AdapterOverhead``: the articles laid out as C strings once, outside any timed region, and
/// the calls into `CBaselines` for one backend variant.
struct CBaseline {
  /// The library a C baseline is written against, one per backend it reproduces.
  enum Library {
    case sqlite, lmdb, gdbm

    init?(backend: String) {
      switch backend {
      case SQLiteBackend.descriptor.name: self = .sqlite
      case LMDBBackend.descriptor.name: self = .lmdb
      case GDBMBackend.descriptor.name: self = .gdbm
      default: return nil
      }
    }
  }

  let backend: String
  let library: Library
  let variant: Variant
  private let articles: [Article]
  /// Every article's uid, title and summary, NUL-terminated, back to back; `offsets` has three per article.
  private let texts: [CChar]
  private let offsets: [Int]

  init(backend: String, variant: Variant, articles: [Article]) throws {
    guard let library = Library(backend: backend) else {
      throw StoreError.unsupported("no C baseline for backend '\(backend)'")
    }
    self.backend = backend
    self.library = library
    self.variant = variant
    self.articles = articles
    var texts: [CChar] = []
    var offsets: [Int] = []
    offsets.reserveCapacity(articles.count * 3)
    for article in articles {
      for text in [article.uid, article.title, article.summary] {
        offsets.append(texts.count)
        texts.append(contentsOf: text.utf8CString)
      }
    }
    self.texts = texts
    self.offsets = offsets
  }

  /// Inserts every article into a fresh store in `directory`; returns the timed seconds.
  func insert(into directory: URL) throws -> Double {
    try texts.withUnsafeBufferPointer { buffer in
      let base = buffer.baseAddress!
      var rows = articles.enumerated().map { index, article in
        sb_article(
          uid: base + offsets[index * 3], uid_len: Int32(article.uid.utf8.count), feed_id: article.feedID,
          title: base + offsets[index * 3 + 1], title_len: Int32(article.title.utf8.count),
          summary: base + offsets[index * 3 + 2], summary_len: Int32(article.summary.utf8.count),
          published: article.published.millisecondsSince1970, read: article.read ? 1 : 0)
      }
      let count = Int32(rows.count)
      return try call("insert", directory) { elapsed, error, errorLength in
        switch library {
        case .sqlite:
          let path = directory.appendingPathComponent(SQLiteBackend.fileName).path
          return sb_sqlite_insert(
            path, Self.sqlitePragmas, SQLiteBackend.schema(for: SQLiteSettings(variant)),
            SQLiteBackend.insertArticleSQL, &rows, count, elapsed, error, errorLength)
        case .lmdb:
          return sb_lmdb_insert(directory.path, mapSize, &rows, count, elapsed, error, errorLength)
        case .gdbm:
          let path = directory.appendingPathComponent(GDBMBackend.fileName).path
          return sb_gdbm_insert(path, &rows, count, elapsed, error, errorLength)
        }
      }
    }
  }

  /// Looks up every uid in the store in `directory`; returns the timed seconds and what was found
  /// (``describe(_:)``'s form).
  func lookup(_ uids: [String], in directory: URL) throws -> (seconds: Double, found: String) {
    var keyTexts: [CChar] = []
    var keyOffsets: [Int] = []
    for uid in uids {
      keyOffsets.append(keyTexts.count)
      keyTexts.append(contentsOf: uid.utf8CString)
    }
    var found = [sb_found](repeating: sb_found(), count: uids.count)
    defer { sb_found_free(&found, Int32(found.count)) }
    let seconds = try keyTexts.withUnsafeBufferPointer { buffer in
      let base = buffer.baseAddress!
      var keys = uids.enumerated().map { index, uid in
        sb_key(bytes: base + keyOffsets[index], len: Int32(uid.utf8.count))
      }
      let count = Int32(keys.count)
      return try call("lookup", directory) { elapsed, error, errorLength in
        switch library {
        case .sqlite:
          let path = directory.appendingPathComponent(SQLiteBackend.fileName).path
          return sb_sqlite_lookup(
            path, SQLiteBackend.articleByUIDSQL, &keys, count, &found, elapsed, error, errorLength)
        case .lmdb:
          return sb_lmdb_lookup(directory.path, mapSize, &keys, count, &found, elapsed, error, errorLength)
        case .gdbm:
          let path = directory.appendingPathComponent(GDBMBackend.fileName).path
          return sb_gdbm_lookup(path, &keys, count, &found, elapsed, error, errorLength)
        }
      }
    }
    let hits = found.count { $0.found != 0 }
    return (seconds, "found \(hits), \(Self.hex(sb_found_checksum(&found, Int32(found.count))))")
  }

  /// "found <count>, <checksum>" of what the Swift side found, by the same fold as `sb_found_checksum`.
  static func describe(_ found: [Article?]) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    func mix<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
      for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01B3
      }
    }
    func mix(_ value: UInt64, width: Int) { mix((0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }) }
    for article in found {
      guard let article else {
        mix(0xFF, width: 1)
        continue
      }
      for (index, text) in [article.uid, article.title, article.summary].enumerated() {
        mix(UInt64(text.utf8.count), width: 4)
        mix(text.utf8)
        if index == 0 { mix(UInt64(bitPattern: article.feedID), width: 8) }
      }
      mix(UInt64(bitPattern: article.published.millisecondsSince1970), width: 8)
      mix(article.read ? 1 : 0, width: 1)
    }
    return "found \(found.count { $0 != nil }), \(hex(hash))"
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  static let sqlitePragmas = "PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY;"

  private var mapSize: Int { LMDBBackend.Settings(variant).mapSizeMiB << 20 }

  /// Runs one C function and turns its error code and message into an error naming backend, operation and path.
  private func call(
    _ operation: String, _ directory: URL,
    _ body: (UnsafeMutablePointer<UInt64>, UnsafeMutablePointer<CChar>, Int32) -> Int32
  ) throws -> Double {
    var elapsed: UInt64 = 0
    var message = [CChar](repeating: 0, count: 512)
    let rc = body(&elapsed, &message, Int32(message.count))
    guard rc == 0 else {
      let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
      throw StoreError.inconsistent(
        "the C \(backend) \(operation) failed with code \(rc): \(text) [directory: \(directory.path)]")
    }
    return Double(elapsed) / 1e9
  }
}
