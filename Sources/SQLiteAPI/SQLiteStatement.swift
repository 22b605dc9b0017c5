import CSQLite

/// A prepared statement, reusable through ``reset()``. Finalize it before closing its connection.
public final class SQLiteStatement {
    private unowned let connection: SQLiteConnection
    private var handle: OpaquePointer?
    /// The SQL text, for error messages.
    public let sql: String

    init(connection: SQLiteConnection, handle: OpaquePointer, sql: String) {
        self.connection = connection
        self.handle = handle
        self.sql = sql
    }

    deinit { if let handle { sqlite3_finalize(handle) } }

    private static let transient = csqlite_transient()

    /// Binds text to the 1-based parameter `index` (SQLite copies the bytes).
    public func bind(_ value: String, at index: Int32) throws {
        try connection.check(sql) {
            var value = value
            return value.withUTF8 { buffer in
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    return sqlite3_bind_text(handle, index, "", 0, Self.transient)  // "" and not NULL
                }
                return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    sqlite3_bind_text(handle, index, $0, Int32(buffer.count), Self.transient)
                }
            }
        }
    }

    /// Binds a 64-bit integer to the 1-based parameter `index`.
    public func bind(_ value: Int64, at index: Int32) throws {
        try connection.check(sql) { sqlite3_bind_int64(handle, index, value) }
    }

    /// Binds an integer to the 1-based parameter `index`.
    public func bind(_ value: Int, at index: Int32) throws {
        try bind(Int64(value), at: index)
    }

    /// Advances one row: true when a row is available, false when the statement is done.
    @discardableResult
    public func step() throws -> Bool {
        let rc = try connection.check(sql, accepting: [SQLITE_ROW, SQLITE_DONE]) { sqlite3_step(handle) }
        return rc == SQLITE_ROW
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

    /// Column `index` (0-based) of the current row as a 64-bit integer.
    public func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// Releases the statement. Safe to call more than once.
    public func finalize() {
        if let handle { sqlite3_finalize(handle) }
        handle = nil
    }
}
