import CSQLite

/// The rule for SQL that comes from a file a user hands in (a `sql` workload): it reaches only its own store's main
/// schema, and leaves the store's settings to the variant. Enforced by SQLite's authorizer
/// (`sqlite3_set_authorizer`) while such SQL is prepared, and, for what the authorizer does not see (VACUUM), by the
/// statement's own program (`EXPLAIN`: a `Vacuum` opcode).
///
/// Refused:
/// - `ATTACH` and `DETACH` (another database file), and any object of a schema other than `main` (`temp` included);
/// - `VACUUM` (`VACUUM INTO` writes a copy of the store anywhere; a plain one rewrites the store outside the
///   variant's policy);
/// - `BEGIN`, `COMMIT`, `ROLLBACK` and savepoints: the variant's transaction policy wraps each app operation;
/// - every `PRAGMA` but a read-only allowlist (``readOnlyPragmas``, with or without an argument naming a table or
///   index; ``readablePragmas`` only without one): no change of journal, sync, locking, cache or foreign keys;
/// - the functions that load code or touch files (``refusedFunctions``).
///
/// Everything else (tables, indexes, views, triggers of `main`, reads and writes, recursive CTEs) is allowed; how
/// long a statement may run is bounded separately (``SQLiteConnection/setDeadline(_:)``).
public final class SQLiteConfinement {
  /// Pragmas that only describe the schema or check the store: allowed with their argument.
  public static let readOnlyPragmas: Set<String> = [
    "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo", "foreign_key_list",
    "foreign_key_check", "integrity_check", "quick_check", "function_list", "pragma_list", "collation_list",
  ]
  /// Pragmas allowed only to read their value (no argument: `PRAGMA user_version`, never `= 7`).
  public static let readablePragmas: Set<String> = [
    "user_version", "schema_version", "application_id", "page_count", "page_size", "freelist_count",
    "data_version", "journal_mode", "synchronous", "encoding", "auto_vacuum", "foreign_keys", "compile_options",
  ]
  /// Functions that load code into SQLite or read and write files.
  public static let refusedFunctions: Set<String> = [
    "load_extension", "readfile", "writefile", "edit", "fts3_tokenizer",
  ]

  /// Why the last refused statement was refused (nil: nothing refused).
  public private(set) var refusal: String?

  public init() {}

  /// The authorizer's decision on one action (SQLite's action code and its four strings).
  func decide(_ action: Int32, _ first: String?, _ second: String?, _ database: String?) -> Int32 {
    func deny(_ why: String) -> Int32 {
      if refusal == nil { refusal = why }
      return SQLITE_DENY
    }
    if let database, database != "main" {
      return deny(
        "it names the schema '\(database)': a workload file's SQL reaches only its own store's main schema")
    }
    switch action {
    case SQLITE_ATTACH, SQLITE_DETACH:
      return deny("ATTACH and DETACH are not allowed: a workload file's SQL reaches only its own store")
    case SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TABLE, SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW,
      SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TABLE, SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TEMP_VIEW:
      return deny("temporary objects are not allowed: a workload file's SQL reaches only its store's main schema")
    case SQLITE_TRANSACTION, SQLITE_SAVEPOINT:
      return deny(
        "\(first ?? "a transaction statement") is not allowed: the variant's transaction policy wraps each "
          + "app operation")
    case SQLITE_PRAGMA:
      let name = (first ?? "").lowercased()
      if Self.readOnlyPragmas.contains(name) || (second == nil && Self.readablePragmas.contains(name)) {
        return SQLITE_OK
      }
      return deny(
        "PRAGMA \(name)\(second.map { "=\($0)" } ?? "") is not allowed: the variant sets the store's journal, "
          + "sync and locking; a workload file may only read \(Self.readablePragmas.sorted().joined(separator: ", ")) "
          + "and use \(Self.readOnlyPragmas.sorted().joined(separator: ", "))")
    case SQLITE_FUNCTION:
      let name = (second ?? "").lowercased()
      if Self.refusedFunctions.contains(name) {
        return deny("the function \(name)() is not allowed: it loads code or reaches files outside the store")
      }
      return SQLITE_OK
    default:
      // Virtual tables included: only the built-in modules (FTS5, R*Tree…) exist without load_extension.
      return SQLITE_OK
    }
  }
}

