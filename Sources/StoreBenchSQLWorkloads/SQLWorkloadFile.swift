import StoreBenchCore
import Synchronization

/// A `sql` workload file, parsed and checked against SQLite (docs/WORKLOADS.md, "Your own SQL"): an app's schema,
/// how to fill it, and its operations, each a named statement or a short sequence of statements run as one app
/// operation, with the generators that bind their parameters and the check that proves the work.
public struct SQLWorkloadFile: Sendable {
  /// A declared whole-number parameter (`stored: {default: 20000, smoke: 200}`).
  public struct Parameter: Sendable {
    public var name: String
    public var defaultValue: Int
    public var range: ClosedRange<Int>
    public var smoke: Int?
    public var summary: String
  }

  /// A table the fill writes before the clock.
  public struct Table: Sendable {
    public var name: String
    public var line: Int
    /// The rows: a number, or with `forEach`, a seeded number per row of that table.
    public var rows: SQLGenerator.Count
    /// The table whose rows this one's rows belong to (`for_each`): `rows` is per parent row.
    public var forEach: String?
    /// The random stream every draw of this table takes its numbers from, in row then column order.
    public var stream: String
    public var columns: [Column]
  }

  /// A column (or a parameter) and the generator of its values.
  public struct Column: Sendable {
    public var name: String
    public var line: Int
    public var generator: SQLGenerator
  }

  /// One statement of an operation.
  public struct Statement: Sendable {
    public var name: String
    public var sql: String
    public var line: Int
    /// Generators by parameter name (without its `:`).
    public var parameters: [Column]
    /// The generator bound to each SQLite parameter 1…n (an index into `parameters`), from the preflight.
    public var binding: [Int] = []
    /// Whether the statement may change the database (`sqlite3_stmt_readonly` false), from the preflight.
    public var writes = false
  }

  /// The query that proves an operation's work, run after the clock: its first row must exist; with `expect`, its
  /// first column must equal the expression's value.
  public struct Check: Sendable {
    public var sql: String
    public var line: Int
    public var expect: SQLExpression?
  }

  /// An app operation: its statements, run `count` times a repetition, each time as one unit of work.
  public struct Operation: Sendable {
    public var name: String
    public var line: Int
    public var summary: String
    public var count: SQLExpression
    public var stream: String
    public var statements: [Statement]
    public var check: Check?
    /// Whether any statement writes.
    public var writes: Bool { statements.contains(where: \.writes) }
  }

  public var path: String
  public var name: String
  public var summary: String
  public var parameters: [Parameter]
  public var sizeParameter: String
  public var schema: String
  public var schemaLine: Int
  public var tables: [Table]
  public var operations: [Operation]
  /// FNV-1a of the file's bytes: part of every case's data fingerprint.
  public var fileHash: String
  /// The generated fills, shared by the file's operations: each operation is a workload of its own, and all of them
  /// fill the same tables with the same rows for one seed and parameter set.
  let fills = SQLFillCache()

  /// The workloads this file makes: one per operation, named `sql:<file name>.<operation>`.
  public var workloads: [SQLWorkload] { operations.indices.map { SQLWorkload(file: self, operation: $0) } }
}

/// An error in a `sql` workload file or in running one of its statements: the file, the line, what it concerns
/// (`statement 'newest' of operation 'list'`) and the message (SQLite's own where SQLite refused).
public struct SQLWorkloadError: Error, CustomStringConvertible, Sendable {
  public var file: String
  public var line: Int
  public var subject: String
  public var message: String

  public init(file: String, line: Int, subject: String, message: String) {
    (self.file, self.line, self.subject, self.message) = (file, line, subject, message)
  }

  public var description: String { "\(file):\(line): \(subject): \(message)" }
}

/// The rows a file's fill generated, by seed, record shape and parameters (``SQLWorkloadFile/fills``).
final class SQLFillCache: Sendable {
  private let fills = Mutex<[String: SQLFillData]>([:])

  /// The fill of `file` for `parameters` and `generator`, generated once.
  func data(_ file: SQLWorkloadFile, _ parameters: [String: Int], _ generator: DatasetGenerator) throws
    -> SQLFillData
  {
    let key =
      "\(generator.seed) \(generator.shape) "
      + parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    if let found = fills.withLock({ $0[key] }) { return found }
    let data = try SQLFillData(file: file, parameters: parameters, generator: generator)
    fills.withLock { $0[key] = data }
    return data
  }
}
