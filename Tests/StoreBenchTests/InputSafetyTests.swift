import Foundation
import SQLiteAPI
import StoreBenchBackends
import StoreBenchCore
import StoreBenchStandard
import Testing

/// Hostile inputs: scenario mutations, SQL-looking strings and settings, spreadsheet formulas in CSV cells.
@Suite("Input safety")
struct InputSafetyTests {
  @Test("CSV: formula-looking text is neutralised, numbers stay numbers, and every cell reads back exactly")
  func csvFormulas() throws {
    let cells = [
      "=SUM(A1:A9)", "+1+2", "-2-3", "@cmd", "\tx", "\rx", "\r\nx", "'quoted", "''twice", "'=x",
      "-0.5", "+3", "-12", "1e-3", "plain", "", "a,b\"c\nd", "=", "-", "'",
    ]
    let encoded = try CSVFormat.encode([cells.indices.map { "c\($0)" }, cells])
    let decoded = try CSVFormat.decode(String(decoding: encoded, as: UTF8.self))
    #expect(decoded.rows == [cells])
    let raw = String(decoding: encoded, as: UTF8.self).split(separator: "\r\n", maxSplits: 1)[1]
    for hostile in ["=SUM", "+1+2", "-2-3", "@cmd"] {
      #expect(raw.contains("'" + hostile), "\(hostile) not neutralised: \(raw)")
    }
    for number in [",-0.5,", ",+3,", ",-12,"] { #expect(raw.contains(number), "\(number) changed") }
  }

  @Test("a report's text cells that look like formulas are written neutralised and read back exactly by compare")
  func sampleRowsRoundTrip() throws {
    var sample = Sample(
      key: RowKey(
        scenario: "=evil", workload: "insert", backend: "memory", variant: "default", size: 1,
        parameters: "count=1"), repetition: 1, dataset: "")
    sample.settings = "+x"
    sample.error = "@SUM(1)"
    sample.notes[.note] = "-1+1"
    let encoded = try CSVFormat.encode([ColumnSet.standard.sampleHeader, sample.fields(.standard)])
    let text = String(decoding: encoded, as: UTF8.self)
    #expect(!text.contains(",=evil") && text.contains(",'@SUM(1)"))
    #expect(try CSVFormat.decode(text).rows == [sample.fields(.standard)])
  }

  @Test("SQL: hostile strings are stored as values and never change the schema")
  func sqlValuesAreBound() throws {
    let temp = try TemporaryDirectory()
    let descriptor = SQLiteBackend.descriptor
    let location = StoreLocation(directory: temp.url, variant: try descriptor.variant(["search": "fts5"]))
    let schemaBefore = try Self.schema(temp.url, descriptor, location)
    let hostile = [
      "'); DROP TABLE article;--", "\"; DELETE FROM user; --", "x' OR '1'='1", "%", "_", "\\", "\u{0}?",
    ]
    let store = try descriptor.open(app: location)
    let articles = hostile.enumerated().map { index, text in
      Article(
        uid: text + "#\(index)", feedID: 1, title: text, summary: text,
        published: Date(millisecondsSince1970: 1), read: false)
    }
    try store.load(articles: articles)
    try store.unitOfWork {
      try store.markRead(uids: [articles[0].uid])
      try store.setSetting(.string(hostile[1]), forKey: hostile[0])
      try store.cachePut(CacheEntry(key: hostile[2], value: Array(hostile[3].utf8), expires: 1))
    }
    #expect(try store.search(keyword: "DROP").count == 1)
    #expect(try store.setting(forKey: hostile[0], kind: .string) == .string(hostile[1]))
    try store.close()
    #expect(try Self.schema(temp.url, descriptor, location) == schemaBefore)
    let reopened = try descriptor.open(app: location)
    defer { try? reopened.close() }
    #expect(Set(try reopened.allArticles().map(\.uid)) == Set(articles.map(\.uid)))
  }

  /// The store's schema as SQLite lists it.
  static func schema(_ directory: URL, _ descriptor: BackendDescriptor, _ location: StoreLocation) throws -> [String] {
    let store = try descriptor.open(app: location)
    try store.close()
    let database = try SQLiteConnection(path: directory.appendingPathComponent("store.sqlite").path)
    defer { try? database.close() }
    return try database.columnTexts(
      "SELECT type || ' ' || name || ' ' || coalesce(sql, '') FROM sqlite_master ORDER BY name")
  }

  @Test("requested vs effective settings: a store the library will not switch fails with both values named")
  func settingMismatch() throws {
    let temp = try TemporaryDirectory()
    let descriptor = GRDBBackend.descriptor
    // A DatabasePool leaves the file in WAL mode; a DatabaseQueue (rollback journal requested) does not change it.
    let pool = try descriptor.open(
      app: StoreLocation(directory: temp.url, variant: try descriptor.variant(["writer": "pool"])))
    try pool.close()
    let error = #expect(throws: StoreError.self) {
      _ = try descriptor.open(
        app: StoreLocation(directory: temp.url, variant: try descriptor.variant(["writer": "queue"])))
    }
    #expect(error == .settingMismatch(setting: "journal_mode", requested: "delete", effective: "wal"))
    #expect(error?.description == "setting journal_mode: requested delete but the library reports wal")
  }

