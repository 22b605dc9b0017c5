import Foundation
import StoreBenchMeasure

#if canImport(Glibc)
  import Glibc
#endif

/// A run folder read and checked once, by the same rules for every command that reads one (`compare`, `report`,
/// `history add`, `export`, `advise --report`): environment.json must be a storebench run's, summary.csv and
/// samples.csv complete tables (``StrictCSV``) whose numbers are measurements (finite, not negative where the unit
/// cannot be, not absurd), samples.csv must hold exactly the repetitions summary.csv counts, and every
/// `durability*.csv` beside it must be a crash result file (``CrashResult``'s rules). ``partialReason`` says why a run
/// is not a finished result (interrupted,
/// failed rows, no rows); readers that need a finished run call ``requireComplete()``.
public struct RunFolder: Sendable {
  public struct Table: Sendable {
    public var header: [String]
    public var rows: [[String]]
    /// The rows as cells by column name.
    public var cells: [[String: String]] {
      rows.map { Dictionary(zip(header, $0).map { ($0, $1) }) { first, _ in first } }
    }
    public func column(_ name: String) -> Int? { header.firstIndex(of: name) }
  }

  public let url: URL
  public let environmentData: Data
  public let environment: RunEnvironment
  public let summary: Table
  public let samples: Table
  /// durability.csv beside the run, when present.
  public let durability: Table?
  /// classes.csv beside the run, when present.
  public let classes: Table?
  /// unsynced.csv beside the run (an enumerated crash run's), when present.
  public let unsynced: UnsyncedEvidence?

  /// The columns the folder was read by (their numbers checked by unit; columns it does not know are kept as text).
  public let columns: ColumnSet

