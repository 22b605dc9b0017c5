import Foundation
import StoreBenchContract
import StoreBenchMeasure

/// The rows of a `samples.csv`, read back for `compare` and `report`.
public struct SampleTable {
  public struct Row: Sendable {
    public let key: RowKey
    public let status: RowStatus
    public let repetition: Int
    /// Numeric cells by column name (empty cells are absent).
    public let values: [SampleColumn: Double]
    public let settings: String
    public let error: String
    /// The fingerprint of the generated data (`dataset`).
    public let dataset: String
    /// Why a budget's rules stopped the repetition (`budget_stop`: cut, dropped, certain); empty: they did not.
    public var budgetStop = ""

    /// What `compare` and `report` match the row by.
    public var comparisonKey: ComparisonKey { ComparisonKey(key, dataset: dataset) }
  }

  public let source: String
  public private(set) var rows: [Row]
  /// Every row's cells as read, in the file's column order.
  public private(set) var cells: [[String]]
  /// The file's header.
  public let header: [String]
  /// The columns the table was read by: their numbers are checked and kept in ``Row/values`` (a column the set does
  /// not know is kept as text in ``cells`` alone).
  public let columns: ColumnSet
  /// `environment.json` beside the samples, when present: whole (for the report's environment table and compare's
  /// "environment differs"), and typed (``RunEnvironment``) for every value a reader uses.
  public private(set) var environment: [String: Any]?
  public private(set) var runEnvironment: RunEnvironment?

  static let required = [
    SampleColumn.scenario, .workload, .backend, .variant, .size, .repetition, .status, .wallSeconds,
  ]
  .map(\.rawValue)

  /// The files `SampleTable(path:)` reads for `path`: samples.csv first, then summary.csv and environment.json.
  public static func inputFiles(_ path: String) -> [URL] {
    var isDirectory: ObjCBool = false
    let samples =
      FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
      ? URL(fileURLWithPath: path).appendingPathComponent("samples.csv") : URL(fileURLWithPath: path)
    let directory = samples.deletingLastPathComponent()
    return [
      samples, directory.appendingPathComponent("summary.csv"),
      directory.appendingPathComponent("environment.json"),
    ]
  }

