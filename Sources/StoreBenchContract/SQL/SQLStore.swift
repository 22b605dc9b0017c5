/// Role: a store that runs an app's own SQL (`sql` workload files, docs/WORKLOADS.md): the file's schema, its fill
/// and its statements, through the backend's own library and in its idiom (prepared statements reused, the variant's
/// transaction policy around each app operation, read-only operations as reads).
///
/// The workload checks the file against SQLite before any store opens (every statement prepares, every parameter
/// has a generator); a store still throws its library's error, with its message, when a statement fails.
public protocol SQLStore: Store {
    /// Untimed, on a fresh store: makes the store hold the file's schema alone. The store's own tables (empty in a
    /// fresh store) are dropped, the file is marked as a SQL workload's (``SQLWorkloadMark``) so that a reopen does
    /// not create them again, and `schema` (one or more statements) is run and committed.
    func createSchema(_ schema: String) throws
    /// Untimed: inserts `rows` (values in `columns` order) into `table`, committed on return.
    func insert(into table: String, columns: [String], rows: [[SQLValue]]) throws
    /// Untimed: prepares `sql` for ``run(_:_:into:)`` and returns its handle (0, 1, … in the order prepared).
    func prepareStatement(_ sql: String) throws -> Int
    /// Timed: one app operation, the statements `body` runs, under the variant's policy (one transaction, an
    /// auto-batch, autocommit); `writes` is false when every statement only reads (a read transaction where the
    /// library has one). Committed on return, as ``Store/unitOfWork(_:)``.
    func operation(writes: Bool, _ body: () throws -> Void) throws
    /// Timed: runs prepared statement `statement` with `parameters` bound to its parameters 1…n, adds every cell of
    /// every row it returns to `hash` (``SQLValue/combine(into:)``, row by row, column by column) and returns the
    /// number of rows.
    func run(_ statement: Int, _ parameters: [SQLValue], into hash: inout FNV1a) throws -> Int
    /// Untimed: `EXPLAIN QUERY PLAN` of `sql`, its steps' details joined by `; `.
    func queryPlan(_ sql: String) throws -> String
    /// Untimed: every row `sql` returns (a check query).
    func query(_ sql: String) throws -> [[SQLValue]]
}

/// The mark a SQL workload leaves in its SQLite file (`PRAGMA application_id`): a store opened on a marked file
/// holds the workload file's schema and does not create its own tables.
public enum SQLWorkloadMark {
    /// "SBSQ".
    public static let applicationID: Int32 = 0x5342_5351
}
