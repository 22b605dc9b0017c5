import Foundation
import StoreBenchStandard
import Testing

@testable import StoreBenchBackends
@testable import StoreBenchCore
@testable import StoreBenchSQLWorkloads

/// `sql` workload files: the format's generators against known values, every error a user can make refused with the
/// file's line and SQLite's message, and the shipped example (examples/sql/notes-tags.yaml) reproducing the built-in
/// `tags` workload's checksums and query plan on sqlite and GRDB.
@Suite("SQL workload files")
struct SQLWorkloadTests {
  /// A small valid file; `schema` replaces line 6 (one line), `sql`, `parameters` and `tail` replace line 17,
  /// lines 18–19 and what follows.
  static func file(
    schema: String = "CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL, folder INTEGER NOT NULL);",
    sql: String = "SELECT id, title FROM note WHERE folder = :folder ORDER BY id",
    parameters: String = "    parameters:\n      folder: {uniform: [1, 3]}\n", tail: String = ""
  ) -> String {
    """
    name: t
    parameters:
      rows: {default: 20, min: 1, smoke: 5}
      count: {default: 5, min: 1}
    schema: |
      \(schema)
    fill:
      - table: note
        rows: rows
        columns:
          id: {sequence: {start: 1}}
          title: {words: {bytes: 20}}
          folder: {uniform: [1, 3]}
    operations:
      - name: list
        count: count
        sql: \(sql)

    """ + parameters + tail
  }

  static func parse(_ text: String) throws -> SQLWorkloadFile {
    try SQLWorkloadParser().parse(data: Data(text.utf8), file: "t.yaml")
  }

  /// The message `text` is refused with.
  static func refusal(_ text: String) -> String {
    do {
      _ = try parse(text)
      return "accepted"
    } catch {
      return "\(error)"
    }
  }

  static func sample(
    _ workload: any Workload, _ parameters: [String: Int], _ backend: String, _ variant: [String: String] = [:]
  )
    throws -> Sample
  {
    try AppDataWorkloadTests.sample(workload, parameters, backend, variant)
  }

