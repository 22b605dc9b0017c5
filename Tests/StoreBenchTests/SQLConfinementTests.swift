import Foundation
import SQLiteAPI
import StoreBenchStandard
import Testing

@testable import StoreBenchBackends
@testable import StoreBenchCore
@testable import StoreBenchSQLWorkloads

/// A workload file's SQL is untrusted input: it reaches only its own store (no other database, no VACUUM INTO, no
/// change of the variant's settings), a dry run writes nothing outside a private in-memory database, and a statement
/// that never ends is stopped by the repetition's bound or the first signal.
@Suite("SQL from a file stays in its store")
struct SQLConfinementTests {
  /// The SQL workload tests' small file (SQLWorkloadTests.file), with no parameters unless given.
  static func file(schema: String? = nil, sql: String, parameters: String = "", tail: String = "") -> String {
    schema.map { SQLWorkloadTests.file(schema: $0, sql: sql, parameters: parameters, tail: tail) }
      ?? SQLWorkloadTests.file(sql: sql, parameters: parameters, tail: tail)
  }

  static func refusal(_ text: String) -> String {
    do {
      _ = try SQLWorkloadParser().parse(data: Data(text.utf8), file: "t.yaml")
      return "accepted"
    } catch {
      return "\(error)"
    }
  }

  @Test(
    "a schema that attaches another database and drops its table is refused before anything runs, and the other database keeps its table (also through run --dry-run)"
  )
  func attachRefused() throws {
    let temp = try TemporaryDirectory()
    let other = temp.url.appendingPathComponent("userapp.db").path
    let victim = try SQLiteConnection(path: other)
    try victim.execute("CREATE TABLE notes(id INTEGER)")
    try victim.close()
    let schema =
      "CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL, folder INTEGER NOT NULL); "
      + "ATTACH DATABASE '\(other)' AS u; DROP TABLE u.notes;"
    let text = Self.file(schema: schema, sql: "SELECT id FROM note")
    let message = Self.refusal(text)
    #expect(message.hasPrefix("t.yaml:6: schema: SQLite: refused: ATTACH and DETACH are not allowed"), "\(message)")
    _ = try temp.file("t.yaml", text)
    let scenario = try temp.file(
      "s.yaml", "name: s\nbackends: [{backend: sqlite}]\nworkloads:\n  - sql: t.yaml\n")
    let result = try runStorebench(["run", "--scenario", scenario, "--dry-run"])
    #expect(result.status == 64, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("ATTACH and DETACH are not allowed"), "\(result.stderr)")
    let check = try SQLiteConnection(path: other)
    defer { try? check.close() }
    #expect(try check.columnTexts("SELECT name FROM sqlite_master") == ["notes"])
  }