  /// Reads `path`: a run directory (its `samples.csv`) or a samples file. A run folder (a manifest or a summary
  /// beside the samples) is read once, by the one reader's rules (``RunFolder``): its environment.json must be a
  /// storebench run's. Samples alone (`ab`'s merged sides, a fixture) are read by the samples' own rules, and an
  /// environment.json beside them must be a run's too.
  public init(path: String, columns: ColumnSet = .standard) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw CompareError("\(path): no such file or directory")
    }
    let inputs = Self.inputFiles(path)
    let file = inputs[0]
    guard FileManager.default.fileExists(atPath: file.path) else {
      throw CompareError("\(path): no samples.csv in this directory (not a storebench run directory?)")
    }
    guard
      (try? FileManager.default.attributesOfItem(atPath: file.path)[.type] as? FileAttributeType) == .typeRegular
    else {
      throw CompareError("\(file.path): not a regular file")
    }
    let environmentData = FileManager.default.contents(atPath: inputs[2].path)
    let directory = file.deletingLastPathComponent()
    // A folder storebench recorded (its manifest), or samples with a summary beside them, is a run folder: read
    // whole by the one reader, which refuses a missing or foreign environment.json as every reader does.
    let recorded = FileManager.default.fileExists(
      atPath: directory.appendingPathComponent(OutputMarks.manifestFileName).path)
    if recorded || FileManager.default.fileExists(atPath: inputs[1].path) {
      try self.init(folder: try RunFolder(directory.path, columns: columns))
      return
    }
    // Samples alone (`ab`'s merged sides, an exported file): an environment.json beside them must be a run's.
    if let environmentData, !RunEnvironment.isStoreBenchRun(environmentData) {
      throw CompareError(
        "\(inputs[2].path): not a storebench run's environment (it needs "
          + RunEnvironment.schemaKeys.joined(separator: ", ") + "); the samples beside it are not judged")
    }
    guard let data = FileManager.default.contents(atPath: file.path), let text = String(data: data, encoding: .utf8)
    else {
      throw CompareError("\(file.path): cannot read it as UTF-8 text")
    }
    try self.init(text: text, source: file.path, columns: columns)
    environment = environmentData.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    runEnvironment = RunEnvironment.read(environmentData)
  }

  /// The samples of a run folder already read by ``RunFolder``.
  public init(folder: RunFolder) throws {
    try self.init(
      header: folder.samples.header, rows: folder.samples.rows,
      source: folder.url.appendingPathComponent("samples.csv").path, columns: folder.columns)
    environment = (try? JSONSerialization.jsonObject(with: folder.environmentData)) as? [String: Any]
    runEnvironment = folder.environment
  }

  /// Rewrites every row's variant text with `upgrade(backend, variant)`: a run recorded before a backend gained a
  /// setting names its variant without it, and `upgrade` spells it as today's binary does (the new setting at its
  /// default, which reproduces the old behaviour), so the rows still match. Cells are left as read.
  /// Keeps the rows whose key `keep` accepts (`compare --filter`), their cells with them.
  public mutating func keepRows(where keep: (RowKey) -> Bool) {
    let kept = rows.indices.filter { keep(rows[$0].key) }
    (rows, cells) = (kept.map { rows[$0] }, kept.map { cells[$0] })
  }

  public mutating func upgradeVariants(_ upgrade: (_ backend: String, _ variant: String) -> String) {
    rows = rows.map { row in
      let key = RowKey(
        scenario: row.key.scenario, workload: row.key.workload, backend: row.key.backend,
        variant: upgrade(row.key.backend, row.key.variant), size: row.key.size,
        parameters: row.key.parameters)
      var upgraded = Row(
        key: key, status: row.status, repetition: row.repetition, values: row.values, settings: row.settings,
        error: row.error, dataset: row.dataset)
      upgraded.budgetStop = row.budgetStop
      return upgraded
    }
  }

  /// Throws unless the table has rows and its run finished (an interrupted run is not a result to gate on).
  public func requireComplete() throws {
    guard !rows.isEmpty else { throw CompareError("\(source): no rows, only a header") }
    if let interrupted = runEnvironment?.interrupted {
      throw CompareError(
        "\(source): the run was interrupted (\(interrupted)); finish it with storebench run --resume")
    }
  }

  /// Parses samples CSV text; `source` names it in errors.
  public init(text: String, source: String, columns: ColumnSet = .standard) throws {
    let decoded = try StrictCSV.decode(Data(text.utf8), source: source)
    try self.init(header: decoded.header, rows: decoded.rows, source: source, columns: columns)
  }

  /// Samples from a decoded table (a complete one: ``StrictCSV``'s checks); a repetition that appears twice is a
  /// duplicated line, refused (it would inflate n).
  init(header: [String], rows table: [[String]], source: String, columns: ColumnSet) throws {
    self.source = source
    self.columns = columns
    environment = nil
    let missing = Self.required.filter { !header.contains($0) }
    guard missing.isEmpty else {
      throw CompareError(
        "\(source): not a storebench samples.csv (missing columns: \(missing.joined(separator: ", ")))")
    }
    self.header = header
    cells = table
    let column = Dictionary(header.enumerated().map { ($0.element, $0.offset) }) { first, _ in first }
    rows = try table.enumerated().map { index, cells in
      func cell(_ id: SampleColumn) -> String { column[id.rawValue].map { cells[$0] } ?? "" }
      guard let size = Int(cell(.size)), let repetition = Int(cell(.repetition)),
        let status = RowStatus(rawValue: cell(.status))
      else { throw CompareError("\(source): line \(index + 2): bad size, repetition or status") }
      var values: [SampleColumn: Double] = [:]
      for column in columns.samples where column.isNumeric {
        guard case .sample(let id) = column.id, id != .size, id != .repetition else { continue }
        let text = cell(id)
        guard !text.isEmpty else { continue }
        values[id] = try MeasurementCheck.check(
          text, unit: column.unit, column: column.name,
          at: "\(source): line \(index + 2)")
      }
      let key = RowKey(
        scenario: cell(.scenario), workload: cell(.workload), backend: cell(.backend),
        variant: cell(.variant), size: size, parameters: cell(.parameters))
      var row = Row(
        key: key, status: status, repetition: repetition, values: values, settings: cell(.settings),
        error: cell(.error), dataset: cell(.dataset))
      row.budgetStop = cell(.budgetStop)
      return row
    }
    var seen = Set<String>()
    for row in rows {
      let label = row.comparisonKey.label
      guard seen.insert("\(label)\u{1F}\(row.repetition)").inserted else {
        throw CompareError(
          "\(source): \(label) repetition \(row.repetition) appears twice: samples.csv has duplicated rows")
      }
    }
  }

  /// The ok values of `metric` per row identity (scenario, workload, backend, variant, size, parameters, dataset);
  /// a counting pass's counts come from its `counted` row.
  func values(of metric: SampleColumn) -> [ComparisonKey: [Double]] {
    var grouped: [ComparisonKey: [Double]] = [:]
    for row in rows where row.status == .ok || row.status == .counted {
      if let value = row.values[metric] { grouped[row.comparisonKey, default: []].append(value) }
    }
    return grouped
  }

  /// Every row identity present, ok or not.
  var keys: Set<ComparisonKey> { Set(rows.map(\.comparisonKey)) }

  /// The status of each row identity: failed if any repetition failed, ok if any was ok, else unsupported (a counting
  /// pass's row says nothing about it).
  var statuses: [ComparisonKey: RowStatus] {
    var statuses: [ComparisonKey: RowStatus] = [:]
    for row in rows where row.status != .counted {
      switch (statuses[row.comparisonKey], row.status) {
      case (.failed?, _), (_, .failed): statuses[row.comparisonKey] = .failed
      case (.ok?, _), (_, .ok): statuses[row.comparisonKey] = .ok
      default: statuses[row.comparisonKey] = .unsupported
      }
    }
    return statuses
  }

  /// Rebuilds the samples as ``Sample`` values (for the Markdown summary of `report`).
  public func samples() -> [Sample] {
    rows.map { row in
      var sample = Sample(key: row.key, repetition: row.repetition, dataset: "")
      sample.status = row.status
      sample.settings = row.settings
      sample.error = row.error
      for (column, value) in row.values {
        sample.set(column, value, unit: columns.sample(column)?.unit ?? .ratio)
      }
      return sample
    }
  }
}