  @Test(
    "generators and expressions: stream salts, sequences, exact shares, distinct draws and expressions give known values"
  )
  func generators() throws {
    #expect(SQLGenerator.stream("tags") == 0x7461_6773 && SQLGenerator.stream("arch") == 0x6172_6368)
    let names: Set<String> = ["a", "b"]
    let expression = try SQLExpression.parse("min(a, b) * 2 + (b - a) / 2", names: names)
    #expect(try expression.value(["a": 3, "b": 10]) == 3 * 2 + 7 / 2)
    #expect(throws: ParameterError.self) { try SQLExpression.parse("a + c", names: names) }
    #expect(throws: ParameterError.self) { try SQLExpression.parse("a / 0", names: names).value(["a": 1]) }
    let parsed = try Self.parse(
      Self.file(
        tail: """
            - name: tagged
              count: 3
              sql: INSERT INTO note(id, title, folder) VALUES (:id, :title, :folder)
              parameters:
                id: {sequence: {start: 100, step: 10, cycle: 2}}
                title: {choice: {values: [a, b], weights: [1, 0]}}
                folder: {value: count * 2}
              check: {sql: SELECT count(*) FROM note, expect: rows + 3}
          """))
    let data = try SQLFillData(
      file: parsed, parameters: ["rows": 20, "count": 5], generator: DatasetGenerator(seed: 7))
    let rows = data.tables[0].rows
    #expect(rows.map { $0[0] } == (1...20).map { .integer(Int64($0)) })
    #expect(rows.allSatisfy { if case .text(let text) = $0[1] { text.utf8.count >= 20 } else { false } })
    #expect(Set(rows.map { $0[2] }) == [.integer(1), .integer(2), .integer(3)])
    let executions = try data.executions(
      of: parsed.operations[1], count: 3, file: parsed, parameters: ["rows": 20, "count": 5],
      generator: DatasetGenerator(seed: 7))
    #expect(
      executions.map { $0[0] } == [
        [.integer(100), .text("a"), .integer(10)], [.integer(110), .text("a"), .integer(10)],
        [.integer(100), .text("a"), .integer(10)],
      ])
    #expect(parsed.operations[1].writes && !parsed.operations[0].writes)
  }

  @Test(
    "the shipped example: the tags rows' checksums and the covering design's plans, on sqlite's three variants and GRDB"
  )
  func example() throws {
    let file = try SQLWorkloadParser().parse(
      file: packageRoot.appendingPathComponent("examples/sql/notes-tags.yaml").path)
    let workloads = file.workloads
    #expect(workloads.map { $0.name } == ["sql:notes-tags.tags", "sql:notes-tags.tag-note"])
    let sizes = ["stored": 300, "count": 6, "tags": 10]
    let builtIn = try Self.sample(TagQueryWorkload(), sizes, "sqlite", ["tags": "covering"])
    #expect(builtIn.status == .ok, "\(builtIn.error)")
    let variants: [(String, [String: String])] = [
      ("sqlite", ["txn": "single", "journal": "wal", "sync": "normal"]),
      ("sqlite", ["txn": "single", "journal": "delete", "sync": "full"]),
      ("sqlite", ["txn": "none", "journal": "wal", "sync": "full"]),
      ("grdb", ["writer": "queue"]), ("grdb", ["writer": "pool"]),
    ]
    for (backend, variant) in variants {
      let tags = try Self.sample(workloads[0], sizes, backend, variant)
      #expect(tags.status == .ok, "\(backend) \(variant): \(tags.error)")
      #expect(tags.checksum == builtIn.checksum, "\(backend) \(variant)")
      #expect(tags.notes[.queryPlan] == builtIn.notes[.queryPlan], "\(backend) \(variant)")
      #expect(
        tags.notes[.note]?.hasPrefix("statement latency µs (n=6 each): tags-with-unarchived-notes p50 ") == true
      )
      let write = try Self.sample(workloads[1], sizes, backend, variant)
      #expect(write.status == .ok && write.ops == 6, "\(backend) \(variant): \(write.error)")
    }
    #expect(builtIn.notes[.queryPlan]?.contains("SEARCH note_tag USING COVERING INDEX note_tag_archived") == true)
  }

  @Test(
    "refused before any store opens, with the line and SQLite's message: unknown table, unknown column, a parameter without a generator, a write without a check"
  )
  func refusals() {
    #expect(
      Self.refusal(Self.file(sql: "SELECT id FROM notes WHERE folder = :folder"))
        == "t.yaml:17: statement 'list' of operation 'list': SQLite: no such table: notes")
    #expect(
      Self.refusal(Self.file(sql: "SELECT id, titel FROM note WHERE folder = :folder"))
        == "t.yaml:17: statement 'list' of operation 'list': SQLite: no such column: titel")
    #expect(
      Self.refusal(Self.file(sql: "SELECT id FROM note WHERE folder = :folder AND id > :since"))
        == "t.yaml:17: statement 'list' of operation 'list': parameter :since has no generator (this statement's: folder)"
    )
    #expect(
      Self.refusal(Self.file(sql: "SELECT id FROM note WHERE folder = 1"))
        == "t.yaml:19: statement 'list' of operation 'list': generator 'folder' matches no parameter of the statement"
    )
    #expect(
      Self.refusal(Self.file().replacingOccurrences(of: "title: {words", with: "titel: {words"))
        == "t.yaml:8: fill of table note: SQLite: table note has no column named titel")
    #expect(
      Self.refusal(Self.file(sql: "UPDATE note SET title = 'x' WHERE folder = :folder"))
        == "t.yaml:15: operation 'list': statement 'list' (line 17) writes, so the operation needs a check with an "
        + "expected value (check: {sql: SELECT count(*) …, expect: stored + count}) that proves the writes happened"
    )
    #expect(
      Self.refusal(Self.file().replacingOccurrences(of: "TEXT NOT NULL,", with: "TEXT NOT NULL"))
        == "t.yaml:6: schema: SQLite: near \"folder\": syntax error")
    #expect(
      Self.refusal(Self.file(sql: "SELECT id FROM note WHERE folder = :folder; DELETE FROM note"))
        .hasPrefix("t.yaml:17: statement 'list' of operation 'list': SQLite: more than one statement"))
  }

  @Test(
    "failed while running, with the line and SQLite's message: a check that returns nothing, a statement that fails mid-run, a wrong count"
  )
  func runFailures() throws {
    let empty = try Self.parse(Self.file(tail: "    check: {sql: SELECT id FROM note WHERE id < 0}\n"))
    let nothing = try Self.sample(empty.workloads[0], ["rows": 20, "count": 5], "sqlite")
    #expect(nothing.status == .failed)
    #expect(
      nothing.error.contains(
        "t.yaml:20: check of operation 'list': the check returned nothing; it must return a row that proves the "
          + "work (a count, a sum)"), "\(nothing.error)")
    // An operation `add` after `list` that inserts `count` notes with ids from `start` and expects `expect` notes.
    func adding(start: String, expect: String) throws -> SQLWorkload {
      try Self.parse(
        Self.file(
          tail: """
              - name: add
                count: count
                sql: INSERT INTO note(id, title, folder) VALUES (:id, 'new', 1)
                parameters:
                  id: {sequence: {start: \(start)}}
                check: {sql: SELECT count(*) FROM note, expect: \(expect)}

            """)
      ).workloads[1]
    }
    for backend in ["sqlite", "grdb"] {
      let failed = try Self.sample(
        try adding(start: "rows", expect: "rows + count"), ["rows": 20, "count": 5], backend)
      #expect(failed.status == .failed)
      #expect(
        failed.error.contains("t.yaml:22: statement 'add' of operation 'add': execution 1 of 5 failed: ")
          && failed.error.contains("UNIQUE constraint failed: note.id"), "\(backend): \(failed.error)")
    }
    let miscounted = try adding(start: "rows + 1", expect: "rows + count + 1")
    let wrong = try Self.sample(miscounted, ["rows": 20, "count": 5], "sqlite")
    #expect(wrong.status == .failed)
    #expect(wrong.error.contains("t.yaml:25: check of operation 'add' read 25, expected 26"), "\(wrong.error)")
    let right = try Self.sample(try Self.parse(Self.file()).workloads[0], ["rows": 20, "count": 5], "sqlite")
    #expect(right.status == .ok && right.notes[.queryPlan]?.hasPrefix("list: SCAN note") == true, "\(right.notes)")
  }

  @Test(
    "scenarios: a sql entry reads the file beside the scenario, its workloads run like any, a backend entry may name them"
  )
  func scenario() throws {
    let sandbox = try TemporaryDirectory()
    _ = try sandbox.file("t.yaml", Self.file())
    let path = try sandbox.file(
      "s.yaml",
      """
      name: s
      repetitions: 2
      backends:
        - backend: sqlite
          workloads: [sql:t.list]
      workloads:
        - sql: t.yaml
          parameters: {rows: 30}
      """)
    let parser = ScenarioParser(backends: BackendRegistry.standard(), workloads: .standard)
    let scenario = try parser.parse(file: path)
    #expect(scenario.workloads.map(\.workload) == ["sql:t.list"])
    #expect(scenario.workloads[0].cases[0].values == ["rows": 30, "count": 5])
    #expect(WorkloadRegistry.standard.including(scenario)["sql:t.list"] != nil)
    let missing = try sandbox.file(
      "m.yaml", "name: m\nbackends: [{backend: sqlite}]\nworkloads:\n  - sql: nowhere.yaml\n")
    #expect(throws: ScenarioError.self) { try parser.parse(file: missing) }
    // Bounded before anything is generated: 100,000 rows of 1 MB texts.
    _ = try sandbox.file("big.yaml", Self.file().replacingOccurrences(of: "bytes: 20", with: "bytes: 1000000"))
    let big = try sandbox.file(
      "b.yaml",
      "name: b\nbackends: [{backend: sqlite}]\nworkloads:\n  - sql: big.yaml\n    parameters: {rows: 100000}\n")
    #expect(throws: ScenarioError.self) { try parser.parse(file: big) }
    do {
      _ = try parser.parse(file: big)
    } catch {
      #expect(
        "\(error)".contains("would generate about 95378 MiB; a case may generate at most 4096 MiB"), "\(error)")
    }
  }
}
