import StoreBenchCore

/// The rows a `sql` workload file's fill writes, generated once per parameter set (every backend and repetition then
/// stores the same rows), and the values each operation's parameters take at each execution.
struct SQLFillData {
  struct TableRows {
    var name: String
    var columns: [String]
    var rows: [[SQLValue]]
  }

  var tables: [TableRows] = []
  /// FNV-1a of the file, the parameters and every generated value.
  var fingerprint: String

  init(file: SQLWorkloadFile, parameters: [String: Int], generator: DatasetGenerator) throws {
    var drawer = SQLValueDrawer(generator: generator, parameters: parameters, file: file.path)
    var hash = FNV1a()
    hash.combine(file.fileHash)
    for (name, value) in parameters.sorted(by: { $0.key < $1.key }) {
      hash.combine(name)
      hash.combine(Int64(value))
    }
    for table in file.tables {
      let rows = try drawer.rows(of: table, filled: tables)
      for row in rows { for value in row { value.combine(into: &hash) } }
      tables.append(TableRows(name: table.name, columns: table.columns.map(\.name), rows: rows))
    }
    fingerprint = hash.hex
  }

  /// The parameters of every statement of `operation` at each of its `count` executions:
  /// `[execution][statement]`, each in SQLite's parameter order.
  func executions(
    of operation: SQLWorkloadFile.Operation, count: Int, file: SQLWorkloadFile, parameters: [String: Int],
    generator: DatasetGenerator
  ) throws -> [[[SQLValue]]] {
    var drawer = SQLValueDrawer(generator: generator, parameters: parameters, file: file.path)
    var rng = generator.stream(salt: SQLGenerator.stream(operation.stream))
    var executions: [[[SQLValue]]] = []
    executions.reserveCapacity(count)
    for n in 0..<count {
      var values: [[SQLValue]] = []
      for statement in operation.statements {
        var drawn: [SQLValue] = []
        var distinct = Set<SQLValue>()
        for column in statement.parameters {
          drawn.append(
            try drawer.value(
              column, n: n, rng: &rng, parent: nil, share: nil, distinct: &distinct, filled: tables))
        }
        values.append(statement.binding.map { drawn[$0] })
      }
      executions.append(values)
    }
    return executions
  }
}

/// Draws generated values (``SQLGenerator``) with a file's parameters.
struct SQLValueDrawer {
  let generator: DatasetGenerator
  let parameters: [String: Int]
  let file: String
  /// The last article made for `record` columns, by index.
  private var article: (index: Int, value: Article)?

  init(generator: DatasetGenerator, parameters: [String: Int], file: String) {
    (self.generator, self.parameters, self.file) = (generator, parameters, file)
  }

  func evaluate(_ expression: SQLExpression, _ column: SQLWorkloadFile.Column) throws -> Int {
    do {
      return try expression.value(parameters)
    } catch {
      throw SQLWorkloadError(
        file: file, line: column.line, subject: "column \(column.name)", message: error.message)
    }
  }

