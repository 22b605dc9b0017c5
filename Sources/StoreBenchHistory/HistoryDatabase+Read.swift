import Foundation
import GRDB
import StoreBenchAnalysis

/// A stored run's identity, as the analysis needs it: a GRDB record of the `run` table's columns it names.
public struct HistoryRun: Sendable, Equatable, Decodable, FetchableRecord {
  public var id: Int64
  public var commit: String
  public var dirty: Bool
  public var branch: String?
  public var commitTime: Double?
  public var startedAt: String
  public var machine: String
  public var host: String
  public var cpuModel: String
  public var kernel: String
  public var fileSystem: String
  public var scenarioName: String
  public var scenarioHash: String
  public var partial: String?
  /// `startedAt` in seconds since 1970 (0 when unreadable), parsed once: ``order`` is asked for every point of every
  /// series, and a date formatter per call made `check` of a 200-commit history take 90 s.
  public let startedAtSeconds: Double

  public init(
    id: Int64, commit: String, dirty: Bool, branch: String?, commitTime: Double?, startedAt: String,
    machine: String, host: String, cpuModel: String, kernel: String, fileSystem: String,
    scenarioName: String, scenarioHash: String, partial: String?
  ) {
    self.id = id
    self.commit = commit
    self.dirty = dirty
    self.branch = branch
    self.commitTime = commitTime
    self.startedAt = startedAt
    self.machine = machine
    self.host = host
    self.cpuModel = cpuModel
    self.kernel = kernel
    self.fileSystem = fileSystem
    self.scenarioName = scenarioName
    self.scenarioHash = scenarioHash
    self.partial = partial
    startedAtSeconds = ISO8601DateFormatter().date(from: startedAt)?.timeIntervalSince1970 ?? 0
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case id, dirty, branch, machine, host, kernel, partial
    case commit = "commit_sha"
    case commitTime = "commit_time"
    case startedAt = "started_at"
    case cpuModel = "cpu_model"
    case fileSystem = "file_system"
    case scenarioName = "scenario_name"
    case scenarioHash = "scenario_hash"
  }

  public init(from decoder: any Decoder) throws {
    let row = try decoder.container(keyedBy: CodingKeys.self)
    func text(_ key: CodingKeys) throws -> String { try row.decode(String.self, forKey: key) }
    self.init(
      id: try row.decode(Int64.self, forKey: .id), commit: try text(.commit),
      dirty: try row.decode(Bool.self, forKey: .dirty), branch: try row.decodeIfPresent(String.self, forKey: .branch),
      commitTime: try row.decodeIfPresent(Double.self, forKey: .commitTime), startedAt: try text(.startedAt),
      machine: try text(.machine), host: try text(.host), cpuModel: try text(.cpuModel), kernel: try text(.kernel),
      fileSystem: try text(.fileSystem), scenarioName: try text(.scenarioName), scenarioHash: try text(.scenarioHash),
      partial: try row.decodeIfPresent(String.self, forKey: .partial))
  }

  /// The commit as people read it: 9 hex digits, `+dirty` when the tree had local changes.
  public var shortCommit: String { String(commit.prefix(9)) + (dirty ? "+dirty" : "") }

  /// The machine and scenario: runs and series are compared only within one group.
  public var group: String { Self.group(machine: machine, scenarioHash: scenarioHash) }

  static func group(machine: String, scenarioHash: String) -> String { machine + "\u{1F}" + scenarioHash }

  /// How a machine key that the user named starts (`history add --machine NAME`).
  public static let namedMachinePrefix = "name:"

  /// The machine's name, when the user gave one.
  public var machineName: String? {
    machine.hasPrefix(Self.namedMachinePrefix) ? String(machine.dropFirst(Self.namedMachinePrefix.count)) : nil
  }

  /// The machine as a heading names it: "machine NAME" when named, its host otherwise.
  public var machineLabel: String { machineName.map { "machine \($0)" } ?? host }

  /// What differs between the runs of one named machine ("3 hosts, 2 kernels"), or nil when nothing does (an unnamed
  /// machine's runs never differ: its key is all of these).
  public static func spread(_ runs: [HistoryRun]) -> String? {
    let parts = [
      ("host", "hosts", \HistoryRun.host), ("CPU model", "CPU models", \.cpuModel),
      ("kernel", "kernels", \.kernel), ("file system", "file systems", \.fileSystem),
    ]
    .compactMap { _, plural, path -> String? in
      let count = Set(runs.map { $0[keyPath: path] }).count
      return count > 1 ? "\(count) \(plural)" : nil
    }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }

  /// Runs are ordered by when their commit was made (git's commit time), then by when they ran.
  public var order: (Double, String) { (commitTime ?? startedAtSeconds, startedAt) }
}

/// A stored summary row with its own cells.
public struct HistoryRow: Sendable {
  public var run: Int64
  /// The row's identity within its run (its scenario is the run's).
  public var key: RowKey
  public var dataset: String
  public var status: String
  public var n: Int
  public var cells: [String: String]
}