  @Test(
    "refused by line: VACUUM INTO (even hidden behind a comment and odd case), another schema, temp objects, transaction statements, a pragma that changes the variant, load_extension"
  )
  func refusedStatements() {
    let cases: [(String, String)] = [
      ("VACUUM INTO '/tmp/storebench-copy.db'", "VACUUM is not allowed"),
      ("/* x */ vAcUuM main INTO '/tmp/storebench-copy.db'", "VACUUM is not allowed"),
      ("VACUUM", "VACUUM is not allowed"),
      ("PRAGMA synchronous=OFF", "PRAGMA synchronous=OFF is not allowed"),
      ("PRAGMA journal_mode=DELETE", "PRAGMA journal_mode=DELETE is not allowed"),
      ("PRAGMA locking_mode=EXCLUSIVE", "PRAGMA locking_mode=EXCLUSIVE is not allowed"),
      ("BEGIN", "is not allowed: the variant's transaction policy"),
      ("SAVEPOINT s", "is not allowed: the variant's transaction policy"),
      ("CREATE TEMP TABLE t(x)", "names the schema 'temp'"),
      ("SELECT load_extension('x')", "load_extension() is not allowed"),
      ("SELECT * FROM temp.sqlite_master", "names the schema 'temp'"),
    ]
    for (sql, expected) in cases {
      let message = Self.refusal(Self.file(sql: sql))
      #expect(
        message.hasPrefix("t.yaml:17: statement 'list' of operation 'list': SQLite: refused: ")
          && message.contains(expected), "\(sql): \(message)")
    }
    // Reading the schema and the store's own settings stays allowed.
    for sql in ["PRAGMA table_info(note)", "PRAGMA user_version", "SELECT count(*) FROM pragma_index_list('note')"] {
      #expect(Self.refusal(Self.file(sql: sql)) == "accepted", "\(sql)")
    }
  }

  @Test("the SQLite store holds the file's SQL to the same rule, whatever the preflight saw")
  func storeConfined() throws {
    let temp = try TemporaryDirectory()
    let descriptor = try #require(BackendRegistry.standard()["sqlite"])
    let opened = try descriptor.open(StoreLocation(directory: temp.url, variant: try descriptor.variant([:])))
    defer { try? opened.close() }
    let store = try #require(opened as? any SQLStore)
    #expect(throws: SQLiteError.self) { _ = try store.prepareStatement("VACUUM INTO '\(temp.url.path)/copy.db'") }
    #expect(throws: SQLiteError.self) { _ = try store.prepareStatement("PRAGMA synchronous=OFF") }
    #expect(!FileManager.default.fileExists(atPath: temp.url.appendingPathComponent("copy.db").path))
  }

  @Test(
    "a statement that never ends is stopped by the repetition's bound (the run's budget_seconds), the bound named in the row's error, the run ending in seconds"
  )
  func unboundedStatementStopped() throws {
    let forever =
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c WHERE x < :limit"
    let text = Self.file(sql: forever, parameters: "    parameters:\n      limit: {uniform: [1, 3]}\n")
    #expect(Self.refusal(text) == "accepted")
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    _ = try temp.file("t.yaml", text)
    let scenario = try temp.file(
      "s.yaml",
      "name: s\nrepetitions: 1\nwarmup: 0\ncase_seconds: 1\nbudget_seconds: 3\nbackends: [{backend: sqlite}]\n"
        + "workloads:\n  - sql: t.yaml\n    parameters: {rows: 5, count: 1}\n")
    let started = Date()
    let out = temp.url.appendingPathComponent("out")
    let result = try runStorebench([
      "run", "--scenario", scenario, "--out", out.path, "--workdir", temp.url.path, "--no-counters",
    ])
    let seconds = Date().timeIntervalSince(started)
    #expect(result.status == 1, "\(result.stderr)")
    #expect(seconds < 20, "took \(seconds) s")
    let rows = try SampleTable(path: out.path).rows
    #expect(
      rows.first?.error.contains("the bound of one repetition (the run's budget_seconds: 3s)") == true,
      "\(rows.map(\.error))")
  }

  @Test("the first SIGINT stops a statement that never ends: exit 130 in seconds, the work directory gone")
  func firstSignalStopsStatement() throws {
    let forever =
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c WHERE x < :limit"
    let box = try Sandbox()
    _ = try box.root.file(
      "t.yaml", Self.file(sql: forever, parameters: "    parameters:\n      limit: {uniform: [1, 3]}\n"))
    let scenario = try box.root.file(
      "s.yaml",
      "name: s\nrepetitions: 1\nwarmup: 0\nbudget_seconds: 600\nbackends: [{backend: sqlite}]\n"
        + "workloads:\n  - sql: t.yaml\n    parameters: {rows: 5, count: 1}\n")
    let run = try box.start([
      "run", "--scenario", scenario, "--out", box.url.appendingPathComponent("out").path, "--workdir",
      box.work.path, "--no-counters",
    ])
    #expect(run.waitFor("repetitions:"), "\(run.stderr)")
    Thread.sleep(forTimeInterval: 2)
    let sent = Date()
    kill(run.process.processIdentifier, SIGINT)
    #expect(run.finish(within: 20) == 130, "\(run.stderr.suffix(500))")
    #expect(Date().timeIntervalSince(sent) < 10)
    #expect(box.leftovers().isEmpty, "\(box.leftovers())")
  }

  @Test("the workload files a scenario names are part of its identity: a changed file changes the scenario's hash")
  func workloadFilesInScenarioHash() throws {
    let temp = try TemporaryDirectory()
    _ = try temp.file("t.yaml", Self.file(sql: "SELECT id FROM note"))
    let path = try temp.file("s.yaml", "name: s\nbackends: [{backend: sqlite}]\nworkloads:\n  - sql: t.yaml\n")
    let parser = ScenarioParser(backends: BackendRegistry.standard(), workloads: .standard)
    let before = try parser.parse(file: path).fileHash
    #expect(try parser.parse(file: path).fileHash == before)
    _ = try temp.file("t.yaml", Self.file(sql: "SELECT id, title FROM note"))
    #expect(try parser.parse(file: path).fileHash != before, "--resume would mix two datasets")
  }

  @Test(
    "a file's fill is checked before anything is generated: out-of-range rows, texts and sequences are refused by the dry run (64) naming the line; a fill of 1 MB texts is counted in the bound as what it is"
  )
  func fillRangesAndBound() throws {
    let temp = try TemporaryDirectory()
    func dryRun(_ text: String) throws -> (status: Int32, stdout: String, stderr: String) {
      _ = try temp.file("t.yaml", text)
      let scenario = try temp.file(
        "s.yaml", "name: s\nbackends: [{backend: sqlite}]\nworkloads:\n  - sql: t.yaml\n")
      return try runStorebench(["run", "--scenario", scenario, "--dry-run"])
    }
    let base = Self.file(sql: "SELECT id FROM note")
    let cases: [(String, String, String)] = [
      ("rows: rows", "rows: 2000000000", "rows 2000000000 is out of range 0…10000000"),
      ("rows: rows", "rows: 0 - 5", "rows -5 is out of range"),
      ("{words: {bytes: 20}}", "{words: {bytes: 2000000}}", "bytes 2000000 is out of range 0…1048576"),
      ("{sequence: {start: 1}}", "{sequence: {start: 9223372036854775000, step: 1000}}", "overflows 64 bits"),
    ]
    for (from, to, expected) in cases {
      let text = base.replacingOccurrences(of: from, with: to)
      #expect(text != base, "\(from)")
      let result = try dryRun(text)
      #expect(result.status == 64, "\(to): \(result.status) \(result.stdout.suffix(300))")
      #expect(result.stderr.contains(expected) && result.stderr.contains("t.yaml:"), "\(to): \(result.stderr)")
    }
    // 4,000 rows of 1 MiB texts: about 4 GB of generated data, not a few kilobytes.
    let big = base.replacingOccurrences(of: "rows: rows", with: "rows: 4000").replacingOccurrences(
      of: "{words: {bytes: 20}}", with: "{words: {bytes: 1048576}}")
    let result = try dryRun(big)
    // Planned (the dry run's data line), or refused by the memory, disk or time bound of a smaller machine.
    let text = result.stdout + result.stderr
    let records =
      text.firstMatch(of: /data: (\d+) generated records/).flatMap { Int($0.1) }
      ?? text.firstMatch(of: /\((\d+) records at/).flatMap { Int($0.1) }
      ?? text.firstMatch(of: /the largest (\d+) records/).flatMap { Int($0.1) } ?? 0
    #expect(
      records >= 9_000_000 || (result.status == 64 && text.contains("generating the data takes")),
      "\(result.status): \(text)")
  }
}
