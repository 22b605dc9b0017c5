import CSQLite

/// A prepared statement, reusable through ``reset()``. Finalize it before closing its connection.
public final class SQLiteStatement {
  private var handle: OpaquePointer?
  /// The SQL text, for error messages.
  public let sql: String
  /// The database file, for error messages.
  public let path: String

  init(handle: OpaquePointer, sql: String, path: String) {
    self.handle = handle
    self.sql = sql
    self.path = path
  }

  /// Throws through the wrapper's one funnel (``SQLiteError/check(_:db:sql:path:message:)``) with this
  /// statement's SQL.
  @inline(__always)
  private func check(_ rc: Int32) throws {
    try SQLiteError.check(rc, db: sqlite3_db_handle(handle), sql: sql, path: path)
  }

  deinit { if let handle { sqlite3_finalize(handle) } }

  private static let transient = csqlite_transient()

  /// Binds text to the 1-based parameter `index` (SQLite copies the bytes; "" binds as empty text, not NULL).
  public func bind(_ value: String, at index: Int32) throws {
    let direct = value.utf8.withContiguousStorageIfAvailable { bytes in Self.bindText(handle, index, bytes) }
    if let direct { return try check(direct) }
    var copy = value  // not native UTF-8 (e.g. bridged): make it contiguous first
    try check(copy.withUTF8 { Self.bindText(handle, index, $0) })
  }

  @inline(__always)
  private static func bindText(_ handle: OpaquePointer?, _ index: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
    guard let base = bytes.baseAddress, bytes.count > 0 else {
      return sqlite3_bind_text(handle, index, "", 0, transient)
    }
    return UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: bytes.count) {
      sqlite3_bind_text(handle, index, $0, Int32(bytes.count), transient)
    }
  }

  /// Binds bytes as a BLOB to the 1-based parameter `index` (SQLite copies them; empty binds a zero-length blob).
  public func bind(_ bytes: [UInt8], at index: Int32) throws {
    try check(
      bytes.withUnsafeBytes { buffer in
        sqlite3_bind_blob(
          handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count),
          Self.transient)
      })
  }

  /// Binds a 64-bit integer to the 1-based parameter `index`.
  public func bind(_ value: Int64, at index: Int32) throws {
    try check(sqlite3_bind_int64(handle, index, value))
  }

  /// Binds an integer to the 1-based parameter `index`.
  public func bind(_ value: Int, at index: Int32) throws {
    try bind(Int64(value), at: index)
  }

  /// Binds a double to the 1-based parameter `index`.
  public func bind(_ value: Double, at index: Int32) throws {
    try check(sqlite3_bind_double(handle, index, value))
  }

  /// Binds NULL to the 1-based parameter `index`.
  public func bindNull(at index: Int32) throws {
    try check(sqlite3_bind_null(handle, index))
  }

  /// The number of parameters (the largest index).
  public var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

  /// The name of the 1-based parameter `index` with its prefix (`:tag`, `?1`), nil for a bare `?`.
  public func parameterName(at index: Int32) -> String? {
    sqlite3_bind_parameter_name(handle, index).map { String(cString: $0) }
  }

  /// Whether the statement leaves the database unchanged (`sqlite3_stmt_readonly`).
  public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

  /// Whether the statement is an `EXPLAIN` (or `EXPLAIN QUERY PLAN`): it lists a program and runs none.
  public var isExplain: Bool { sqlite3_stmt_isexplain(handle) != 0 }

  /// The number of columns a row of this statement has.
  public var columnCount: Int32 { sqlite3_column_count(handle) }

  /// The storage class of column `index` (0-based) of the current row.
  public func columnType(at index: Int32) -> SQLiteColumnType {
    SQLiteColumnType(rawValue: sqlite3_column_type(handle, index)) ?? .null
  }

  /// Column `index` (0-based) of the current row as a double.
  public func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }

  /// Column `index` (0-based) of the current row as raw bytes, valid until the next step: text's UTF-8 or a BLOB.
  public func withBytes<T>(at index: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
    let isText = sqlite3_column_type(handle, index) == SQLITE_TEXT
    let base = isText ? UnsafeRawPointer(sqlite3_column_text(handle, index)) : sqlite3_column_blob(handle, index)
    let count = Int(sqlite3_column_bytes(handle, index))
    return try body(UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : count))
  }

  /// Advances one row: true when a row is available, false when the statement is done.
  @discardableResult
  public func step() throws -> Bool {
    let rc = sqlite3_step(handle)
    if rc == SQLITE_ROW { return true }
    if rc == SQLITE_DONE { return false }
    try check(rc)
    return false
  }

  /// Runs a statement that returns no rows, then resets it (bindings are kept).
  public func run() throws {
    defer { sqlite3_reset(handle) }
    while try step() {}
  }

  /// Resets the statement for another execution and clears its bindings.
  public func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  /// Column `index` (0-based) of the current row as text; NULL reads as "".
  public func text(at index: Int32) -> String {
    guard let bytes = sqlite3_column_text(handle, index) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, index))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// Column `index` (0-based) of the current row as bytes (a BLOB, or the bytes of text); NULL reads as empty.
  public func bytes(at index: Int32) -> [UInt8] {
    guard let base = sqlite3_column_blob(handle, index) else { return [] }
    let count = Int(sqlite3_column_bytes(handle, index))
    return Array(UnsafeRawBufferPointer(start: base, count: count))
  }

  /// Column `index` (0-based) of the current row as a 64-bit integer.
  public func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

  /// Releases the statement. Safe to call more than once.
  public func finalize() {
    if let handle { sqlite3_finalize(handle) }
    handle = nil
  }
}

/// SQLite's storage classes (`sqlite3_column_type`).
public enum SQLiteColumnType: Int32, Sendable {
  case integer = 1
  case real = 2
  case text = 3
  case blob = 4
  case null = 5
}