  @Test("settings values come from allowlists: anything else is refused before it reaches SQL")
  func pragmaAllowlists() throws {
    for (name, value) in [
      ("journal", "wal; DROP TABLE article"), ("sync", "full--"), ("txn", "none'"), ("index", "1 OR 1"),
    ] {
      #expect(throws: (any Error).self) { _ = try SQLiteBackend.descriptor.variant([name: value]) }
    }
    #expect(throws: (any Error).self) { _ = try LMDBBackend.descriptor.variant(["mapsize_mb": "1; rm -rf /"]) }
  }

  @Test("1,000 seeded mutations of the shipped scenarios: each parses or fails with a ScenarioError, quickly")
  func scenarioFuzz() throws {
    let parser = ScenarioParser(backends: .standard(), workloads: .standard)
    let directory = packageRoot.appendingPathComponent("scenarios")
    let sources = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
      $0.hasSuffix(".yaml")
    }.sorted()
      .map { try Data(contentsOf: directory.appendingPathComponent($0)) }
    #expect(sources.count >= 3)
    var rng = SplitMix64(seed: 0xF022)
    let tokens = [
      "-1", "0", "1e308", ".nan", "NaN", "~", "[]", "{}", "x", "\"", "'", ": :", "- ", "\t", "&a", "*a",
      "!!binary",
      "99999999999999999999", "sync", "txn: none", "\u{FEFF}", "\u{0}", "\n  - workload: insert\n",
    ]
    var valid = 0
    var rejected = 0
    for round in 0..<1_000 {
      var bytes = [UInt8](sources[round % sources.count])
      for _ in 0...(rng.next() % 3) {
        let position = Int(rng.next() % UInt64(bytes.count + 1))
        switch rng.next() % 5 {
        case 0: if position < bytes.count { bytes.remove(at: position) }
        case 1:
          bytes.insert(contentsOf: Array(tokens[Int(rng.next() % UInt64(tokens.count))].utf8), at: position)
        case 2: if position < bytes.count { bytes[position] = UInt8(truncatingIfNeeded: rng.next()) }
        case 3:
          let end = min(bytes.count, position + Int(rng.next() % 40))
          bytes.insert(contentsOf: Array(bytes[position..<end]), at: position)
        default: bytes = Array(bytes.prefix(position))
        }
      }
      let start = monotonicNanoseconds()
      do {
        _ = try parser.parse(data: Data(bytes), file: "fuzz-\(round).yaml")
        valid += 1
      } catch let error as ScenarioError {
        #expect(error.description.hasPrefix("fuzz-\(round).yaml"), "\(error)")
        rejected += 1
      } catch {
        Issue.record("round \(round): not a ScenarioError: \(error)")
      }
      #expect(monotonicNanoseconds() - start < 2_000_000_000, "round \(round) took too long")
    }
    #expect(valid + rejected == 1_000 && rejected > 100)
  }
}