  /// Reads `path` (a run folder) by `columns` (the invocation's: the standard ones and its workloads'). Throws a
  /// ``RunFolderError`` naming the file (and line) of the first problem.
  public init(_ path: String, columns: ColumnSet = .standard) throws {
    let url = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    self.url = url
    self.columns = columns
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      throw RunFolderError(.notARun, "\(path): no such directory")
    }
    guard isDirectory.boolValue else {
      throw RunFolderError(.notARun, "\(path): not a directory (give a run folder)")
    }
    let missing = ["samples.csv", "summary.csv", "environment.json"].filter {
      !FileManager.default.fileExists(atPath: url.appendingPathComponent($0).path)
    }
    guard missing.isEmpty else {
      throw RunFolderError(
        .notARun, "\(url.path): no \(missing.joined(separator: ", ")) (not a storebench run folder)")
    }
    environmentData = try Self.read(url, "environment.json", required: true)!
    guard RunEnvironment.isStoreBenchRun(environmentData) else {
      throw RunFolderError(
        .notARun,
        "\(url.path)/environment.json: not a storebench run's environment (it needs "
          + RunEnvironment.schemaKeys.joined(separator: ", ") + ")")
    }
    do {
      environment = try JSONDecoder().decode(RunEnvironment.self, from: environmentData)
    } catch {
      throw RunFolderError(.notARun, "\(url.path)/environment.json: \(error)")
    }
    summary = try Self.table(url, "summary.csv", columns: columns.summary, required: true)!
    samples = try Self.table(url, "samples.csv", columns: columns.samples, required: true)!
    classes = try Self.table(url, "classes.csv", columns: [], required: false)
    // Crash results beside the run are read by the crash reader's rules too (columns, counts that are counts).
    var durability: Table?
    for file in CrashResult.files(in: url) {
      let table = try Self.table(url, file.lastPathComponent, columns: [], required: true)!
      _ = try CrashResult.read(header: table.header, rows: table.rows, source: file.path)
      if file.lastPathComponent == "durability.csv" { durability = table }
    }
    self.durability = durability
    unsynced = try UnsyncedEvidence.read(in: url)
    let keys: [SampleColumn] = [.workload, .backend, .variant, .size]
    let summaryColumns =
      (keys + [.status]).map(ColumnID.sample)
      + [SummaryStatistic.n, .failed, .medianSeconds].map(ColumnID.statistic)
    for column in summaryColumns.map(\.name) where summary.column(column) == nil {
      throw RunFolderError(.notARun, "\(url.path)/summary.csv: not a storebench summary (no \(column) column)")
    }
    for column in (keys + [.repetition, .status, .wallSeconds]).map(\.rawValue) where samples.column(column) == nil {
      throw RunFolderError(.notARun, "\(url.path)/samples.csv: not storebench samples (no \(column) column)")
    }
    try Self.checkRepetitions(
      samples: samples, summary: summary, source: url.appendingPathComponent("samples.csv").path)
  }

  /// The files a command reads when it reads this folder (what its output must never replace).
  public var files: [URL] {
    (["environment.json", "summary.csv", "samples.csv", "classes.csv", UnsyncedEvidence.fileName].map {
      url.appendingPathComponent($0)
    }
      + CrashResult.files(in: url)).filter { FileManager.default.fileExists(atPath: $0.path) }
  }

  /// Why the run is not a finished result, or nil.
  public var partialReason: String? {
    var reasons: [String] = []
    if let interrupted = environment.interrupted { reasons.append("interrupted (\(interrupted))") }
    let failed = summary.cells.filter { $0[.status] == RowStatus.failed.rawValue }
    if !failed.isEmpty {
      let names = failed.prefix(3).map {
        "\($0[.workload] ?? "?")/\($0[.backend] ?? "?") [\($0[.variant] ?? "?")]"
      }
      reasons.append(
        "\(failed.count) failed row(s): " + names.joined(separator: "; ") + (failed.count > 3 ? "; …" : ""))
    }
    if summary.rows.isEmpty { reasons.append("no rows") }
    return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
  }

  /// Throws unless the run finished with every row ok.
  public func requireComplete() throws {
    if let reason = partialReason { throw RunFolderError(.partial, "\(url.path): \(reason); not a finished run") }
  }

  /// A required file's bytes (nil for a missing optional one); anything but a regular file is refused.
  static func read(_ folder: URL, _ name: String, required: Bool) throws -> Data? {
    let file = folder.appendingPathComponent(name)
    var info = stat()
    guard stat(file.path, &info) == 0 else {
      if required {
        throw RunFolderError(.notARun, "\(file.path): missing (not a finished storebench run folder?)")
      }
      return nil
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw RunFolderError(.notARun, "\(file.path): \(FileKind.describe(info.st_mode)), not a regular file")
    }
    guard let data = FileManager.default.contents(atPath: file.path) else {
      throw RunFolderError(.notARun, "\(file.path): cannot read it")
    }
    return data
  }

  /// A checked table; numeric cells of `columns` must be measurements.
  static func table(_ folder: URL, _ name: String, columns: [ReportColumn], required: Bool) throws -> Table? {
    guard let data = try read(folder, name, required: required) else { return nil }
    let source = folder.appendingPathComponent(name).path
    let (header, rows) = try StrictCSV.decode(data, source: source)
    let numeric = columns.filter(\.isNumeric).compactMap { column in
      header.firstIndex(of: column.name).map { ($0, column) }
    }
    for (line, row) in rows.enumerated() {
      for (index, column) in numeric where !row[index].isEmpty {
        try MeasurementCheck.check(
          row[index], unit: column.unit, column: column.name,
          at: "\(source): line \(line + 2)")
      }
    }
    return Table(header: header, rows: rows)
  }

  /// samples.csv must hold exactly the repetitions summary.csv counts for each row (n + failed; one for an
  /// unsupported row), and a counting pass's `counted` row with counts exactly where summary.csv has their median:
  /// fewer is a cut, more is another run's rows. `source` names the samples in errors.
  public static func checkRepetitions(samples: Table, summary: Table, source: String) throws {
    func key(_ cells: [String: String]) -> String {
      [SampleColumn.workload, .backend, .variant, .size, .parameters].map { cells[$0] ?? "" }
        .joined(separator: "\u{1F}")
    }
    // The passes' counts per operation: a counted row holds them, and summary.csv their median.
    let passColumns = CountedCost.allCases.filter { $0.pass != nil }.map { SampleColumn.counted($0).perOp }
    var present: [String: Int] = [:]
    // Rows whose repetitions carry the counts themselves (a counting child's own run): no counted row is owed.
    var countedByRepetitions: Set<String> = []
    for row in samples.cells {
      let counted = row[.status] == RowStatus.counted.rawValue
      let hasCounts = passColumns.contains(where: { !(row[$0] ?? "").isEmpty })
      if !counted && hasCounts { countedByRepetitions.insert(key(row)) }
      // A counted row without counts (a region that launched a child) is in no median: it says why, nothing more.
      guard !counted || hasCounts else { continue }
      present[key(row), default: 0] += 1
    }
    var expected: [String: Int] = [:]
    for row in summary.cells {
      let count = (Int(row[.n] ?? "") ?? 0) + (Int(row[.failed] ?? "") ?? 0)
      let counted =
        !countedByRepetitions.contains(key(row))
          && passColumns.contains { !(row[.median($0)] ?? "").isEmpty } ? 1 : 0
      expected[key(row), default: 0] +=
        max(count, row[.status] == RowStatus.unsupported.rawValue ? 1 : 0) + counted
    }
    for (name, count) in expected.sorted(by: { $0.key < $1.key }) where present[name, default: 0] != count {
      let label = name.split(separator: "\u{1F}", omittingEmptySubsequences: false).prefix(4).joined(
        separator: " ")
      let found = present[name, default: 0]
      throw RunFolderError(
        .inconsistent,
        "\(source): \(label) has \(found) repetitions, summary.csv says "
          + "\(count): "
          + (found > count ? "samples.csv has rows of another run" : "samples.csv is cut short"))
    }
    if let extra = present.keys.sorted().first(where: { expected[$0] == nil }) {
      throw RunFolderError(
        .inconsistent,
        "\(source): rows of "
          + extra.replacingOccurrences(of: "\u{1F}", with: " ") + " that summary.csv does not have")
    }
  }
}

/// Whether a cell can be a measurement in its unit: finite, not negative where the unit cannot be, not absurd.
public enum MeasurementCheck {
  /// The largest value each unit may take (a repetition of 1e308 s is a damaged file, not a slow store).
  static func limit(_ unit: ReportColumn.Unit) -> Double {
    switch unit {
    case .seconds: 1e7  // about 116 days
    case .microseconds: 1e13
    default: 1e18
    }
  }

  /// The value of `text`; throws a ``RunFolderError`` naming `column` and `place` unless it is a usable value of
  /// `unit`.
  @discardableResult
  public static func check(_ text: String, unit: ReportColumn.Unit, column: String, at place: String) throws -> Double {
    guard let value = Double(text) else {
      throw RunFolderError(.badValue, "\(place): \(column) is '\(text.prefix(40))', not a number")
    }
    guard value.isFinite else {
      throw RunFolderError(.badValue, "\(place): \(column) is \(value), not a measurement")
    }
    let signed = unit == .ratio || unit == .kibibytes  // memory growth and ratios may be negative
    guard signed || value >= 0 else {
      throw RunFolderError(.badValue, "\(place): \(column) is negative (\(value))")
    }
    guard abs(value) <= limit(unit) else {
      throw RunFolderError(
        .badValue,
        "\(place): \(column) is \(value) \(unit.rawValue), beyond any measurement "
          + "(at most \(limit(unit)))")
    }
    return value
  }
}