extension SQLiteConnection {
  /// Runs `body` with every statement prepared in it held to a ``SQLiteConfinement``: a refused statement fails to
  /// prepare with `SQLITE_AUTH`, thrown as a ``SQLiteError`` whose message says what was refused and why. The
  /// authorizer is removed when `body` returns (statements prepared outside it are the harness's own).
  public func confined<T>(_ body: () throws -> T) throws -> T {
    let db = try requireOpen()
    let confinement = SQLiteConfinement()
    let context = Unmanaged.passUnretained(confinement).toOpaque()
    let authorize:
      @convention(c) (
        UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
        UnsafePointer<CChar>?
      ) -> Int32 = { context, action, first, second, database, _ in
        guard let context else { return SQLITE_DENY }
        let confinement = Unmanaged<SQLiteConfinement>.fromOpaque(context).takeUnretainedValue()
        return confinement.decide(
          action, first.map { String(cString: $0) }, second.map { String(cString: $0) },
          database.map { String(cString: $0) })
      }
    try SQLiteError.check(sqlite3_set_authorizer(db, authorize, context), db: db, path: path)
    defer { sqlite3_set_authorizer(db, nil, nil) }
    return try withExtendedLifetime(confinement) {
      do {
        return try body()
      } catch let error as SQLiteError where error.code.primary == .auth || confinement.refusal != nil {
        throw SQLiteError(
          code: error.code, message: "refused: \(confinement.refusal ?? error.message)", sql: error.sql,
          path: error.path)
      }
    }
  }

  /// Runs `script` (one or more statements) statement by statement under ``confined(_:)``, refusing a VACUUM
  /// before it runs (``refuseVacuum(_:)``).
  public func executeConfined(_ script: String) throws {
    try confined {
      try forEachStatement(of: script) { statement in
        try refuseVacuum(statement)
        while try statement.step() {}
      }
    }
  }

  /// Prepares `sql` (exactly one statement) under ``confined(_:)`` and refuses a VACUUM; the caller finalizes it.
  public func prepareConfined(_ sql: String) throws -> SQLiteStatement {
    let statement = try confined { try prepareOne(sql) }
    do {
      try refuseVacuum(statement)
    } catch {
      statement.finalize()
      throw error
    }
    return statement
  }

  /// Throws when `statement`'s program vacuums (its `EXPLAIN` has a `Vacuum` opcode): the authorizer is not asked
  /// about VACUUM, and `VACUUM INTO` writes a copy of the store to any path.
  public func refuseVacuum(_ statement: SQLiteStatement) throws {
    // An EXPLAIN runs no program of its own.
    guard !statement.isExplain else { return }
    let explained = try prepare("EXPLAIN " + statement.sql)
    defer { explained.finalize() }
    // EXPLAIN's columns: addr, opcode, p1…
    while try explained.step() {
      guard explained.text(at: 1) == "Vacuum" else { continue }
      throw SQLiteError(
        code: .auth,
        message: "refused: VACUUM is not allowed: VACUUM INTO writes a copy of the store outside it, and a "
          + "VACUUM rewrites the store outside the variant's policy",
        sql: statement.sql, path: path)
    }
  }

  /// Prepares each statement of `script` in turn and hands it to `body`, finalizing it after.
  func forEachStatement(of script: String, _ body: (SQLiteStatement) throws -> Void) throws {
    let db = try requireOpen()
    let bytes = Array(script.utf8CString)
    try bytes.withUnsafeBufferPointer { buffer in
      guard var cursor = buffer.baseAddress else { return }
      while cursor.pointee != 0 {
        var handle: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        try SQLiteError.check(
          sqlite3_prepare_v3(db, cursor, -1, 0, &handle, &tail), db: db, sql: String(cString: cursor),
          path: path)
        defer { if let tail { cursor = tail } }
        guard let handle else {
          if tail == nil || tail == cursor { return }
          continue
        }
        let statement = SQLiteStatement(handle: handle, sql: String(cString: sqlite3_sql(handle)), path: path)
        defer { statement.finalize() }
        try body(statement)
        if tail == nil { return }
      }
    }
  }
}