  /// Every row of `table`, after the tables `filled` before it.
  mutating func rows(of table: SQLWorkloadFile.Table, filled: [SQLFillData.TableRows]) throws -> [[SQLValue]] {
    var rng = generator.stream(salt: SQLGenerator.stream(table.stream))
    let file = self.file
    let fail = { (message: String) in
      SQLWorkloadError(file: file, line: table.line, subject: "table \(table.name)", message: message)
    }
    let parents: [[SQLValue]]
    let parentColumns: [String]
    if let name = table.forEach {
      guard let parent = filled.first(where: { $0.name == name }) else {
        throw fail("for_each: no table \(name) filled before")
      }
      (parents, parentColumns) = (parent.rows, parent.columns)
    } else {
      (parents, parentColumns) = ([[]], [])
    }
    let total: Int
    if case .fixed(let rows) = table.rows {
      total = try Self.checked(rows, parameters, fail)
    } else {
      total = 0
    }
    var shares: [Int: Set<Int>] = [:]
    for (index, column) in table.columns.enumerated() {
      guard case .share(let percent, let stream) = column.generator else { continue }
      let share = try evaluate(percent, column)
      guard (0...100).contains(share) else {
        throw fail("column \(column.name): share \(share) is not 0…100 percent")
      }
      shares[index] = Set(generator.sample(total * share / 100, of: total, salt: SQLGenerator.stream(stream)))
    }
    // Rows per parent row: a uniform draw between these (a fixed table has one "parent" and `total` rows).
    var perParent: ClosedRange<Int>?
    if case .uniform(let low, let high) = table.rows {
      let (a, b) = (try Self.checked(low, parameters, fail), try Self.checked(high, parameters, fail))
      guard a <= b else { throw fail("rows: uniform [\(a), \(b)] is empty") }
      perParent = a...b
    }
    var rows: [[SQLValue]] = []
    var n = 0
    for parent in parents {
      let count = perParent.map { $0.lowerBound + Int(rng.next() % UInt64($0.count)) } ?? total
      let parentRow = table.forEach == nil ? nil : (columns: parentColumns, row: parent)
      var distinct = Set<SQLValue>()
      for _ in 0..<count {
        var row: [SQLValue] = []
        row.reserveCapacity(table.columns.count)
        for (index, column) in table.columns.enumerated() {
          row.append(
            try value(
              column, n: n, rng: &rng, parent: parentRow, share: shares[index], distinct: &distinct,
              filled: filled))
        }
        rows.append(row)
        n += 1
      }
    }
    return rows
  }

  private static func checked(
    _ expression: SQLExpression, _ parameters: [String: Int],
    _ fail: (String) -> SQLWorkloadError
  ) throws -> Int {
    do {
      let value = try expression.value(parameters)
      guard (0...SQLWorkloadLimits.rows).contains(value) else {
        throw fail("rows: \(value) is out of range 0…\(SQLWorkloadLimits.rows)")
      }
      return value
    } catch let error as ParameterError {
      throw fail("rows: \(error.message)")
    }
  }

