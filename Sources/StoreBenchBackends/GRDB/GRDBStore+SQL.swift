import Foundation
import GRDB
import StoreBenchContract

/// The `sql` workload's part of ``GRDBStore``, the way a GRDB app runs its own SQL: the schema as the app's one
/// migration (`DatabaseMigrator`), statements from each connection's statement cache (`cachedStatement(sql:)`), a
/// writing operation in `write` (one transaction), a reading one in `read` (a reader connection with `writer=pool`).
extension GRDBStore: SQLStore {
  func createSchema(_ schema: String) throws {
    try located {
      try writer.write { db in
        guard try Int.fetchOne(db, sql: "SELECT count(*) FROM article") == 0 else {
          throw StoreError.inconsistent("a sql workload needs a fresh store; table article has rows")
        }
        for table in try String.fetchAll(db, sql: SQLWorkloadMark.ownTables) {
          try db.execute(sql: "DROP TABLE IF EXISTS \(table.quotedDatabaseIdentifier)")
        }
        try db.execute(sql: "PRAGMA application_id = \(SQLWorkloadMark.applicationID)")
      }
      var migrator = DatabaseMigrator()
      migrator.registerMigration("sql workload schema") { db in try db.execute(sql: schema) }
      try migrator.migrate(writer)
    }
  }

  func insert(into table: String, columns: [String], rows: [[SQLValue]]) throws {
    let names = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
    let slots = Array(repeating: "?", count: columns.count).joined(separator: ", ")
    try located {
      try writer.write { db in
        let insert = try db.makeStatement(
          sql: "INSERT INTO \(table.quotedDatabaseIdentifier)(\(names)) VALUES (\(slots))")
        for row in rows { try insert.execute(arguments: StatementArguments(row.map(Self.databaseValue))) }
      }
    }
  }

  /// Prepared into the writer connection's statement cache and a reader's, as the timed calls take it from there
  /// (a pool's other reader connections prepare it on their first use, as an app's do).
  func prepareStatement(_ sql: String) throws -> Int {
    try located {
      try writer.writeWithoutTransaction { db in _ = try db.cachedStatement(sql: sql) }
      try writer.read { db in _ = try db.cachedStatement(sql: sql) }
    }
    sqlStatements.append(sql)
    return sqlStatements.count - 1
  }

  func operation(writes: Bool, _ body: () throws -> Void) throws {
    try located {
      let run = { (db: Database) throws in
        self.current = db
        defer { self.current = nil }
        try body()
      }
      if writes { try writer.write(run) } else { try writer.read(run) }
    }
  }

  func run(_ statement: Int, _ parameters: [SQLValue], into hash: inout FNV1a) throws -> Int {
    guard let db = current else { throw StoreError.inconsistent("a sql statement ran outside an operation") }
    let cached = try db.cachedStatement(sql: sqlStatements[statement])
    try cached.setArguments(StatementArguments(parameters.map(Self.databaseValue)))
    let cursor = try Row.fetchCursor(cached)
    var rows = 0
    while let row = try cursor.next() {
      rows += 1
      for value in row.databaseValues { Self.combine(value, into: &hash) }
    }
    return rows
  }

  var interrupter: @Sendable () -> Void {
    let writer = writer
    // GRDB's own thread-safe interrupt (sqlite3_interrupt on every connection of the writer).
    return { writer.interrupt() }
  }

  func queryPlan(_ sql: String) throws -> String {
    try located {
      try writer.read { db in
        // Parameters unbound, as SQLite plans them before binding: NULL for each (GRDB refuses missing ones).
        let explain = try db.makeStatement(sql: "EXPLAIN QUERY PLAN " + sql)
        explain.setUncheckedArguments(StatementArguments(Array(repeating: DatabaseValue.null, count: 1000)))
        return try Row.fetchAll(explain).map { $0["detail"] as String? ?? "?" }.joined(separator: "; ")
      }
    }
  }

  func query(_ sql: String) throws -> [[SQLValue]] {
    try located {
      try writer.read { db in
        try Row.fetchAll(db, sql: sql).map { row in row.databaseValues.map(Self.value(of:)) }
      }
    }
  }

  private static func databaseValue(_ value: SQLValue) -> DatabaseValue {
    switch value {
    case .null: .null
    case .integer(let integer): integer.databaseValue
    case .real(let real): real.databaseValue
    case .text(let text): text.databaseValue
    case .blob(let bytes): Data(bytes).databaseValue
    }
  }

  /// Adds a cell to `hash` as ``SQLValue/combine(into:)`` would, straight from GRDB's value (no copy of its bytes).
  private static func combine(_ value: DatabaseValue, into hash: inout FNV1a) {
    switch value.storage {
    case .null: hash.combineSQLNull()
    case .int64(let integer): hash.combine(integer)
    case .double(let real): hash.combineSQLReal(real)
    case .string(let text): hash.combine(text)
    case .blob(let data): data.withUnsafeBytes { hash.combineSQLBlob($0) }
    }
  }

  private static func value(of value: DatabaseValue) -> SQLValue {
    switch value.storage {
    case .null: .null
    case .int64(let integer): .integer(integer)
    case .double(let real): .real(real)
    case .string(let text): .text(text)
    case .blob(let data): .blob([UInt8](data))
    }
  }
}
