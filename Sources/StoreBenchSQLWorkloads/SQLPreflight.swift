import SQLiteAPI
import StoreBenchCore

/// Checks a parsed `sql` workload file against SQLite itself before any store opens: the schema runs in an
/// in-memory database, every fill table and column exists there, every statement and check prepares (as one
/// statement), every parameter has a generator and every generator a parameter, checks only read, and an operation
/// that writes has a check with an expected value. Each error names the file's line and quotes SQLite's message.
/// It also records each statement's parameter order and whether it writes.
///
/// The file is untrusted input: everything it brings — schema, fill tables, statements, checks — is prepared and
/// run here under SQLite's authorizer with the rule of ``SQLiteConfinement`` (no other database, no VACUUM, no
/// transaction statements, only read-only pragmas), so a dry run's validation writes nothing but this private
/// in-memory database, and a statement the rule refuses is an error naming its line before any store opens. The
/// stores run the same text (the SQLite backend under the same authorizer again; GRDB installs its own authorizer on
/// its connections, so for grdb this check is the one that holds).
struct SQLPreflight {
  let file: SQLWorkloadFile
  /// How long the preflight may run the file's schema and prepare its statements.
  static let seconds = 30.0
  /// The private database's largest size in pages (of 4 KiB: 128 MiB).
  static let maxPages = 32_768

  func fail(_ line: Int, _ subject: String, _ message: String) -> SQLWorkloadError {
    SQLWorkloadError(file: file.path, line: line, subject: subject, message: message)
  }

  func check(_ parsed: inout SQLWorkloadFile) throws {
    let connection = try SQLiteConnection(path: ":memory:")
    defer { try? connection.close() }
    // Bounds on the file's schema run here: time, and the private database's size.
    try connection.limitRunTime(seconds: Self.seconds)
    try connection.execute("PRAGMA max_page_count = \(Self.maxPages)")
    do {
      try connection.executeConfined(file.schema)
    } catch let error as SQLiteError where error.code.primary == .interrupt {
      throw fail(
        file.schemaLine, "schema",
        "stopped after \(Int(Self.seconds)) s, the bound of checking a workload file's schema (an unbounded "
          + "query?): SQLite: \(error.message)")
    } catch let error as SQLiteError {
      throw fail(file.schemaLine, "schema", "SQLite: \(error.message)")
    }
    var filled: [String: [String]] = [:]
    for table in file.tables {
      try check(table, filled: filled, on: connection)
      filled[table.name] = table.columns.map(\.name)
    }
    for (index, operation) in file.operations.enumerated() {
      for (number, statement) in operation.statements.enumerated() {
        let subject = "statement '\(statement.name)' of operation '\(operation.name)'"
        let prepared: SQLiteStatement
        do {
          prepared = try connection.prepareConfined(statement.sql)
        } catch let error as SQLiteError {
          throw fail(statement.line, subject, "SQLite: \(error.message)")
        }
        defer { prepared.finalize() }
        parsed.operations[index].statements[number].binding = try binding(prepared, statement, subject)
        parsed.operations[index].statements[number].writes = !prepared.isReadOnly
        for parameter in statement.parameters {
          try checkReferences(parameter, filled: filled, subject: "\(subject), parameter :\(parameter.name)")
        }
      }
      try check(parsed.operations[index], on: connection)
    }
  }

  private func check(_ table: SQLWorkloadFile.Table, filled: [String: [String]], on connection: SQLiteConnection)
    throws
  {
    let subject = "fill of table \(table.name)"
    if let parent = table.forEach, filled[parent] == nil {
      throw fail(table.line, subject, "for_each: table \(parent) is not filled before this one")
    }
    for column in table.columns {
      if case .parent(let name) = column.generator, !(filled[table.forEach ?? ""] ?? []).contains(name) {
        throw fail(
          column.line, "\(subject), column \(column.name)",
          "parent: \(table.forEach ?? "") has no generated column \(name)")
      }
      try checkReferences(column, filled: filled, subject: "\(subject), column \(column.name)")
    }
    let names = table.columns.map { "\"\($0.name.replacingOccurrences(of: "\"", with: "\"\""))\"" }
    let sql =
      "INSERT INTO \"\(table.name.replacingOccurrences(of: "\"", with: "\"\""))\"(\(names.joined(separator: ", "))) VALUES ("
      + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
    do {
      try connection.prepareConfined(sql).finalize()
    } catch let error as SQLiteError {
      throw fail(table.line, subject, "SQLite: \(error.message)")
    }
  }

  private func checkReferences(_ column: SQLWorkloadFile.Column, filled: [String: [String]], subject: String) throws {
    if case .existing(let table, let name) = column.generator, !(filled[table] ?? []).contains(name) {
      throw fail(column.line, subject, "existing: no table \(table) with a generated column \(name) is filled")
    }
  }

  /// The generator of each SQLite parameter 1…n of `prepared`.
  private func binding(_ prepared: SQLiteStatement, _ statement: SQLWorkloadFile.Statement, _ subject: String)
    throws -> [Int]
  {
    var binding: [Int] = []
    var used = Set<String>()
    let generators = statement.parameters.map(\.name)
    if prepared.parameterCount > 0 {
      for index in 1...prepared.parameterCount {
        guard let name = prepared.parameterName(at: index), let prefix = name.first, ":@$".contains(prefix)
        else {
          throw fail(
            statement.line, subject, "parameter \(index) has no name: write :name and give it a generator")
        }
        let key = String(name.dropFirst())
        guard let generator = generators.firstIndex(of: key) else {
          let known = generators.isEmpty ? "none" : generators.joined(separator: ", ")
          throw fail(
            statement.line, subject, "parameter \(name) has no generator (this statement's: \(known))")
        }
        binding.append(generator)
        used.insert(key)
      }
    }
    if let unused = statement.parameters.first(where: { !used.contains($0.name) }) {
      throw fail(unused.line, subject, "generator '\(unused.name)' matches no parameter of the statement")
    }
    return binding
  }

  private func check(_ operation: SQLWorkloadFile.Operation, on connection: SQLiteConnection) throws {
    let subject = "operation '\(operation.name)'"
    if let check = operation.check {
      let prepared: SQLiteStatement
      do {
        prepared = try connection.prepareConfined(check.sql)
      } catch let error as SQLiteError {
        throw fail(check.line, "check of \(subject)", "SQLite: \(error.message)")
      }
      defer { prepared.finalize() }
      guard prepared.isReadOnly, prepared.columnCount > 0 else {
        throw fail(check.line, "check of \(subject)", "a check must be a query that only reads")
      }
      guard prepared.parameterCount == 0 else {
        throw fail(check.line, "check of \(subject)", "a check takes no parameters")
      }
    }
    if let writer = operation.statements.first(where: \.writes), operation.check?.expect == nil {
      throw fail(
        operation.line, subject,
        "statement '\(writer.name)' (line \(writer.line)) writes, so the operation needs a check with an expected "
          + "value (check: {sql: SELECT count(*) …, expect: stored + count}) that proves the writes happened")
    }
  }
}