  /// The value of `column` for the n-th row (or execution).
  mutating func value(
    _ column: SQLWorkloadFile.Column, n: Int, rng: inout SplitMix64,
    parent: (columns: [String], row: [SQLValue])?, share: Set<Int>?, distinct: inout Set<SQLValue>,
    filled: [SQLFillData.TableRows]
  ) throws -> SQLValue {
    let file = self.file
    let fail = { (message: String) in
      SQLWorkloadError(file: file, line: column.line, subject: "column \(column.name)", message: message)
    }
    switch column.generator {
    case .integer(let expression): return .integer(Int64(try evaluate(expression, column)))
    case .text(let text): return .text(text)
    case .null: return .null
    case .sequence(let start, let step, let cycle):
      let position =
        try cycle.map { cycle -> Int in
          let length = try evaluate(cycle, column)
          guard length > 0 else { throw fail("sequence: cycle \(length) must be at least 1") }
          return n % length
        } ?? n
      let (product, overflow) = try evaluate(step, column).multipliedReportingOverflow(by: position)
      guard !overflow else { throw fail("sequence: the value overflows") }
      return .integer(Int64(try evaluate(start, column)) &+ Int64(product))
    case .uniform(let low, let high, let isDistinct):
      let (a, b) = (try evaluate(low, column), try evaluate(high, column))
      guard a <= b else { throw fail("uniform: [\(a), \(b)] is empty") }
      let (width, overflow) = b.subtractingReportingOverflow(a)
      guard !overflow, width < Int.max else { throw fail("uniform: [\(a), \(b)] is wider than 2^63") }
      let span = UInt64(width) + 1
      if isDistinct && distinct.count >= Int(min(span, UInt64(Int.max))) {
        throw fail("uniform: cannot draw \(distinct.count + 1) distinct values from [\(a), \(b)]")
      }
      while true {
        let value = SQLValue.integer(Int64(a) + Int64(rng.next() % span))
        if !isDistinct || distinct.insert(value).inserted { return value }
      }
    case .words(let size):
      let bytes: Int
      switch size {
      case .fixed(let expression): bytes = try evaluate(expression, column)
      case .uniform(let low, let high):
        let (a, b) = (try evaluate(low, column), try evaluate(high, column))
        guard 0 <= a, a <= b, b <= SQLWorkloadLimits.textBytes else {
          throw fail("words: bytes [\(a), \(b)] is empty or outside 0…\(SQLWorkloadLimits.textBytes)")
        }
        bytes = a + Int(rng.next() % UInt64(b - a + 1))
      case .spread(let median, let most):
        let (m, top) = (try evaluate(median, column), try evaluate(most, column))
        guard 0 <= m, m <= top, top <= SQLWorkloadLimits.textBytes else {
          throw fail(
            "words: the median \(m) is above the max \(top), or either is outside 0…\(SQLWorkloadLimits.textBytes)"
          )
        }
        bytes = RecordShape.spread(median: m, most: top, using: &rng)
      }
      guard (0...SQLWorkloadLimits.textBytes).contains(bytes) else {
        throw fail("words: \(bytes) bytes is out of range 0…\(SQLWorkloadLimits.textBytes)")
      }
      return .text(AwkwardText.paragraph(minimumBytes: bytes, using: &rng))
    case .choice(let values, let weights):
      let total = UInt64(weights.reduce(0, +))
      var pick = Int(rng.next() % total)
      for (value, weight) in zip(values, weights) {
        if pick < weight { return value }
        pick -= weight
      }
      return values[values.count - 1]
    case .timestamp(let days):
      let span = try evaluate(days, column)
      guard (1...36_500).contains(span) else { throw fail("timestamp: days \(span) is out of range 1…36500") }
      return .integer(
        DatasetGenerator.epochMilliseconds - Int64(rng.next() % UInt64(Int64(span) * 86_400_000)))
    case .existing(let table, let name):
      guard let rows = filled.first(where: { $0.name == table }), let index = rows.columns.firstIndex(of: name)
      else { throw fail("existing: no column \(name) in a table filled before (\(table))") }
      guard !rows.rows.isEmpty else { throw fail("existing: table \(table) has no rows to draw from") }
      return rows.rows[Int(rng.next() % UInt64(rows.rows.count))][index]
    case .parent(let name):
      guard let parent, let index = parent.columns.firstIndex(of: name) else {
        throw fail("parent: the parent table has no column \(name)")
      }
      return parent.row[index]
    case .record(let field, let from):
      let index = try (from.map { try evaluate($0, column) } ?? 0) + n
      guard index >= 0 else { throw fail("record: article number \(index) is negative") }
      if article?.index != index { article = (index, generator.article(at: index)) }
      let record = article!.value
      switch field {
      case "uid": return .text(record.uid)
      case "feed_id": return .integer(record.feedID)
      case "title": return .text(record.title)
      case "summary": return .text(record.summary)
      case "published": return .integer(record.published.millisecondsSince1970)
      default: return .integer(record.read ? 1 : 0)
      }
    case .share:
      guard let share else { throw fail("share: only a fill column can be a share") }
      return .integer(share.contains(n) ? 1 : 0)
    }
  }
}

/// The bounds of a `sql` workload file: what one case may generate and run.
public enum SQLWorkloadLimits {
  /// Rows of one table, and executions of one operation.
  public static let rows = 10_000_000
  /// Bytes of one generated text.
  public static let textBytes = 1 << 20
  /// Bytes of the file itself.
  public static let fileBytes = 1 << 20
  /// Bytes one case may generate (the fill's values and every execution's parameters), estimated before generating.
  public static let generatedBytes = 4 << 30
}
