import Foundation
import StoreBenchContract

/// The compact binary encoding the key-value backends (LMDB, GDBM) store records in.
///
/// All integers little-endian; strings are a `UInt32` byte count followed by the UTF-8 bytes.
/// - Article: uid, feedID (Int64), title, summary, published (Int64 ms since 1970), read (UInt8 0/1)
/// - User: id (Int64), name, handle, avatarURL
/// - Message: id (Int64), userID (Int64), text, created (Int64 ms since 1970)
/// - Cache entry: key, expires (Int64), value (`UInt32` byte count and the bytes)
/// - Setting: ``SettingValue/encoded`` as UTF-8 bytes, nothing else
///
/// Keys: articles by the uid's UTF-8 bytes; users by the big-endian id; the message time index by
/// big-endian `(Int64.max − created, Int64.max − id)`, so ascending key order is newest first.
enum RecordCodec {
  /// An article's bytes in a new array (paths that keep or return the record; the hot insert paths encode into a
  /// store's ``ScratchBuffer`` instead).
  static func encode(_ article: Article) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: encodedSize(article)) { buffer, initialized in
      initialized = encode(article, into: UnsafeMutableRawBufferPointer(buffer))
    }
  }

  /// The bytes ``encode(_:into:)`` writes for `article`.
  @inline(__always)
  static func encodedSize(_ article: Article) -> Int {
    4 + article.uid.utf8.count + 8 + 4 + article.title.utf8.count + 4 + article.summary.utf8.count + 8 + 1
  }

  /// Writes `article` at the start of `buffer` (at least ``encodedSize(_:)`` bytes); returns the bytes written.
  /// The strings are read in place, not copied.
  @discardableResult
  static func encode(_ article: Article, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    var writer = Writer(buffer: buffer)
    writer.text(article.uid)
    writer.integer(article.feedID.littleEndian)
    writer.text(article.title)
    writer.text(article.summary)
    writer.integer(article.published.millisecondsSince1970.littleEndian)
    writer.integer(UInt8(article.read ? 1 : 0))
    return writer.offset
  }

  /// Writes fields into a buffer sized for them.
  private struct Writer {
    let buffer: UnsafeMutableRawBufferPointer
    var offset = 0

    @inline(__always)
    mutating func integer<T: FixedWidthInteger>(_ value: T) {
      buffer.storeBytes(of: value, toByteOffset: offset, as: T.self)
      offset += MemoryLayout<T>.size
    }

    @inline(__always)
    mutating func text(_ string: String) {
      let written = string.utf8.withContiguousStorageIfAvailable { bytes in
        put(UnsafeRawBufferPointer(bytes))
        return true
      }
      guard written == nil else { return }
      var copy = string  // a bridged string: made native and contiguous first
      copy.withUTF8 { put(UnsafeRawBufferPointer($0)) }
    }

    @inline(__always)
    private mutating func put(_ bytes: UnsafeRawBufferPointer) {
      integer(UInt32(bytes.count).littleEndian)
      if let base = bytes.baseAddress, bytes.count > 0 {
        (buffer.baseAddress! + offset).copyMemory(from: base, byteCount: bytes.count)
      }
      offset += bytes.count
    }
  }

  static func decodeArticle(_ bytes: [UInt8]) throws -> Article { try bytes.withUnsafeBytes(decodeArticle) }

  /// Decodes an article straight from bytes the library owns (no copy first).
  static func decodeArticle(_ bytes: UnsafeRawBufferPointer) throws -> Article {
    var reader = Reader(bytes: bytes, what: "article")
    let uid = try reader.string()
    return try decodeArticle(&reader, uid: uid)
  }

  /// Decodes the article stored under the key `uid` (a point lookup): a record whose uid has the key's bytes
  /// reuses the key's string instead of making another.
  static func decodeArticle(_ bytes: UnsafeRawBufferPointer, key uid: String) throws -> Article {
    var reader = Reader(bytes: bytes, what: "article")
    let stored = try reader.string(expecting: uid)
    return try decodeArticle(&reader, uid: stored)
  }

  private static func decodeArticle(_ reader: inout Reader, uid: String) throws -> Article {
    let article = Article(
      uid: uid, feedID: try reader.int64(), title: try reader.string(),
      summary: try reader.string(), published: Date(millisecondsSince1970: try reader.int64()),
      read: try reader.byte() != 0)
    try reader.end()
    return article
  }

  static func encode(_ user: User) -> [UInt8] {
    var out: [UInt8] = []
    put(user.id, &out)
    put(user.name, &out)
    put(user.handle, &out)
    put(user.avatarURL, &out)
    return out
  }

  static func decodeUser(_ bytes: [UInt8]) throws -> User { try bytes.withUnsafeBytes(decodeUser) }

  static func decodeUser(_ bytes: UnsafeRawBufferPointer) throws -> User {
    var reader = Reader(bytes: bytes, what: "user")
    let user = User(
      id: try reader.int64(), name: try reader.string(), handle: try reader.string(),
      avatarURL: try reader.string())
    try reader.end()
    return user
  }

  static func encode(_ message: Message) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(message.text.utf8.count + 32)
    put(message.id, &out)
    put(message.userID, &out)
    put(message.text, &out)
    put(message.created.millisecondsSince1970, &out)
    return out
  }

  static func decodeMessage(_ bytes: [UInt8]) throws -> Message { try bytes.withUnsafeBytes(decodeMessage) }

  static func decodeMessage(_ bytes: UnsafeRawBufferPointer) throws -> Message {
    var reader = Reader(bytes: bytes, what: "message")
    let message = Message(
      id: try reader.int64(), userID: try reader.int64(), text: try reader.string(),
      created: Date(millisecondsSince1970: try reader.int64()))
    try reader.end()
    return message
  }

  static func encode(_ entry: CacheEntry) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(entry.key.utf8.count + entry.value.count + 16)
    put(entry.key, &out)
    put(entry.expires, &out)
    withUnsafeBytes(of: UInt32(entry.value.count).littleEndian) { out.append(contentsOf: $0) }
    out.append(contentsOf: entry.value)
    return out
  }

  static func decodeCacheEntry(_ bytes: [UInt8]) throws -> CacheEntry { try bytes.withUnsafeBytes(decodeCacheEntry) }

  static func decodeCacheEntry(_ bytes: UnsafeRawBufferPointer) throws -> CacheEntry {
    var reader = Reader(bytes: bytes, what: "cache entry")
    let key = try reader.string()
    let expires = try reader.int64()
    let entry = CacheEntry(key: key, value: Array(try reader.take(Int(try reader.uint32()))), expires: expires)
    try reader.end()
    return entry
  }

  static func decodeSetting(_ bytes: [UInt8], kind: SettingKind) throws -> SettingValue {
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw StoreError.inconsistent("damaged setting record: not UTF-8")
    }
    return try SettingValue(encoded: text, kind: kind)
  }

  /// Big-endian id: keys sort by id.
  static func idKey(_ id: Int64) -> [UInt8] { withUnsafeBytes(of: id.bigEndian) { Array($0) } }

  /// The id an ``idKey(_:)`` holds.
  static func decodeIDKey(_ key: [UInt8]) throws -> Int64 {
    guard key.count == 8 else { throw StoreError.inconsistent("damaged id key: \(key.count) bytes") }
    return key.reduce(Int64(0)) { $0 << 8 | Int64($1) }
  }

  /// An id index (the timeline order of gdbm and files): the ids as concatenated big-endian Int64.
  static func encodeIDs(_ ids: [Int64]) -> [UInt8] { ids.flatMap(idKey) }

  /// The first `limit` ids of an id index.
  static func decodeIDs<Bytes: Collection>(_ bytes: Bytes, limit: Int = .max) -> [Int64]
  where Bytes.Element == UInt8 {
    let bytes = Array(bytes)
    return stride(from: 0, to: min(bytes.count / 8, limit) * 8, by: 8).map { offset in
      bytes[offset..<offset + 8].reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }
  }

  /// Newest-first time key of a message.
  static func timeKey(_ message: Message) -> [UInt8] {
    idKey(Int64.max - message.created.millisecondsSince1970) + idKey(Int64.max - message.id)
  }

  static func put(_ value: Int64, _ out: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
  }

  static func put(_ string: String, _ out: inout [UInt8]) {
    let count = UInt32(string.utf8.count)
    withUnsafeBytes(of: count.littleEndian) { out.append(contentsOf: $0) }
    out.append(contentsOf: string.utf8)
  }

  /// Reads fields in order, with bounds checks: damaged bytes throw instead of crashing. The bytes are only
  /// borrowed: everything read is copied into Swift values.
  struct Reader {
    let bytes: UnsafeRawBufferPointer
    let what: String
    var offset = 0

    /// The next `count` bytes. Always inlined, its error made out of line: every field of every decoded record
    /// passes through here.
    @inline(__always)
    mutating func take(_ count: Int) throws -> UnsafeRawBufferPointer {
      guard count >= 0, count <= bytes.count &- offset else { throw shortRecord(needs: count) }
      let taken = UnsafeRawBufferPointer(start: bytes.baseAddress.map { $0 + offset }, count: count)
      offset &+= count
      return taken
    }

    @inline(never)
    private func shortRecord(needs count: Int) -> StoreError {
      StoreError.inconsistent("damaged \(what) record: needs \(offset + count) bytes, has \(bytes.count)")
    }

    @inline(never)
    private func notUTF8() -> StoreError { StoreError.inconsistent("damaged \(what) record: text is not UTF-8") }

    mutating func int64() throws -> Int64 { Int64(littleEndian: try take(8).loadUnaligned(as: Int64.self)) }

    mutating func byte() throws -> UInt8 { try take(1)[0] }

    mutating func uint32() throws -> UInt32 { UInt32(littleEndian: try take(4).loadUnaligned(as: UInt32.self)) }

    /// A text: its bytes checked as UTF-8 once (``UTF8Validation``) and copied into a `String` without a second
    /// check (`UTF8Span(unchecked:)`). Bytes that are not UTF-8 were damaged: they throw, never come back
    /// repaired.
    mutating func string() throws -> String {
      let body = try take(Int(try uint32()))
      guard body.count > 0 else { return "" }
      guard let isASCII = UTF8Validation.isASCII(ifValid: body) else { throw notUTF8() }
      if #available(macOS 26, *) {
        let bytes = body.assumingMemoryBound(to: UInt8.self)
        return unsafe String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: isASCII))
      }
      return String(decoding: body, as: UTF8.self)  // checked above: nothing to repair
    }

    /// The next text when its bytes are those of `known` (an article's uid, which is its key): `known` itself,
    /// with no new string made; otherwise the text as ``string()`` reads it.
    mutating func string(expecting known: String) throws -> String {
      let start = offset
      let body = try take(Int(try uint32()))
      let same = known.utf8.withContiguousStorageIfAvailable { expected in
        expected.count == body.count
          && (body.count == 0 || memcmp(expected.baseAddress!, body.baseAddress!, body.count) == 0)
      }
      if same == true { return known }
      offset = start
      return try string()
    }

    func end() throws {
      guard offset == bytes.count else {
        throw StoreError.inconsistent("damaged \(what) record: \(bytes.count - offset) trailing bytes")
      }
    }
  }
}
