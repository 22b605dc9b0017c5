import StoreBenchCore
import Synchronization

/// One operation of a `sql` workload file as a workload (`sql:<file>.<operation>`): the file's schema filled with
/// its generated rows (untimed), then the operation `count` times, each time as one app operation
/// (``SQLStore/operation(writes:_:)``), its statements' parameters bound from their generators.
///
/// Rows carry the operation's latency percentiles and counted costs per operation like any workload; the query plan
/// of every statement (`query_plan`) and each statement's own latency percentiles (`note`) are added. Verification:
/// the check query (required for an operation that writes, with its expected value) must return a row, and every
/// repetition on every backend of the same case must read the same answers (the checksum of every cell every
/// statement returned, then the check's row).
public struct SQLWorkload: Workload {
  public let file: SQLWorkloadFile
  public let operation: Int
  var definition: SQLWorkloadFile.Operation { file.operations[operation] }

  /// Every row records the plan its statements ran and their latencies.
  public func missingNotes(_ notes: [SampleColumn: String]) -> String? {
    !(notes[.queryPlan] ?? "").isEmpty && notes[.note]?.hasPrefix("statement latency µs") == true
      ? nil : "the row records no query plan or no statement latencies"
  }

  public init(file: SQLWorkloadFile, operation: Int) {
    self.file = file
    self.operation = operation
  }

  public var name: String { "sql:\(file.name).\(definition.name)" }
  public var summary: String { "\(definition.summary) (\(file.path), line \(definition.line))" }
  public var parameters: [WorkloadParameter] {
    file.parameters.map {
      WorkloadParameter(ParameterName($0.name), default: $0.defaultValue, range: $0.range, summary: $0.summary)
    }
  }
  public var sizeParameter: ParameterName { ParameterName(file.sizeParameter) }
  public var smokeParameters: [String: Int] {
    Dictionary(
      uniqueKeysWithValues: file.parameters.compactMap { parameter in parameter.smoke.map { (parameter.name, $0) }
      })
  }
  public var requires: StoreRoles { .sql }
  public var leavesStoreUnchanged: Bool { !definition.writes }

  /// Every expression of the file with `parameters`: a value out of bounds is refused before the run.
  public func validate(_ parameters: WorkloadParameters) throws {
    let values = parameters.values
    let count = try definition.count.value(values)
    guard (1...SQLWorkloadLimits.rows).contains(count) else {
      throw ParameterError(
        "operation \(definition.name): count \(count) is out of range 1…\(SQLWorkloadLimits.rows)")
    }
    for table in file.tables {
      for column in table.columns {
        for expression in column.generator.expressions { _ = try expression.value(values) }
      }
    }
    for statement in definition.statements {
      for column in statement.parameters {
        for expression in column.generator.expressions { _ = try expression.value(values) }
      }
    }
    _ = try definition.check?.expect?.value(values)
    try checkRanges(values, count: count)
    let bytes = try Self.generatedBytes(file, definition, values, count: count)
    guard bytes <= SQLWorkloadLimits.generatedBytes else {
      throw ParameterError(
        "the fill and the operation's parameters would generate about \(bytes >> 20) MiB; a case may generate "
          + "at most \(SQLWorkloadLimits.generatedBytes >> 20) MiB")
    }
  }

  /// The fill's and the executions' bytes (``generatedBytes(_:_:_:count:)``) as records of the default shape, so
  /// the plan's caps and the memory, disk and time bounds count a file of 1 MB texts as what it is.
  public func generatedRecords(_ parameters: WorkloadParameters) -> Int? {
    let values = parameters.values
    guard let count = try? definition.count.value(values),
      let bytes = try? Self.generatedBytes(file, definition, values, count: count)
    else { return nil }
    return bytes / RecordShape.bytesPerRecord
  }

