import CSQLite

/// One open SQLite connection. Not thread-safe: use it from one thread at a time.
///
/// Close it explicitly with ``close()``; statements prepared on it must be finalized first
/// (``SQLiteStatement/finalize()``).
public final class SQLiteConnection {
  /// The database file this connection opened.
  public let path: String
  private(set) var handle: OpaquePointer?
  /// The installed busy handler (``setBusyHandler(_:)``), kept alive while SQLite may call it.
  public internal(set) var busyWait: SQLiteBusyWait?
  /// The installed run-time limit (``limitRunTime(seconds:)``), kept alive while SQLite may call it.
  public internal(set) var deadline: SQLiteDeadline?

  /// Opens (creating if needed) the database at `path` read-write.
  public init(path: String) throws {
    self.path = path
    var db: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    do {
      try SQLiteError.check(sqlite3_open_v2(path, &db, flags, nil), db: db, path: path)
    } catch {
      sqlite3_close_v2(db)
      throw error
    }
    handle = db
    sqlite3_extended_result_codes(db, 1)
  }

  deinit {
    // Only reached when the owner forgot `close()`; release the handle anyway.
    if let handle { sqlite3_close_v2(handle) }
  }

  func requireOpen() throws -> OpaquePointer {
    guard let handle else {
      throw SQLiteError(code: .misuse, message: "connection is closed", path: path)
    }
    return handle
  }

  /// Runs one or more SQL statements that take no parameters and return no rows the caller needs.
  public func execute(_ sql: String) throws {
    let db = try requireOpen()
    var errorMessage: UnsafeMutablePointer<CChar>?
    let rc = sqlite3_exec(db, sql, nil, nil, &errorMessage)
    defer { sqlite3_free(errorMessage) }
    try SQLiteError.check(rc, db: db, sql: sql, path: path, message: errorMessage.map { String(cString: $0) })
  }

  /// Prepares exactly one statement of `sql`: text after it other than white space and `;` is refused (SQLite's
  /// `prepare` would silently ignore it).
  public func prepareOne(_ sql: String) throws -> SQLiteStatement {
    let db = try requireOpen()
    var statement: OpaquePointer?
    var rest = ""
    try sql.withCString { text in
      var tail: UnsafePointer<CChar>?
      try SQLiteError.check(
        sqlite3_prepare_v3(db, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail),
        db: db, sql: sql, path: path)
      if let tail { rest = String(cString: tail) }
    }
    guard let statement else {
      throw SQLiteError(code: .misuse, message: "empty statement", sql: sql, path: path)
    }
    guard rest.allSatisfy({ $0.isWhitespace || $0 == ";" }) else {
      sqlite3_finalize(statement)
      throw SQLiteError(
        code: .misuse, message: "more than one statement; the text after the first is '\(rest.prefix(60))'",
        sql: sql, path: path)
    }
    return SQLiteStatement(handle: statement, sql: sql, path: path)
  }

  /// Prepares a statement for repeated use (bind, step, reset).
  public func prepare(_ sql: String) throws -> SQLiteStatement {
    let db = try requireOpen()
    var statement: OpaquePointer?
    try SQLiteError.check(
      sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil),
      db: db, sql: sql, path: path)
    guard let statement else {
      throw SQLiteError(code: .misuse, message: "empty statement", sql: sql, path: path)
    }
    return SQLiteStatement(handle: statement, sql: sql, path: path)
  }

  /// Runs a query and returns the first column of the first row as text (nil when no row).
  public func scalarText(_ sql: String) throws -> String? {
    let statement = try prepare(sql)
    defer { statement.finalize() }
    return try statement.step() ? statement.text(at: 0) : nil
  }

  /// Runs a query and returns the first column of every row as text.
  public func columnTexts(_ sql: String) throws -> [String] {
    let statement = try prepare(sql)
    defer { statement.finalize() }
    var values: [String] = []
    while try statement.step() { values.append(statement.text(at: 0)) }
    return values
  }

  /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`: commits when it returns, rolls back when it throws.
  public func transaction<T>(_ body: () throws -> T) throws -> T {
    try transaction(begin: "BEGIN IMMEDIATE", body)
  }

  /// Runs `body` in a deferred transaction (`BEGIN`): a read snapshot that takes no write lock until it writes.
  public func readTransaction<T>(_ body: () throws -> T) throws -> T {
    try transaction(begin: "BEGIN", body)
  }

  private func transaction<T>(begin: String, _ body: () throws -> T) throws -> T {
    try execute(begin)
    let result: T
    do {
      result = try body()
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
    do {
      try execute("COMMIT")
    } catch {
      // A refused COMMIT (SQLITE_BUSY) leaves the transaction open: the operation did nothing.
      try? execute("ROLLBACK")
      throw error
    }
    return result
  }

  /// Whether the connection is outside any explicit transaction (autocommit mode).
  public var isAutocommit: Bool { handle.map { sqlite3_get_autocommit($0) != 0 } ?? true }

  /// Rows changed by the most recent INSERT, UPDATE or DELETE.
  public var changes: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

  /// Closes the connection. Throws (and stays open) if statements are still unfinalized.
  public func close() throws {
    guard let db = handle else { return }
    try SQLiteError.check(sqlite3_close(db), db: db, path: path)
    handle = nil
  }

  /// The SQLite library version string, e.g. "3.40.1".
  public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

  /// The compile-time options the SQLite library was built with.
  public static var compileOptions: [String] {
    var options: [String] = []
    var index: Int32 = 0
    while let option = sqlite3_compileoption_get(index) {
      options.append(String(cString: option))
      index += 1
    }
    return options
  }
}
