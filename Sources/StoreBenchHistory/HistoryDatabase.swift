import Foundation
import GRDB
import StoreBenchAnalysis
import StoreBenchMeasure

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The results history: an SQLite database (GRDB, rollback journal) of finished runs, each with its identity, its
/// summary and
/// sample rows whole (each run keeps its own column table: `run.summary_columns` and `run.sample_columns` name the
/// cells of its `row.cells` and `sample.cells` JSON arrays, in order) and its crash results.
///
/// Contract: ``add(_:allowPartial:)`` is atomic and idempotent — a run is stored whole or not at all, and a run whose
/// files were added before is reported as such and not stored again. Several processes may add at once: each add is
/// one `BEGIN IMMEDIATE` transaction and waits (up to a minute) for the others. The schema is declared by
/// ``migrator``; opening a database migrates it.
public final class HistoryDatabase: Sendable {
  public let path: String
  let queue: DatabaseQueue

  /// What ``add(_:allowPartial:)`` did.
  public enum AddOutcome: Equatable, Sendable {
    case added(run: Int64)
    case alreadyPresent(run: Int64)
  }

  /// Opens the history at `path`, migrating it when an older storebench wrote it. `create` makes a new one when
  /// there is none (`history add`); otherwise a missing history is an error (`check` and `html` only read).
  /// Never touches a file that is not a storebench history: an SQLite database with other tables, any other file,
  /// and anything but a regular file (a device, a FIFO, a directory) are refused before SQLite opens them (opening
  /// would add the history's tables, or a journal file beside a device).
  public init(path: String, create: Bool = true) throws {
    self.path = path
    guard !path.isEmpty else { throw HistoryError(.badArgument, "--db is empty; name the history file") }
    guard path.utf8.count < Int(PATH_MAX) else {
      throw HistoryError(
        .badArgument, "--db is \(path.utf8.count) bytes long; paths are limited to \(PATH_MAX - 1)")
    }
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw HistoryError(.badArgument, "\(path): the folder \(directory) does not exist")
    }
    var link = stat()
    var target = stat()
    if lstat(path, &link) == 0 {
      // A command that may write the history never writes through a link (the output funnel's rule).
      if create, link.st_mode & S_IFMT == S_IFLNK {
        throw HistoryError(
          .badArgument,
          "--db \(path) is a symlink; storebench does not write through links (name the file itself)")
      }
      // Only a regular file (or a symlink to one): SQLite would open a device or FIFO and leave its journal
      // beside it (`--db /dev/null` once left /dev/null-journal).
      guard stat(path, &target) == 0 else {
        throw HistoryError(
          .badArgument, "\(path): a symlink to nothing, not a history file; nothing was changed")
      }
      guard target.st_mode & S_IFMT == S_IFREG else {
        throw HistoryError(
          .badArgument,
          "\(path): \(FileKind.describe(target.st_mode)), not a history file; nothing was changed")
      }
      try Self.requireHistory(path)
    } else if !create {
      throw HistoryError(.empty, "\(path): no history here yet (storebench history add RUN_DIR creates it)")
    }
    var configuration = Configuration()
    configuration.busyMode = .timeout(60)
    configuration.label = "storebench history"
    // A rollback journal, not WAL: GRDB keeps a pool's -wal and -shm files beside the database for good, and a
    // command-line history is opened by one short process at a time (concurrent adds wait on the lock).
    queue = try Self.wrap(path) { try DatabaseQueue(path: path, configuration: configuration) }
    try Self.wrap(path) {
      if try queue.read({ try String.fetchOne($0, sql: "PRAGMA journal_mode") }) == "wal" {
        try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
      }
    }
    try Self.wrap(path) {
      // Two processes opening a new history at once may both see it unmigrated; the loser's CREATE fails, and
      // a later attempt finds the migrations applied (each migration is one transaction). The winner may still
      // be applying the next migration when the loser retries, so it retries a few times, a moment apart.
      var attempt = 1
      while true {
        do {
          try Self.migrator.migrate(queue)
          break
        } catch {
          guard attempt < 8 else { throw error }
          attempt += 1
          usleep(UInt32.random(in: 5_000...40_000))
        }
      }
    }
  }

  /// Closes the database. Call it when done (a process that exits without it leaves nothing behind either: the
  /// history uses a rollback journal, deleted at each commit).
  public func close() throws {
    try Self.wrap(path) { try queue.close() }
  }

  /// Throws unless the existing file at `path` is empty or a storebench history, reading it without writing.
  static func requireHistory(_ path: String, isPrivateCopy: Bool = false) throws {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    guard let size = attributes?[.size] as? Int, size > 0 else {
      // SQLite takes an empty file for an empty database. One a concurrent `add` has just created is being made;
      // an older one is some other empty file, not a history.
      let age = -((attributes?[.modificationDate] as? Date) ?? Date()).timeIntervalSinceNow
      if age > 10 {
        throw HistoryError(
          .badArgument,
          "\(path): an empty file, not a storebench history; nothing was changed "
            + "(remove it, or name a new path for the history)")
      }
      return
    }
    // A WAL-mode database opened even read-only gets -wal and -shm files beside it: inspect a private copy.
    if !isPrivateCopy, Self.isWALDatabase(path) {
      let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
        "storebench-history-\(UUID().uuidString)")
      try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
      defer { try? FileManager.default.removeItem(at: scratch) }
      let copy = scratch.appendingPathComponent("history.sqlite").path
      for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
        try? FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
      }
      do {
        try requireHistory(copy, isPrivateCopy: true)
      } catch let error as HistoryError {
        throw HistoryError(error.code, error.message.replacingOccurrences(of: copy, with: path))
      }
      return
    }
    var configuration = Configuration()
    configuration.readonly = true
    configuration.busyMode = .timeout(60)
    let tables: [String]
    let applied: [String]
    do {
      let queue = try DatabaseQueue(path: path, configuration: configuration)
      defer { try? queue.close() }
      (tables, applied) = try queue.read { db in
        let tables = try String.fetchAll(
          db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        let applied =
          tables.contains("grdb_migrations")
          ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
        return (tables, applied)
      }
    } catch let error as DatabaseError {
      throw HistoryError(
        .badArgument,
        "\(path): not a storebench history (SQLite says \(error.resultCode): \(error.message ?? "")); nothing was changed"
      )
    }
    let ours = migrator.migrations
    // Empty, or being created by a concurrent `add` (GRDB's migration table first, then the migrations), or ours.
    // Another GRDB app's database has migrations of its own: it is not ours even when they made no table.
    let empty = tables.allSatisfy { $0 == "grdb_migrations" } && applied.isEmpty
    guard empty || (!applied.isEmpty && applied.allSatisfy(ours.contains)) else {
      throw HistoryError(
        .badArgument,
        "\(path): an SQLite database but not a storebench history (its tables: "
          + tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
          + "); nothing was changed")
    }
  }

  /// The schema, one migration per change; a history written by an older storebench is upgraded on open.
  public static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1 runs, rows, samples, crash results") { db in
      try db.create(table: "run") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("fingerprint", .text).notNull().unique()
        t.column("commit_sha", .text).notNull()
        t.column("dirty", .boolean).notNull()
        t.column("branch", .text)
        t.column("commit_time", .double)
        t.column("started_at", .text).notNull()
        t.column("finished_at", .text)
        t.column("machine", .text).notNull()
        t.column("host", .text).notNull()
        t.column("cpu_model", .text).notNull()
        t.column("cores", .integer).notNull()
        t.column("memory_bytes", .integer).notNull()
        t.column("kernel", .text).notNull()
        t.column("file_system", .text).notNull()
        t.column("scenario_name", .text).notNull()
        t.column("scenario_hash", .text).notNull()
        t.column("libraries", .text).notNull()
        t.column("repetition_policy", .text).notNull()
        t.column("environment", .text).notNull()
        t.column("summary_columns", .text).notNull()
        t.column("sample_columns", .text).notNull()
        t.column("partial", .text)
        t.column("source", .text).notNull()
        t.column("added_at", .text).notNull()
      }
      try db.create(table: "row") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("run_id", .integer).notNull().references("run", onDelete: .cascade)
        t.column("row_key", .text).notNull()
        t.column("workload", .text).notNull()
        t.column("backend", .text).notNull()
        t.column("variant", .text).notNull()
        t.column("size", .integer).notNull()
        t.column("parameters", .text).notNull()
        t.column("dataset", .text).notNull()
        t.column("status", .text).notNull()
        t.column("n", .integer).notNull()
        t.column("median_s", .double)
        t.column("ci_low_s", .double)
        t.column("ci_high_s", .double)
        t.column("cells", .text).notNull()
      }
      try db.create(table: "sample") { t in
        t.column("run_id", .integer).notNull().references("run", onDelete: .cascade)
        t.column("row_key", .text).notNull()
        t.column("repetition", .integer)
        t.column("status", .text).notNull()
        t.column("wall_s", .double)
        t.column("cells", .text).notNull()
      }
      try db.create(table: "crash_result") { t in
        t.column("run_id", .integer).notNull().references("run", onDelete: .cascade)
        t.column("backend", .text).notNull()
        t.column("variant", .text).notNull()
        t.column("fault", .text).notNull()
        t.column("status", .text).notNull()
        t.column("cells", .text).notNull()
      }
      try db.create(table: "durability_class") { t in
        t.column("run_id", .integer).notNull().references("run", onDelete: .cascade)
        t.column("backend", .text).notNull()
        t.column("variant", .text).notNull()
        t.column("durability", .text).notNull()
        t.column("measured", .text).notNull()
        t.column("cells", .text).notNull()
      }
    }
    migrator.registerMigration("v2 series and sample lookups") { db in
      try db.create(
        index: "run_by_series", on: "run", columns: ["machine", "scenario_hash", "commit_time", "started_at"])
      try db.create(index: "sample_by_row", on: "sample", columns: ["run_id", "row_key"])
    }
    return migrator
  }

  /// Stores `record` in one transaction, or reports that the same run is already there. A partial run (interrupted,
  /// failed rows) is refused unless `allowPartial`; stored, it is marked partial.
  @discardableResult
  public func add(_ record: RunRecord, allowPartial: Bool = false) throws -> AddOutcome {
    if let reason = record.partialReason, !allowPartial {
      throw HistoryError(
        .partialRun, "\(record.source): \(reason); not added (--allow-partial adds it, marked partial)")
    }
    return try Self.wrap(path) {
      try queue.writeWithoutTransaction { db in
        var outcome = AddOutcome.alreadyPresent(run: 0)
        try db.inTransaction(.immediate) {
          if let id = try Int64.fetchOne(
            db, sql: "SELECT id FROM run WHERE fingerprint = ?", arguments: [record.fingerprint])
          {
            outcome = .alreadyPresent(run: id)
            return .commit
          }
          outcome = .added(run: try insert(record, into: db))
          return .commit
        }
        return outcome
      }
    }
  }

  private func insert(_ record: RunRecord, into db: Database) throws -> Int64 {
    let identity = record.identity
    try db.execute(
      sql: """
        INSERT INTO run (fingerprint, commit_sha, dirty, branch, commit_time, started_at, finished_at, machine, host,
          cpu_model, cores, memory_bytes, kernel, file_system, scenario_name, scenario_hash, libraries,
          repetition_policy, environment, summary_columns, sample_columns, partial, source, added_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [
        record.fingerprint, identity.commit, identity.dirty, identity.branch, identity.commitTime,
        identity.startedAt, identity.finishedAt, identity.machine, identity.host, identity.cpuModel,
        identity.cores, identity.memoryBytes, identity.kernel, identity.fileSystem, identity.scenarioName,
        identity.scenarioHash, identity.libraries, identity.repetitionPolicy, record.environmentJSON,
        Self.json(record.summaryColumns), Self.json(record.sampleColumns), record.partialReason, record.source,
        ISO8601DateFormatter().string(from: Date()),
      ])
    let run = db.lastInsertedRowID
    let datasets = record.datasets
    let rows = try db.makeStatement(
      sql: """
        INSERT INTO row (run_id, row_key, workload, backend, variant, size, parameters, dataset, status, n, median_s,
          ci_low_s, ci_high_s, cells) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
    for cells in record.summary {
      let key = RowKey(cells: cells).joinKey
      try rows.execute(arguments: [
        run, key, cells[.workload] ?? "", cells[.backend] ?? "", cells[.variant] ?? "",
        Int(cells[.size] ?? "") ?? 0, cells[.parameters] ?? "", datasets[key] ?? "", cells[.status] ?? "",
        Int(cells[.n] ?? "") ?? 0, cells[.medianSeconds].flatMap(Double.init),
        cells[.intervalLow].flatMap(Double.init), cells[.intervalHigh].flatMap(Double.init),
        Self.json(record.summaryColumns.map { cells[$0] ?? "" }),
      ])
    }
    let samples = try db.makeStatement(
      sql: """
        INSERT INTO sample (run_id, row_key, repetition, status, wall_s, cells) VALUES (?, ?, ?, ?, ?, ?)
        """)
    for cells in record.samples {
      try samples.execute(arguments: [
        run, RowKey(cells: cells).joinKey, cells[.repetition].flatMap { Int($0) },
        cells[.status] ?? "", cells[.wallSeconds].flatMap(Double.init),
        Self.json(record.sampleColumns.map { cells[$0] ?? "" }),
      ])
    }
    for cells in record.durability {
      try db.execute(
        sql:
          "INSERT INTO crash_result (run_id, backend, variant, fault, status, cells) VALUES (?, ?, ?, ?, ?, ?)",
        arguments: [
          run, cells[.backend] ?? "", cells[.variant] ?? "", cells["fault"] ?? "",
          cells[.status] ?? "", Self.json(cells),
        ])
    }
    for cells in record.classes {
      try db.execute(
        sql: """
          INSERT INTO durability_class (run_id, backend, variant, durability, measured, cells) VALUES (?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          run, cells[.backend] ?? "", cells[.variant] ?? "", cells["durability"] ?? "",
          cells["measured"] ?? "", Self.json(cells),
        ])
    }
    return run
  }

  /// Runs `body`, turning SQLite's errors into a ``HistoryError`` that names the file and SQLite's code and message.
  static func wrap<T>(_ path: String, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as DatabaseError {
      throw HistoryError(.database, "\(path): SQLite error \(error.resultCode): \(error.message ?? "no message")")
    }
  }

  static func json(_ value: Any) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else {
      return "null"
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// Whether the file's SQLite header says WAL (file format versions 2 at bytes 18 and 19).
  static func isWALDatabase(_ path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    let header = (try? handle.read(upToCount: 20)) ?? Data()
    return header.count == 20 && header.prefix(16) == Data("SQLite format 3\u{0}".utf8) && header[18] == 2
      && header[19] == 2
  }
}