  /// An upper estimate of the bytes a case generates: every row's values (the largest text each generator can make,
  /// plus the value itself), then every execution's parameters.
  static func generatedBytes(
    _ file: SQLWorkloadFile, _ operation: SQLWorkloadFile.Operation, _ values: [String: Int], count: Int
  ) throws -> Int {
    func estimate(_ columns: [SQLWorkloadFile.Column]) throws -> Int {
      try columns.reduce(0) { total, column in
        let text: Int
        switch column.generator {
        case .words(.fixed(let bytes)), .words(.uniform(_, let bytes)), .words(.spread(_, let bytes)):
          text = min(max(try bytes.value(values), 0), SQLWorkloadLimits.textBytes) + 16
        case .record: text = 400
        case .text(let value): text = value.utf8.count
        case .choice(let choices, _): text = choices.map(\.description.utf8.count).max() ?? 0
        default: text = 0
        }
        return total + 32 + max(text, 0)
      }
    }
    var rows: [String: Int] = [:]
    var bytes = 0
    for table in file.tables {
      let count: Int
      switch table.rows {
      case .fixed(let fixed): count = min(max(try fixed.value(values), 0), SQLWorkloadLimits.rows)
      case .uniform(_, let high):
        let perParent = min(max(try high.value(values), 0), SQLWorkloadLimits.rows)
        count = min(SQLWorkloadLimits.rows, (rows[table.forEach ?? ""] ?? 0)) * perParent
      }
      rows[table.name] = count
      let (product, overflow) = count.multipliedReportingOverflow(by: try estimate(table.columns))
      bytes = overflow ? Int.max : bytes &+ product
    }
    let perExecution = try operation.statements.reduce(0) { $0 + (try estimate($1.parameters)) }
    let (executions, overflow) = count.multipliedReportingOverflow(by: perExecution)
    return overflow || bytes == Int.max ? Int.max : bytes &+ executions
  }

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    do {
      let values = parameters.values
      let data = try file.fills.data(file, values, generator)
      let count = try definition.count.value(values)
      let executions = try data.executions(
        of: definition, count: count, file: file, parameters: values, generator: generator)
      let expected = try definition.check?.expect?.value(values)
      return SQLCase(file: file, operation: definition, data: data, executions: executions, expected: expected)
    } catch {
      return SQLCase(failing: error, file: file, operation: definition)
    }
  }
}

/// What a ``SQLCase`` prepared: the store, its statements' handles, and room for every statement's time at every
/// execution (allocated before the clock).
final class SQLPrepared {
  let store: any SQLStore
  let handles: [Int]
  /// Statement `s`'s time at execution `e`: index `s × executions + e`.
  var nanoseconds: [UInt64]

  init(store: any SQLStore, handles: [Int], executions: Int) {
    (self.store, self.handles) = (store, handles)
    nanoseconds = Array(repeating: 0, count: handles.count * executions)
  }
}

/// What the timed loop of a ``SQLCase`` read: the checksum of every cell and the rows.
struct SQLAnswers {
  var hash = FNV1a()
  var rows = 0
}

/// One parameter set of a ``SQLWorkload``.
final class SQLCase: WorkloadCase {
  let file: SQLWorkloadFile
  let operation: SQLWorkloadFile.Operation
  let data: SQLFillData?
  let executions: [[[SQLValue]]]
  let expected: Int?
  let failure: (any Error)?
  /// The first repetition's checksum: every later repetition, on every backend, must read the same.
  let reference = Mutex<(checksum: String, by: String)?>(nil)

  var fingerprint: String { data?.fingerprint ?? "" }

  init(
    file: SQLWorkloadFile, operation: SQLWorkloadFile.Operation, data: SQLFillData, executions: [[[SQLValue]]],
    expected: Int?
  ) {
    (self.file, self.operation, self.data, self.executions, self.expected) = (
      file, operation, data, executions, expected
    )
    failure = nil
  }

  init(failing error: any Error, file: SQLWorkloadFile, operation: SQLWorkloadFile.Operation) {
    (self.file, self.operation, data, executions, expected, failure) = (file, operation, nil, [], nil, error)
  }

  func subject(_ statement: SQLWorkloadFile.Statement) -> String {
    "statement '\(statement.name)' of operation '\(operation.name)'"
  }

  /// Untimed: the schema and the rows (once per case for an operation that only reads), the statements prepared,
  /// their plans noted.
  func prepare(_ run: Repetition) throws -> SQLPrepared {
    if let failure { throw failure }
    guard let data else { throw VerificationError("no data") }
    try run.fill("\(file.name) tables", content: data.fingerprint) {
      let store = try run.store(as: (any SQLStore).self)
      try run.bounded(stop: store.interrupter) {
        try store.createSchema(file.schema)
        for table in data.tables {
          try store.insert(into: table.name, columns: table.columns, rows: table.rows)
        }
      }
    }
    let store = try run.store(as: (any SQLStore).self)
    var handles: [Int] = []
    var plans: [String] = []
    for statement in operation.statements {
      do {
        handles.append(try store.prepareStatement(statement.sql))
        plans.append("\(statement.name): " + (try store.queryPlan(statement.sql)))
      } catch {
        throw SQLWorkloadError(
          file: file.path, line: statement.line, subject: subject(statement), message: "\(error)")
      }
    }
    run.note(.queryPlan, plans.joined(separator: " | "))
    return SQLPrepared(store: store, handles: handles, executions: executions.count)
  }

