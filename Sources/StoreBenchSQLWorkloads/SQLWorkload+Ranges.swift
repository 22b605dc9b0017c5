import StoreBenchCore

/// The values a `sql` file's generators take with one parameter set, checked against what the harness can make
/// before anything is generated: a dry run refuses them (exit 64) instead of every row failing later.
extension SQLWorkload {
  /// Throws a ``ParameterError`` naming the file, line and column whose value is out of range: a table's rows
  /// outside 0…10 million (or a uniform count whose low end is above its high end), a text size outside 0…1 MiB,
  /// a sequence whose last value overflows 64 bits, a cycle below 1, a uniform draw with low above high, a share
  /// outside 0…100 %, a timestamp span outside 0…36,500 days.
  func checkRanges(_ values: [String: Int], count: Int) throws {
    var totals: [String: Int] = [:]
    for table in file.tables {
      let rows: Int
      switch table.rows {
      case .fixed(let fixed):
        rows = try fixed.value(values)
        try check(rows, 0...SQLWorkloadLimits.rows, "rows", table.line, "table \(table.name)")
      case .uniform(let low, let high):
        let (a, b) = (try low.value(values), try high.value(values))
        try check(a, 0...SQLWorkloadLimits.rows, "rows (low)", table.line, "table \(table.name)")
        try check(b, a...max(a, SQLWorkloadLimits.rows), "rows (high)", table.line, "table \(table.name)")
        // Per parent row: the table holds up to this many for each of its parent's rows.
        let (product, overflow) = b.multipliedReportingOverflow(by: totals[table.forEach ?? ""] ?? 1)
        rows = overflow ? Int.max : product
      }
      totals[table.name] = rows
      for column in table.columns {
        try check(
          column.generator, n: rows, line: column.line, "table \(table.name), column \(column.name)",
          values: values)
      }
    }
    for statement in definition.statements {
      for parameter in statement.parameters {
        try check(
          parameter.generator, n: count, line: parameter.line,
          "statement '\(statement.name)', parameter :\(parameter.name)", values: values)
      }
    }
  }

  private func check(
    _ generator: SQLGenerator, n: Int, line: Int, _ subject: String, values current: [String: Int]
  ) throws {
    switch generator {
    case .words(let size):
      switch size {
      case .fixed(let bytes):
        try check(try bytes.value(current), 0...SQLWorkloadLimits.textBytes, "bytes", line, subject)
      case .uniform(let low, let high), .spread(let low, let high):
        let (a, b) = (try low.value(current), try high.value(current))
        try check(a, 0...SQLWorkloadLimits.textBytes, "bytes", line, subject)
        try check(b, 0...SQLWorkloadLimits.textBytes, "bytes (largest)", line, subject)
      }
    case .sequence(let start, let step, let cycle):
      let (first, increment) = (try start.value(current), try step.value(current))
      var steps = max(n - 1, 0)
      if let cycle {
        let period = try cycle.value(current)
        try check(period, 1...Int.max, "cycle", line, subject)
        steps = min(steps, period - 1)
      }
      let (span, overflow) = increment.multipliedReportingOverflow(by: steps)
      let (_, past) = first.addingReportingOverflow(span)
      guard !overflow, !past else {
        throw ParameterError(
          "\(file.path):\(line): \(subject): the sequence from \(first) by \(increment) overflows 64 bits "
            + "within its \(n) values")
      }
    case .uniform(let low, let high, _):
      let (a, b) = (try low.value(current), try high.value(current))
      try check(b, a...Int.max, "uniform's high end", line, subject)
    case .share(let percent, _):
      try check(try percent.value(current), 0...100, "percent", line, subject)
    case .timestamp(let days):
      try check(try days.value(current), 0...36_500, "days", line, subject)
    case .integer, .text, .null, .choice, .existing, .parent, .record:
      break
    }
  }

  private func check(_ value: Int, _ range: ClosedRange<Int>, _ what: String, _ line: Int, _ subject: String) throws {
    guard range.contains(value) else {
      throw ParameterError(
        "\(file.path):\(line): \(subject): \(what) \(value) is out of range "
          + "\(range.lowerBound)…\(range.upperBound == Int.max ? "" : String(range.upperBound))")
    }
  }
}
