import Foundation
import GDBMAPI
import LMDBAPI
import StoreBenchBackends
import StoreBenchCore
import Testing

@Suite("LMDB wrapper")
struct LMDBWrapperTests {
  func environment(_ temp: TemporaryDirectory, mapSize: Int = 1 << 20) throws -> LMDBEnvironment {
    try LMDBEnvironment(path: temp.url.path, mapSize: mapSize, maxDatabases: 2, durability: .noSync)
  }

  @Test("a write transaction commits on return and aborts on throw")
  func scopedTransactions() throws {
    struct Abort: Error {}
    let temp = try TemporaryDirectory()
    let env = try environment(temp)
    defer { env.close() }
    let db = try env.openDatabase(named: "t")
    try env.write { try $0.put([1], for: [0x61], in: db) }
    #expect(throws: Abort.self) {
      try env.write { txn in
        try txn.put([2], for: [0x62], in: db)
        throw Abort()
      }
    }
    #expect(try env.read { try $0.get([0x61], in: db) } == [1])
    #expect(try env.read { try $0.get([0x62], in: db) } == nil)
    #expect(try env.read { try $0.count(db) } == 1)
  }

  @Test("MDB_KEYEXIST and MDB_MAP_FULL map to named codes with LMDB's message and the path")
  func errorMapping() throws {
    let temp = try TemporaryDirectory()
    let env = try environment(temp, mapSize: 64 * 1024)
    defer { env.close() }
    let db = try env.openDatabase(named: "t")
    try env.write { try $0.put([1], for: [1], in: db) }
    do {
      try env.write { try $0.put([1], for: [1], in: db, noOverwrite: true) }
      Issue.record("duplicate put succeeded")
    } catch let error as LMDBError {
      #expect(error.code == .keyExist)
      #expect(error.message.contains("MDB_KEYEXIST"))
      #expect(error.path == temp.url.path)
    }
    do {
      try env.write { txn in
        for i in 0..<1000 {
          try txn.put([UInt8](repeating: 7, count: 1000), for: Array("key\(i)".utf8), in: db)
        }
      }
      Issue.record("a 1 MB write fit in a 64 KiB map")
    } catch let error as LMDBError {
      #expect(error.code == .mapFull)
      #expect(error.description.contains("raise the mapsize setting"))
    }
    #expect(LMDBError.Code(rawValue: -30798) == .notFound)
    #expect(LMDBError.Code(rawValue: 2) == .system(2))
  }

  @Test("the lmdb backend reports map-full as a clear store error")
  func backendMapFull() throws {
    let temp = try TemporaryDirectory()
    let descriptor = LMDBBackend.descriptor
    let store = try descriptor.open(
      app: StoreLocation(directory: temp.url, variant: try descriptor.variant(["mapsize_mb": "1"])))
    defer { try? store.close() }
    #expect(store.effectiveSettings == "txn=single sync=full mapsize_mb=1 migrate=eager")
    let error = #expect(throws: LMDBError.self) {
      try store.load(articles: DatasetGenerator(seed: 1).articles(count: 10_000))
    }
    #expect(error?.code == .mapFull)
  }

  @Test("closing twice is safe and use after close is an error")
  func closing() throws {
    let temp = try TemporaryDirectory()
    let env = try environment(temp)
    env.close()
    env.close()
    #expect(throws: LMDBError.self) { try env.write { _ in } }
    #expect(LMDBEnvironment.version.hasPrefix("LMDB 0.9"))
  }
}

@Suite("GDBM wrapper")
struct GDBMWrapperTests {
  @Test("store, fetch, keys, sync and close")
  func roundTrip() throws {
    let temp = try TemporaryDirectory()
    let file = try GDBMFile(path: temp.url.appendingPathComponent("t.gdbm").path)
    try file.store([1, 2, 3], for: Array("a".utf8))
    try file.store([], for: Array("empty".utf8))
    try file.store([4], for: Array("a".utf8))
    #expect(try file.fetch(Array("a".utf8)) == [4])
    #expect(try file.fetch(Array("missing".utf8)) == nil)
    #expect(try Set(file.keys()) == [Array("a".utf8), Array("empty".utf8)])
    try file.sync()
    try file.close()
    try file.close()
    #expect(throws: GDBMError.self) { try file.fetch(Array("a".utf8)) }
    #expect(GDBMFile.version.contains("GDBM version 1."))
  }