  /// Timed: the operation `count` times; each statement's time is read around it as well.
  func measure(_ prepared: SQLPrepared, _ run: Repetition) throws -> Measured<SQLAnswers> {
    var answers = SQLAnswers()
    // The app's statements are the file's: a watchdog stops one that runs past the repetition's bound.
    try run.bounded(stop: prepared.store.interrupter) {
      try measureEach(prepared, run, &answers)
    }
    return Measured(ops: executions.count, answers)
  }

  private func measureEach(_ prepared: SQLPrepared, _ run: Repetition, _ answers: inout SQLAnswers) throws {
    let (store, handles, count) = (prepared.store, prepared.handles, executions.count)
    let statements = operation.statements
    let writes = operation.writes
    try run.latencies.timeEach(executions.indices) { execution in
      let values = executions[execution]
      do {
        try store.operation(writes: writes) {
          for index in handles.indices {
            let start = monotonicNanoseconds()
            do {
              answers.rows += try store.run(handles[index], values[index], into: &answers.hash)
            } catch {
              throw SQLWorkloadError(
                file: file.path, line: statements[index].line, subject: subject(statements[index]),
                message: "execution \(execution + 1) of \(executions.count) failed: \(error)")
            }
            prepared.nanoseconds[index * count + execution] = monotonicNanoseconds() &- start
          }
        }
      } catch let error as SQLWorkloadError {
        throw error
      } catch {
        throw SQLWorkloadError(
          file: file.path, line: operation.line, subject: "operation '\(operation.name)'",
          message: "execution \(execution + 1) of \(executions.count) failed to commit: \(error)")
      }
    }
  }

  /// Untimed: the check, agreement with the first repetition, the statements' latency percentiles.
  func verify(_ answers: SQLAnswers, _ prepared: SQLPrepared, _ run: Repetition) throws
    -> String
  {
    var hash = answers.hash
    if let check = operation.check {
      let rows = try run.bounded(stop: prepared.store.interrupter) { try prepared.store.query(check.sql) }
      let subject = "check of operation '\(operation.name)'"
      guard let first = rows.first else {
        throw SQLWorkloadError(
          file: file.path, line: check.line, subject: subject,
          message: "the check returned nothing; it must return a row that proves the work (a count, a sum)")
      }
      if let expected, first.first != .integer(Int64(expected)) {
        throw VerificationError(
          "\(file.path):\(check.line): \(subject) read \(first.first?.description ?? "no column"), "
            + "expected \(expected) (\(check.expect!))")
      }
      for row in rows { for value in row { value.combine(into: &hash) } }
    } else if answers.rows == 0 {
      throw VerificationError(
        "\(file.path):\(operation.line): operation '\(operation.name)' read no row in \(executions.count) "
          + "executions: nothing proves the work (give it a check query)")
    }
    let checksum = hash.hex
    let label = "\(run.launch.backend) [\(run.launch.variant)]"
    let agreed = reference.withLock { first -> (checksum: String, by: String) in
      if let first { return first }
      first = (checksum, label)
      return (checksum, label)
    }
    guard agreed.checksum == checksum else {
      throw VerificationError(
        "operation '\(operation.name)' read answers with checksum \(checksum); \(agreed.by) read \(agreed.checksum) "
          + "from the same rows and parameters")
    }
    let count = executions.count
    let times = operation.statements.indices.map { Array(prepared.nanoseconds[$0 * count..<($0 + 1) * count]) }
    run.appendNote(Self.latencyNote(times, operation.statements))
    return checksum
  }

  /// `statement latency µs (n=100 each): list p50 12.1 p90 14.0 p99 20.3 max 25.0; …`.
  static func latencyNote(_ nanoseconds: [[UInt64]], _ statements: [SQLWorkloadFile.Statement]) -> String {
    let parts = zip(statements, nanoseconds).map { statement, times -> String in
      let sorted = times.sorted()
      func quantile(_ q: Double) -> String {
        guard !sorted.isEmpty else { return "-" }
        let index = min(sorted.count - 1, Int((q * Double(sorted.count)).rounded(.up)) - 1)
        return formatMicroseconds(sorted[max(index, 0)])
      }
      return
        "\(statement.name) p50 \(quantile(0.5)) p90 \(quantile(0.9)) p99 \(quantile(0.99)) max \(quantile(1))"
    }
    return "statement latency µs (n=\(nanoseconds.first?.count ?? 0) each): " + parts.joined(separator: "; ")
  }

  private static func formatMicroseconds(_ nanoseconds: UInt64) -> String {
    let micro = Double(nanoseconds) / 1000
    return micro >= 100 ? String(Int(micro.rounded())) : String((micro * 10).rounded() / 10)
  }
}
