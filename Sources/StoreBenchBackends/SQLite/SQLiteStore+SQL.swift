import SQLiteAPI
import StoreBenchContract

/// The `sql` workload's part of ``SQLiteStore``: the file's schema in place of the store's own, its statements
/// prepared once and reused, each app operation under the variant's `txn` policy (`single`: one transaction;
/// `none`: autocommit per statement; `batch`: writing statements join the auto-batch).
extension SQLiteStore: SQLStore {
  func createSchema(_ schema: String) throws {
    try commitPending()
    try connection.transaction {
      guard try connection.scalarText("SELECT count(*) FROM article") == "0" else {
        throw StoreError.inconsistent("a sql workload needs a fresh store; table article has rows")
      }
      for table in try connection.columnTexts(SQLWorkloadMark.ownTables) {
        try connection.execute("DROP TABLE IF EXISTS \"\(table.replacingOccurrences(of: "\"", with: "\"\""))\"")
      }
      try connection.execute("PRAGMA application_id = \(SQLWorkloadMark.applicationID)")
      // The file's SQL under the rule of a workload file (SQLiteConfinement), as the preflight ran it.
      try connection.executeConfined(schema)
    }
  }

  func insert(into table: String, columns: [String], rows: [[SQLValue]]) throws {
    try commitPending()
    let names = columns.map { "\"\($0)\"" }.joined(separator: ", ")
    let slots = (1...max(columns.count, 1)).map { "?\($0)" }.joined(separator: ", ")
    let insert = try connection.prepareOne("INSERT INTO \"\(table)\"(\(names)) VALUES (\(slots))")
    defer { insert.finalize() }
    try connection.transaction {
      for row in rows {
        try Self.bind(row, to: insert)
        try insert.run()
      }
    }
  }

  func prepareStatement(_ sql: String) throws -> Int {
    let statement = try connection.prepareConfined(sql)
    sqlStatements.append((statement, !statement.isReadOnly))
    return sqlStatements.count - 1
  }

  func operation(writes: Bool, _ body: () throws -> Void) throws {
    if case .single = policy {
      try writes ? connection.transaction(body) : connection.readTransaction(body)
    } else {
      try body()
    }
  }

  func run(_ statement: Int, _ parameters: [SQLValue], into hash: inout FNV1a) throws -> Int {
    let (prepared, writes) = sqlStatements[statement]
    defer { prepared.reset() }
    try Self.bind(parameters, to: prepared)
    if writes { try beginWrite() }
    var rows = 0
    let columns = prepared.columnCount
    while try prepared.step() {
      rows += 1
      for column in 0..<columns { Self.combine(prepared, column, into: &hash) }
    }
    if writes { try endWrite() }
    return rows
  }

  func queryPlan(_ sql: String) throws -> String { try plan(sql) }

  var interrupter: @Sendable () -> Void {
    let interrupter = connection.interrupter
    return { interrupter() }
  }

  func query(_ sql: String) throws -> [[SQLValue]] {
    let select = try connection.prepareConfined(sql)
    defer { select.finalize() }
    var rows: [[SQLValue]] = []
    while try select.step() {
      rows.append((0..<select.columnCount).map { Self.value(select, $0) })
    }
    return rows
  }

  /// Binds `values` to parameters 1…n.
  private static func bind(_ values: [SQLValue], to statement: SQLiteStatement) throws {
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      switch value {
      case .null: try statement.bindNull(at: index)
      case .integer(let integer): try statement.bind(integer, at: index)
      case .real(let real): try statement.bind(real, at: index)
      case .text(let text): try statement.bind(text, at: index)
      case .blob(let bytes): try statement.bind(bytes, at: index)
      }
    }
  }

  /// Adds column `column` of the current row to `hash` exactly as ``SQLValue/combine(into:)`` would, without
  /// making the value.
  @inline(__always)
  private static func combine(_ statement: SQLiteStatement, _ column: Int32, into hash: inout FNV1a) {
    switch statement.columnType(at: column) {
    case .integer: hash.combine(statement.int64(at: column))
    case .real: hash.combineSQLReal(statement.double(at: column))
    case .text: statement.withBytes(at: column) { hash.combineSQLText(utf8: $0) }
    case .blob: statement.withBytes(at: column) { hash.combineSQLBlob($0) }
    case .null: hash.combineSQLNull()
    }
  }

  private static func value(_ statement: SQLiteStatement, _ column: Int32) -> SQLValue {
    switch statement.columnType(at: column) {
    case .integer: .integer(statement.int64(at: column))
    case .real: .real(statement.double(at: column))
    case .text: .text(statement.text(at: column))
    case .blob: .blob(statement.bytes(at: column))
    case .null: .null
    }
  }
}