  @Test("a file that is not a GDBM database fails to open with GDBM's code and message and the path")
  func badMagic() throws {
    let temp = try TemporaryDirectory()
    let path = try temp.file("garbage.gdbm", String(repeating: "not a database ", count: 300))
    let error = #expect(throws: GDBMError.self) { try GDBMFile(path: path) }
    #expect(error?.code == .badMagicNumber)
    #expect(error?.path == path)
    #expect(error?.description.contains("gdbm_open") == true)
  }

  @Test("a directory in the way gives the system error")
  func openError() throws {
    let temp = try TemporaryDirectory()
    let error = #expect(throws: GDBMError.self) { try GDBMFile(path: temp.url.path) }
    #expect(error?.code == .fileOpenError)
    #expect(error?.message.contains("directory") == true)
  }
}

@Suite("defaults backend")
struct DefaultsBackendTests {
  @Test("suite names are absolute paths inside the store directory, and unsafe directories are refused")
  func suiteNames() throws {
    #expect(
      try DefaultsBackend.suiteName(for: URL(fileURLWithPath: "/var/tmp/storebench-x/round0-case1"))
        == "/var/tmp/storebench-x/round0-case1/defaults")
    #expect(throws: StoreError.self) { try DefaultsBackend.suiteName(for: URL(fileURLWithPath: "/tmp/a b")) }
    #expect(throws: StoreError.self) { try DefaultsBackend.suiteName(for: URL(fileURLWithPath: "/tmp/ü")) }
  }

  @Test("a defaults-backed run leaves the real config directory untouched")
  func configUntouched() throws {
    let temp = try TemporaryDirectory()
    let home = try temp.child("home")
    let config = try temp.child("home/.config")
    let xdg = try temp.child("xdg")
    let out = temp.url.appendingPathComponent("out")
    let result = try runStorebench(
      [
        "run", "--scenario", "scenarios/smoke.yaml", "--backend", "defaults", "--reps", "1", "--warmup", "0",
        "--out", out.path, "--workdir", temp.url.path,
      ],
      environment: ["HOME": home.path, "XDG_CONFIG_HOME": xdg.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: config.path).isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: xdg.path).isEmpty)
    let summary = try CSVFormat.decode(
      String(contentsOf: out.appendingPathComponent("summary.csv"), encoding: .utf8))
    #expect(summary.rows.count >= 3)
  }
}

@Suite("Error messages")
struct ErrorMessageTests {
  @Test("a GRDB error carries SQLite's message, the SQL and the database file")
  func grdbErrorNamesTheFile() throws {
    let temp = try TemporaryDirectory()
    let descriptor = GRDBBackend.descriptor
    let store = try descriptor.open(
      app: StoreLocation(directory: temp.url, variant: try descriptor.variant(["style": "batch"])))
    defer { try? store.close() }
    let article = DatasetGenerator(seed: 1).article(at: 0)
    try store.unitOfWork { try store.insert(article) }
    let error = #expect(throws: (any Error).self) { try store.unitOfWork { try store.insert(article) } }
    let text = "\(error.map { "\($0)" } ?? "")"
    #expect(text.contains("UNIQUE constraint failed: article.uid"))
    #expect(text.contains("INSERT INTO article"))
    #expect(text.contains(temp.url.appendingPathComponent("store.sqlite").path))
  }

  @Test("a plist store that cannot decode its file names the codec and the file")
  func plistDecodeErrorNamesTheFile() throws {
    let temp = try TemporaryDirectory()
    _ = try temp.file("articles.plist", "this is not a property list")
    let descriptor = PlistBackend.descriptor
    let store = try descriptor.open(app: StoreLocation(directory: temp.url, variant: try descriptor.variant()))
    let error = #expect(throws: (any Error).self) { try store.allArticles() }
    let text = "\(error.map { "\($0)" } ?? "")"
    #expect(
      text.contains("decode (codable)") && text.contains(temp.url.appendingPathComponent("articles.plist").path))
  }
}