/// What `compare` and `report` match rows by: a row's whole key (scenario, workload, backend, variant, size,
/// parameters) and the fingerprint of its generated data; its fields read as the key's (`key.workload`). Rows whose
/// parameters or data differ are different rows: they are never compared or ranked together.
@dynamicMemberLookup
public struct ComparisonKey: Hashable, Sendable, Comparable {
  private let row: RowKey
  /// The dataset fingerprint ("" when the file has none).
  public let dataset: String

  init(_ key: RowKey, dataset: String = "") {
    row = key
    self.dataset = dataset
  }

  public subscript<Value>(dynamicMember field: KeyPath<RowKey, Value>) -> Value { row[keyPath: field] }

  /// The row without its parameters and data: two keys that agree here but not in full measured other work.
  var loose: ComparisonKey {
    ComparisonKey(
      RowKey(
        scenario: row.scenario, workload: row.workload, backend: row.backend, variant: row.variant,
        size: row.size, parameters: ""))
  }

  public static func < (a: Self, b: Self) -> Bool {
    if (a.scenario, a.workload, a.backend, a.variant) != (b.scenario, b.workload, b.backend, b.variant) {
      return (a.scenario, a.workload, a.backend, a.variant) < (b.scenario, b.workload, b.backend, b.variant)
    }
    return (a.size, a.parameters, a.dataset) < (b.size, b.parameters, b.dataset)
  }

  public var label: String {
    "\(row.workload) \(row.backend) [\(row.variant)] size=\(row.size)"
      + (row.parameters.isEmpty ? "" : " (\(row.parameters))")
  }
}

extension SampleTable {
  /// How the run looked at its rows (``LookSchedule``): recomputed intervals use the run's level. Older runs,
  /// which looked after every repetition, get a plain 95% interval.
  public var lookSchedule: LookSchedule {
    guard let values = runEnvironment?.repetitionPolicyValues, let looks = values.looks,
      let alpha = values.lookAlpha
    else { return .single }
    return LookSchedule(looks: looks, alpha: alpha)
  }

  /// The rule the run's answers are judged settled by (``AnswerRule``), at the run's maximum repetitions.
  public func answerRule(margin: TieMargin = .standard) -> AnswerRule {
    let values = runEnvironment?.repetitionPolicyValues
    return AnswerRule(maximum: values?.maximum ?? values?.looks?.last ?? 20, margin: margin)
  }

  /// The reach the run aimed for (default ±5%).
  public var targetPrecision: Double {
    runEnvironment?.repetitionPolicyValues?.targetPrecision ?? NoiseFlags.defaultTargetPrecision
  }

  /// How the run counted its costs (nil: not recorded, a run from before counting).
  public var counters: CostCounters.Availability? { runEnvironment?.counters }

  /// The cores of the machine that ran it (nil: not recorded).
  public var cores: Int? { runEnvironment?.cores }
}
