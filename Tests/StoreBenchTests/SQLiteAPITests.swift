import Foundation
import SQLiteAPI
import StoreBenchBackends
import StoreBenchCore
import StoreBenchOverhead
import Testing

@Suite("SQLite wrapper and backend")
struct SQLiteAPITests {
  @Test("errors carry the extended code, SQLite's message, the SQL and the file")
  func errorMapping() throws {
    let temp = try TemporaryDirectory()
    let path = temp.url.appendingPathComponent("t.sqlite").path
    let db = try SQLiteConnection(path: path)
    defer { try? db.close() }
    try db.execute("CREATE TABLE t(k TEXT UNIQUE)")
    try db.execute("INSERT INTO t VALUES ('a')")
    do {
      try db.execute("INSERT INTO t VALUES ('a')")
      Issue.record("duplicate insert succeeded")
    } catch let error as SQLiteError {
      #expect(error.code.primary == .constraint)
      #expect(error.code.rawValue == 2067)  // SQLITE_CONSTRAINT_UNIQUE
      #expect(error.message == "UNIQUE constraint failed: t.k")
      #expect(error.path == path)
      #expect(error.description.contains("INSERT INTO t VALUES ('a')"))
    }
    #expect(throws: SQLiteError.self) { try db.prepare("SELEC nonsense") }
  }

  @Test("fullfsync=on is refused on Linux with a message that says why, as an unsupported row")
  func fullFsyncRefused() throws {
    let sample = try WorkloadContractTests.sample(
      InsertWorkload(), ["count": 5],
      on: BackendCase(backend: "sqlite", variant: ["fullfsync": "on"], label: "t"))
    #expect(
      sample.status == .unsupported && sample.error.contains("F_FULLFSYNC exists only on Apple platforms"),
      "\(sample.error)")
  }

  @Test("a transaction commits on return and rolls back on throw")
  func scopedTransaction() throws {
    struct Abort: Error {}
    let temp = try TemporaryDirectory()
    let db = try SQLiteConnection(path: temp.url.appendingPathComponent("t.sqlite").path)
    defer { try? db.close() }
    try db.execute("CREATE TABLE t(v INTEGER)")
    try db.transaction { try db.execute("INSERT INTO t VALUES (1)") }
    #expect(throws: Abort.self) {
      try db.transaction {
        try db.execute("INSERT INTO t VALUES (2)")
        throw Abort()
      }
    }
    #expect(try db.scalarText("SELECT group_concat(v) FROM t") == "1")
    #expect(db.isAutocommit)
  }

  @Test("close refuses while a statement is open, then succeeds")
  func explicitClose() throws {
    let temp = try TemporaryDirectory()
    let db = try SQLiteConnection(path: temp.url.appendingPathComponent("t.sqlite").path)
    let statement = try db.prepare("SELECT 1")
    #expect(throws: SQLiteError.self) { try db.close() }
    statement.finalize()
    try db.close()
    #expect(throws: SQLiteError.self) { try db.execute("SELECT 1") }
  }

  @Test("empty strings bind as '' and not NULL; text binds byte for byte")
  func binding() throws {
    let temp = try TemporaryDirectory()
    let db = try SQLiteConnection(path: temp.url.appendingPathComponent("t.sqlite").path)
    defer { try? db.close() }
    try db.execute("CREATE TABLE t(v TEXT)")
    let insert = try db.prepare("INSERT INTO t VALUES (?1)")
    for value in ["", "e\u{301}", "'); DROP TABLE t;--"] {
      try insert.bind(value, at: 1)
      try insert.run()
    }
    insert.finalize()
    #expect(try db.scalarText("SELECT count(*) FROM t WHERE v IS NULL") == "0")
    #expect(
      try db.columnTexts("SELECT v FROM t").map { Array($0.utf8) }
        == ["", "e\u{301}", "'); DROP TABLE t;--"].map { Array($0.utf8) })
    #expect(try db.scalarText("SELECT count(*) FROM sqlite_master") == "1")
  }

  @Test(
    "the backend reads its settings back and records them",
    arguments: [
      (
        ["journal": "wal", "sync": "normal", "txn": "none"],
        "txn=none journal=wal sync=normal index=on list_index=off search=like auto_vacuum=none migrate=alter tags=join fullfsync=off busy_timeout=10000 temp_store=memory"
      ),
      (
        ["journal": "delete", "sync": "off", "txn": "single"],
        "txn=single journal=delete sync=off index=on list_index=off search=like auto_vacuum=none migrate=alter tags=join fullfsync=off busy_timeout=10000 temp_store=memory"
      ),
    ])
  func effectiveSettings(_ variant: [String: String], _ expected: String) throws {
    let temp = try TemporaryDirectory()
    let descriptor = SQLiteBackend.descriptor
    let store = try descriptor.open(
      app: StoreLocation(directory: temp.url, variant: try descriptor.variant(variant)))
    defer { try? store.close() }
    #expect(store.effectiveSettings == expected)
  }

  @Test("txn=single rolls the whole unit of work back when it throws")
  func unitOfWorkRollback() throws {
    struct Abort: Error {}
    let temp = try TemporaryDirectory()
    let descriptor = SQLiteBackend.descriptor
    let location = StoreLocation(directory: temp.url, variant: try descriptor.variant(["txn": "single"]))
    let store = try descriptor.open(app: location)
    defer { try? store.close() }
    let articles = DatasetGenerator(seed: 1).articles(count: 10)
    #expect(throws: Abort.self) {
      try store.unitOfWork {
        for article in articles { try store.insert(article) }
        throw Abort()
      }
    }
    #expect(try store.allArticles().isEmpty)
  }

  @Test("library versions are reported")
  func versions() {
    let versions = SQLiteBackend.descriptor.libraryVersions()
    #expect(versions["sqlite"]?.hasPrefix("3.") == true)
    #expect(versions["sqlite_compile_options"]?.contains("THREADSAFE") == true)
  }
}