extension HistoryDatabase {
  /// Every run, oldest commit first.
  public func runs() throws -> [HistoryRun] {
    try Self.wrap(path) {
      try queue.read { db in
        try HistoryRun.fetchAll(db, sql: "SELECT \(HistoryRun.CodingKeys.allColumns) FROM run")
      }
    }.sorted { $0.order < $1.order }
  }

  /// Every ok summary row.
  public func okRows() throws -> [HistoryRow] {
    try Self.wrap(path) {
      try queue.read { db in
        // Each run's own column table names its rows' cells.
        var columns: [Int64: [String]] = [:]
        for run in try StoredColumns.fetchAll(db, sql: "SELECT \(StoredColumns.CodingKeys.allColumns) FROM run") {
          columns[run.id] = Self.decodedJSON(run.summaryColumns)
        }
        return try StoredRow.fetchAll(
          db, sql: "SELECT \(StoredRow.CodingKeys.allColumns) FROM row WHERE status = 'ok'"
        ).map { row in
          let names = columns[row.run] ?? []
          let values: [String] = Self.decodedJSON(row.cells) ?? []
          let key = RowKey(
            scenario: "", workload: row.workload, backend: row.backend, variant: row.variant, size: row.size,
            parameters: row.parameters)
          return HistoryRow(
            run: row.run, key: key, dataset: row.dataset, status: row.status, n: row.n,
            cells: Dictionary(zip(names, values).map { ($0, $1) }) { first, _ in first })
        }
      }
    }
  }

  /// The measured wall times of one row's ok repetitions in one run.
  public func sampleTimes(run: Int64, rowKey: String) throws -> [Double] {
    try Self.wrap(path) {
      try queue.read { db in
        try Double.fetchAll(
          db,
          sql: """
            SELECT wall_s FROM sample WHERE run_id = ? AND row_key = ? AND status = 'ok' AND wall_s IS NOT NULL
            """, arguments: [run, rowKey])
      }
    }
  }

  /// The durability class the report gave each strategy, by run, then by "backend [variant]": the measured class
  /// where crash trials ran, the declared one otherwise (`measured` says which); `durability` carries the report's
  /// evidence (its crash states and bound, as classes.csv's `evidence` column rendered it) beside the class.
  public func durabilityClasses() throws -> [Int64: [String: (durability: String, measured: Bool)]] {
    try Self.wrap(path) {
      try queue.read { db in
        var result: [Int64: [String: (durability: String, measured: Bool)]] = [:]
        for row in try StoredClass.fetchAll(
          db, sql: "SELECT \(StoredClass.CodingKeys.allColumns) FROM durability_class")
        {
          let cells: [String: String]? = row.cells.flatMap(Self.decodedJSON)
          let evidence = cells?["evidence"].flatMap { $0.isEmpty ? nil : $0 } ?? "declared"
          result[row.run, default: [:]]["\(row.backend) [\(row.variant)]"] = (
            "\(row.durability) (\(evidence))", row.measured == "yes"
          )
        }
        return result
      }
    }
  }

  /// How many runs, rows and samples the history holds.
  public func counts() throws -> (runs: Int, rows: Int, samples: Int, crashResults: Int) {
    try Self.wrap(path) {
      try queue.read { db in
        (
          try Int.fetchOne(db, sql: "SELECT count(*) FROM run") ?? 0,
          try Int.fetchOne(db, sql: "SELECT count(*) FROM row") ?? 0,
          try Int.fetchOne(db, sql: "SELECT count(*) FROM sample") ?? 0,
          try Int.fetchOne(db, sql: "SELECT count(*) FROM crash_result") ?? 0
        )
      }
    }
  }
}

/// The `run` table's column list of each run's summary cells.
private struct StoredColumns: Decodable, FetchableRecord {
  let id: Int64
  let summaryColumns: String

  enum CodingKeys: String, CodingKey, CaseIterable {
    case id
    case summaryColumns = "summary_columns"
  }
}

/// A `row` table record: a summary row's identity and its cells (a JSON array in its run's column order).
private struct StoredRow: Decodable, FetchableRecord {
  let run: Int64
  let workload, backend, variant, parameters, dataset, status, cells: String
  let size, n: Int

  enum CodingKeys: String, CodingKey, CaseIterable {
    case workload, backend, variant, parameters, dataset, status, cells, size, n
    case run = "run_id"
  }
}

/// A `durability_class` table record.
private struct StoredClass: Decodable, FetchableRecord {
  let run: Int64
  let backend, variant, durability, measured: String
  let cells: String?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case backend, variant, durability, measured, cells
    case run = "run_id"
  }
}

extension CodingKey where Self: CaseIterable {
  /// The keys as an SQL column list (`a, b, c`).
  static var allColumns: String { allCases.map(\.stringValue).joined(separator: ", ") }
}

extension HistoryDatabase {
  /// A JSON text cell decoded as `T`; nil when it is not one.
  static func decodedJSON<T: Decodable>(_ text: String) -> T? {
    try? JSONDecoder().decode(T.self, from: Data(text.utf8))
  }
}
