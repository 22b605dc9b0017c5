import Foundation
import GRDB
import StoreBenchAnalysis

/// A stored run's identity, as the analysis needs it.
public struct HistoryRun: Sendable, Equatable {
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
        try Row.fetchAll(
          db,
          sql: """
            SELECT id, commit_sha, dirty, branch, commit_time, started_at, machine, host, cpu_model, kernel,
              file_system, scenario_name, scenario_hash, partial FROM run
            """
        ).map { row in
          HistoryRun(
            id: row["id"], commit: row["commit_sha"], dirty: row["dirty"], branch: row["branch"],
            commitTime: row["commit_time"], startedAt: row["started_at"], machine: row["machine"],
            host: row["host"], cpuModel: row["cpu_model"], kernel: row["kernel"],
            fileSystem: row["file_system"], scenarioName: row["scenario_name"],
            scenarioHash: row["scenario_hash"], partial: row["partial"])
        }
      }
    }.sorted { $0.order < $1.order }
  }

  /// Every ok summary row.
  public func okRows() throws -> [HistoryRow] {
    try Self.wrap(path) {
      try queue.read { db in
        // Each run's own column table names its rows' cells.
        var columns: [Int64: [String]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, summary_columns FROM run") {
          columns[row["id"]] =
            (try? JSONSerialization.jsonObject(with: Data((row["summary_columns"] as String).utf8)))
            as? [String]
        }
        return try Row.fetchAll(
          db,
          sql: """
            SELECT run_id, workload, backend, variant, size, parameters, dataset, status, n, cells
            FROM row WHERE status = 'ok'
            """
        ).map { row in
          let values =
            (try? JSONSerialization.jsonObject(with: Data((row["cells"] as String).utf8))) as? [String]
          let names = columns[row["run_id"]] ?? []
          let cells = Dictionary(zip(names, values ?? []).map { ($0, $1) }) { first, _ in first }
          let size: Int = row["size"]
          let key = RowKey(
            scenario: "", workload: row["workload"] as String, backend: row["backend"] as String,
            variant: row["variant"] as String, size: size, parameters: row["parameters"] as String)
          return HistoryRow(
            run: row["run_id"], key: key, dataset: row["dataset"], status: row["status"], n: row["n"],
            cells: cells)
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
        for row in try Row.fetchAll(
          db, sql: "SELECT run_id, backend, variant, durability, measured, cells FROM durability_class")
        {
          let key = "\(row["backend"] as String) [\(row["variant"] as String)]"
          let cells =
            ((row["cells"] as String?).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) })
            as? [String: String]
          let evidence = cells?["evidence"].flatMap { $0.isEmpty ? nil : $0 } ?? "declared"
          result[row["run_id"], default: [:]][key] = (
            "\(row["durability"] as String) (\(evidence))", (row["measured"] as String) == "yes"
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
