import CLMDB
import Foundation

/// A transaction, valid only inside the ``LMDBEnvironment/write(_:)`` or ``LMDBEnvironment/read(_:)`` closure
/// that created it.
public final class LMDBTransaction {
  @usableFromInline let handle: OpaquePointer
  @usableFromInline let path: String
  private var finished = false

  init(handle: OpaquePointer, path: String) {
    self.handle = handle
    self.path = path
  }

  func commit() throws {
    finished = true
    try check(mdb_txn_commit(handle), "mdb_txn_commit", path)
  }

  func abort() {
    if !finished { mdb_txn_abort(handle) }
    finished = true
  }

  /// Stores `value` under `key` (replacing); `noOverwrite` makes an existing key an error (`.keyExist`).
  public func put(_ value: [UInt8], for key: [UInt8], in database: LMDBDatabase, noOverwrite: Bool = false) throws {
    try key.withUnsafeBytes { k in
      try value.withUnsafeBytes { v in try put(v, for: k, in: database, noOverwrite: noOverwrite) }
    }
  }

  /// Stores `value` under `key` from borrowed bytes (no array needed), as ``put(_:for:in:noOverwrite:)``.
  public func put(
    _ value: UnsafeRawBufferPointer, for key: UnsafeRawBufferPointer, in database: LMDBDatabase,
    noOverwrite: Bool = false
  ) throws {
    var k = Self.val(key)
    var v = Self.val(value)
    let rc = mdb_put(handle, database.handle, &k, &v, noOverwrite ? UInt32(MDB_NOOVERWRITE) : 0)
    try check(rc, "mdb_put(\(database.name))", path)
  }

  /// The value stored under `key`, copied out, or nil.
  public func get(_ key: [UInt8], in database: LMDBDatabase) throws -> [UInt8]? {
    try key.withUnsafeBytes { try withValue(for: $0, in: database) { Array($0) } }
  }

  /// Calls `body` with the value stored under `key` in LMDB's own memory (valid only inside `body`: decode or
  /// copy it there), or returns nil when there is none.
  @inlinable
  public func withValue<T>(
    for key: UnsafeRawBufferPointer, in database: LMDBDatabase,
    _ body: (UnsafeRawBufferPointer) throws -> T
  ) throws -> T? {
    guard let value = try Self.value(in: handle, path: path, for: key, in: database) else { return nil }
    return try body(value)
  }

  /// `mdb_get` in the transaction `handle` (also the environment's one-lookup read, which makes no object): the
  /// value in LMDB's memory, valid until the transaction ends, or nil when there is none. The non-generic half of
  /// the inlinable lookups (inlinable so that callers get them specialized for their `T`: an unspecialized
  /// generic moves every decoded value through its type's value witnesses).
  @usableFromInline
  static func value(
    in handle: OpaquePointer?, path: String, for key: UnsafeRawBufferPointer, in database: LMDBDatabase
  ) throws -> UnsafeRawBufferPointer? {
    var k = val(key)
    var v = MDB_val()
    let rc = mdb_get(handle, database.handle, &k, &v)
    if rc == MDB_NOTFOUND { return nil }
    try check(rc, "mdb_get(\(database.name))", path)
    return UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)
  }

  /// Deletes the entry under `key`; false when there was none.
  @discardableResult
  public func delete(_ key: [UInt8], in database: LMDBDatabase) throws -> Bool {
    let rc = Self.withVal(key) { k in mdb_del(handle, database.handle, &k, nil) }
    if rc == MDB_NOTFOUND { return false }
    try check(rc, "mdb_del(\(database.name))", path)
    return true
  }

  /// The pages on LMDB's free list (the free-page database, `FREE_DBI` = 0): each of its records holds a page
  /// list whose first word is the list's length (lmdb's `MDB_IDL`). Pages a reader still holds are included.
  public func freePages() throws -> Int {
    var cursor: OpaquePointer?
    try check(mdb_cursor_open(handle, 0, &cursor), "mdb_cursor_open(free list)", path)
    defer { mdb_cursor_close(cursor) }
    var k = MDB_val()
    var v = MDB_val()
    var operation = MDB_FIRST
    var pages = 0
    while true {
      let rc = mdb_cursor_get(cursor, &k, &v, operation)
      if rc == MDB_NOTFOUND { return pages }
      try check(rc, "mdb_cursor_get(free list)", path)
      if let data = v.mv_data, v.mv_size >= MemoryLayout<Int>.size {
        pages += data.loadUnaligned(as: Int.self)
      }
      operation = MDB_NEXT
    }
  }

  /// Number of entries in `database`.
  public func count(_ database: LMDBDatabase) throws -> Int {
    var stat = MDB_stat()
    try check(mdb_stat(handle, database.handle, &stat), "mdb_stat(\(database.name))", path)
    return stat.ms_entries
  }

  /// Visits entries in key order from the first, until `body` returns false or the database ends.
  public func forEach(in database: LMDBDatabase, _ body: (_ key: [UInt8], _ value: [UInt8]) throws -> Bool) throws {
    var k = MDB_val()
    try walk(database, from: &k, first: MDB_FIRST, body)
  }

  /// Visits entries in key order from the first key at or after `start` (`MDB_SET_RANGE`), until `body` returns
  /// false or the database ends: a prefix walk over ordered keys.
  public func forEach(
    in database: LMDBDatabase, from start: [UInt8], _ body: (_ key: [UInt8], _ value: [UInt8]) throws -> Bool
  ) throws {
    try start.withUnsafeBytes { startBytes in
      var k = Self.val(startBytes)
      try walk(database, from: &k, first: MDB_SET_RANGE, body)
    }
  }

  /// The one cursor walk: `first` positions the cursor (with `k` when it needs a key), then `MDB_NEXT`.
  private func walk(
    _ database: LMDBDatabase, from k: inout MDB_val, first: MDB_cursor_op,
    _ body: (_ key: [UInt8], _ value: [UInt8]) throws -> Bool
  ) throws {
    var cursor: OpaquePointer?
    try check(mdb_cursor_open(handle, database.handle, &cursor), "mdb_cursor_open(\(database.name))", path)
    defer { mdb_cursor_close(cursor) }
    var v = MDB_val()
    var operation = first
    while true {
      let rc = mdb_cursor_get(cursor, &k, &v, operation)
      if rc == MDB_NOTFOUND { return }
      try check(rc, "mdb_cursor_get(\(database.name))", path)
      if try !body(Self.bytes(k), Self.bytes(v)) { return }
      operation = MDB_NEXT
    }
  }

  /// `bytes` as an `MDB_val` (``val(_:)``) for the duration of `body`.
  static func withVal<T>(_ bytes: [UInt8], _ body: (inout MDB_val) throws -> T) rethrows -> T {
    try bytes.withUnsafeBytes { buffer in
      var value = val(buffer)
      return try body(&value)
    }
  }

  /// The one pointer conversion into LMDB: borrowed bytes as an `MDB_val` (LMDB only reads a key or value it is
  /// given); valid while the bytes are.
  static func val(_ bytes: UnsafeRawBufferPointer) -> MDB_val {
    MDB_val(mv_size: bytes.count, mv_data: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
  }

  /// The one pointer conversion out of LMDB: the bytes `value` points to, copied (valid only inside the transaction).
  static func bytes(_ value: MDB_val) -> [UInt8] {
    guard let data = value.mv_data, value.mv_size > 0 else { return [] }
    return Array(UnsafeRawBufferPointer(start: data, count: value.mv_size))
  }
}
