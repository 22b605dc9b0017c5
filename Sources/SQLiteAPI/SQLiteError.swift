import CSQLite

/// A SQLite result code (primary or extended), with Swift names for the codes callers match on.
///
/// Modelled on GRDB's `ResultCode`: usable in `catch let error as SQLiteError where error.code == .constraint`.
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// The primary code (the low byte of an extended code).
  public var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

  public static let ok = SQLiteResultCode(rawValue: SQLITE_OK)
  public static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
  public static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
  public static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
  public static let readOnly = SQLiteResultCode(rawValue: SQLITE_READONLY)
  public static let ioError = SQLiteResultCode(rawValue: SQLITE_IOERR)
  public static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
  public static let full = SQLiteResultCode(rawValue: SQLITE_FULL)
  public static let cantOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
  public static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
  public static let misuse = SQLiteResultCode(rawValue: SQLITE_MISUSE)
  public static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)
  /// A statement the authorizer refused (``SQLiteConfinement``).
  public static let auth = SQLiteResultCode(rawValue: SQLITE_AUTH)
  /// A statement stopped by `sqlite3_interrupt` or the progress handler (``SQLiteConnection/setDeadline(_:)``).
  public static let interrupt = SQLiteResultCode(rawValue: SQLITE_INTERRUPT)
  public static let row = SQLiteResultCode(rawValue: SQLITE_ROW)
  public static let done = SQLiteResultCode(rawValue: SQLITE_DONE)

  /// SQLite's own name for the code, e.g. `SQLITE_CONSTRAINT_UNIQUE` is reported as its message text
  /// by `sqlite3_errstr`; this property gives that text ("constraint failed", …).
  public var libraryDescription: String { String(cString: sqlite3_errstr(rawValue)) }

  public var description: String { "\(rawValue) (\(libraryDescription))" }
}

/// An error reported by SQLite: the library's code and message, plus the file and SQL involved.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
  /// The extended result code SQLite returned.
  public let code: SQLiteResultCode
  /// `sqlite3_errmsg` at the time of the failure (or the code's generic text when no connection exists).
  public let message: String
  /// The SQL being prepared or run, if any.
  public let sql: String?
  /// The database file.
  public let path: String

  public init(code: SQLiteResultCode, message: String, sql: String? = nil, path: String) {
    self.code = code
    self.message = message
    self.sql = sql
    self.path = path
  }

  /// The one error funnel of the wrapper: throws unless `rc` is `SQLITE_OK`. The message is `message` when
  /// given (e.g. `sqlite3_exec`'s), else the connection's current `sqlite3_errmsg`, else the code's generic text.
  @inline(__always)
  static func check(_ rc: Int32, db: OpaquePointer?, sql: String? = nil, path: String, message: String? = nil) throws {
    guard rc != SQLITE_OK else { return }
    let text = message ?? db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
    throw SQLiteError(code: SQLiteResultCode(rawValue: rc), message: text, sql: sql, path: path)
  }

  public var description: String {
    var text = "SQLite error \(code.rawValue) (\(code.libraryDescription)): \(message) [file: \(path)]"
    if let sql { text += " [sql: \(sql)]" }
    return text
  }
}
