import Foundation
import SQLiteAPI
import StoreBenchCore
import StoreBenchCrash
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The page-cache model's checks: what it keeps and loses is what the model in docs/POWER-LOSS.md says, and it never
/// leaves a mount behind.
@Suite(
  "Power loss through the page-cache model", .serialized,
  .enabled(
    if: PageCacheMount.unavailableReason() == nil,
    "needs /dev/fuse and the permission to mount: \(PageCacheMount.unavailableReason() ?? "")"))
struct PowerLossTests {
  /// A temporary directory with the layer mounted on its `mount` child.
  func mounted() throws -> (TemporaryDirectory, PageCacheMount) {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    return (temp, try mount(in: temp))
  }

  func mount(in temp: TemporaryDirectory) throws -> PageCacheMount {
    try PageCacheMount(executable: try storebenchBinary(), mountpoint: try temp.child("mount"))
  }

  /// The layer's mounts below `temp` (other suites may mount at the same time elsewhere).
  func mounts(below temp: TemporaryDirectory) -> [PageCacheMount.Listed] {
    PageCacheMount.listed().filter { $0.mountpoint.hasPrefix(temp.url.path) }
  }

  func image(_ layer: PageCacheMount, _ kind: DurabilityRow.Image, seed: UInt64 = 0, in temp: TemporaryDirectory)
    throws -> URL
  {
    let directory = try temp.child("image-\(kind.rawValue)-\(seed)")
    try layer.writeImage(kind, seed: seed, into: directory)
    return directory
  }

  func count(_ database: URL) throws -> Int {
    let connection = try SQLiteConnection(path: database.path)
    defer { try? connection.close() }
    #expect(try connection.scalarText("PRAGMA integrity_check") == "ok")
    return Int(try connection.scalarText("SELECT count(*) FROM t") ?? "") ?? -1
  }

  @Test(
    "SQLite journal=delete: synchronous=FULL rolls the last of 30 acknowledged commits back, EXTRA keeps all 30",
    arguments: [("FULL", 29), ("EXTRA", 30)])
  func sqliteFullVersusExtra(_ sync: String, _ survivors: Int) throws {
    let (temp, layer) = try mounted()
    defer { layer.unmount() }
    let path = layer.mountpoint.appendingPathComponent("t.db").path
    let setup = try SQLiteConnection(path: path)
    try setup.execute("CREATE TABLE t(x)")
    try setup.close()
    try layer.settle()
    let connection = try SQLiteConnection(path: path)
    try connection.execute("PRAGMA journal_mode=DELETE")
    try connection.execute("PRAGMA synchronous=\(sync)")
    for value in 0..<30 { try connection.transaction { try connection.execute("INSERT INTO t VALUES(\(value))") } }
    try layer.cut()
    try connection.close()
    let synced = try image(layer, .synced, in: temp)
    #expect(
      FileManager.default.fileExists(atPath: synced.appendingPathComponent("t.db-journal").path)
        == (survivors == 29),
      "FULL leaves the last commit's journal (its unlink was never synced)")
    #expect(try count(synced.appendingPathComponent("t.db")) == survivors)
  }

  @Test("a store that acknowledges before it fsyncs: a kill keeps the acknowledged record, a power cut loses it")
  func acknowledgedBeforeSync() throws {
    let (temp, layer) = try mounted()
    defer { layer.unmount() }
    let file = layer.mountpoint.appendingPathComponent("log")
    let fd = open(file.path, O_CREAT | O_WRONLY | O_APPEND, 0o644)
    #expect(fd >= 0)
    defer { close(fd) }
    func append(_ text: String) { _ = text.withCString { write(fd, $0, strlen($0)) } }
    append("first\n")
    #expect(fsync(fd) == 0)
    try layer.settle()
    append("second\n")
    #expect(fsync(fd) == 0)
    append("third\n")  // acknowledged now; its fsync would come with the next record
    #expect(
      try String(contentsOf: file, encoding: .utf8) == "first\nsecond\nthird\n", "a kill keeps the page cache")
    try layer.cut()
    let synced = try image(layer, .synced, in: temp)
    #expect(try String(contentsOf: synced.appendingPathComponent("log"), encoding: .utf8) == "first\nsecond\n")
  }

  @Test(
    "a truncate-and-rewrite file (plist write=inplace, UserDefaults) can come back empty; the synced image keeps the old content"
  )
  func truncateAndRewrite() throws {
    let (temp, layer) = try mounted()
    defer { layer.unmount() }
    let file = layer.mountpoint.appendingPathComponent("store.plist")
    try Data("old content".utf8).write(to: file)
    try layer.settle()
    let fd = open(file.path, O_WRONLY | O_TRUNC)
    #expect(fd >= 0)
    _ = "new content".withCString { write(fd, $0, strlen($0)) }
    try layer.cut()  // before the fsync that would have made the rewrite durable
    close(fd)
    let synced = try image(layer, .synced, in: temp)
    #expect(try String(contentsOf: synced.appendingPathComponent("store.plist"), encoding: .utf8) == "old content")
    var seen = Set<String>()
    for seed in UInt64(0)..<24 {
      let prefix = try image(layer, .prefix, seed: seed, in: temp)
      seen.insert(try String(contentsOf: prefix.appendingPathComponent("store.plist"), encoding: .utf8))
    }
    #expect(seen == ["old content", "", "new content"], "prefix images: \(seen)")
  }

  @Test("a new file is durable when its directory is fsynced; an unlink without one comes back")
  func namespaceNeedsDirectorySync() throws {
    let (temp, layer) = try mounted()
    defer { layer.unmount() }
    let root = layer.mountpoint
    try Data("kept".utf8).write(to: root.appendingPathComponent("old"))
    try layer.settle()
    try FileManager.default.removeItem(at: root.appendingPathComponent("old"))
    let fd = open(root.appendingPathComponent("new").path, O_CREAT | O_WRONLY, 0o644)
    _ = "data".withCString { write(fd, $0, strlen($0)) }
    #expect(fsync(fd) == 0)
    close(fd)
    try layer.cut()
    let before = try image(layer, .synced, in: temp)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: before.path) == ["old"],
      "no directory fsync: the unlink and the creation are lost")

    // The positive case, on a fresh layer: the same unlink and creation, then the directory fsynced.
    let (otherTemp, synced) = try mounted()
    defer { synced.unmount() }
    try Data("kept".utf8).write(to: synced.mountpoint.appendingPathComponent("old"))
    try synced.settle()
    try FileManager.default.removeItem(at: synced.mountpoint.appendingPathComponent("old"))
    let file = open(synced.mountpoint.appendingPathComponent("new").path, O_CREAT | O_WRONLY, 0o644)
    _ = "data".withCString { write(file, $0, strlen($0)) }
    #expect(fsync(file) == 0)
    close(file)
    let directory = open(synced.mountpoint.path, O_RDONLY | O_DIRECTORY)
    #expect(fsync(directory) == 0)
    close(directory)
    try synced.cut()
    let after = try image(synced, .synced, in: otherTemp)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: after.path) == ["new"],
      "a directory fsync makes both durable")
    #expect(FileManager.default.contents(atPath: after.appendingPathComponent("new").path) == Data("data".utf8))
  }

  @Test(
    "sync=off, MDB_NOSYNC and files fsync=none lose acknowledged batches to a power cut, none to a kill; every row names its fault"
  )
  func unsyncedVariantsLose() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let scenario = try temp.file(
      "unsynced.yaml",
      """
      name: unsynced
      backends:
        - backend: sqlite
          variants: [{journal: delete, sync: "off"}]
        - backend: lmdb
          variants: [{sync: nosync}]
        - backend: files
          variants: [{fsync: none}]
      workloads: [{workload: insert}]
      """)
    let out = temp.url.appendingPathComponent("out")
    let result = try runStorebench([
      "crash", "--fault", "power-loss", "--cuts", "random", "--scenario", scenario, "--trials", "2", "--batch",
      "5", "--max-delay-ms", "200", "--out", out.path, "--workdir", temp.url.path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let table = try CSVFormat.decode(
      String(contentsOf: out.appendingPathComponent("durability.csv"), encoding: .utf8))
    func value(_ row: [String], _ column: String) -> String { row[table.header.firstIndex(of: column)!] }
    #expect(table.rows.count == 9)
    for row in table.rows {
      #expect(value(row, "status") == "measured", "\(row)")
      let lost = Int(value(row, "lost_batches"))!
      switch (value(row, "fault"), value(row, "image")) {
      case ("kill", "live"): #expect(lost == 0, "\(row)")
      case ("power-loss", "synced"):
        #expect(lost > 0 && lost == Int(value(row, "acked_batches")), "nothing was synced: \(row)")
      case ("power-loss", "prefix"): #expect(Int(value(row, "images")) == 6, "\(row)")
      default: Issue.record("unexpected fault and image: \(row)")
      }
    }
    #expect(mounts(below: temp).isEmpty)
  }

  @Test(
    "no mount outlives its parent: a SIGKILLed crash run's layer unmounts itself; a killed layer's dead mount is removed at the next start"
  )
  func noMountLeftBehind() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let scenario = try temp.file(
      "slow.yaml",
      """
      name: slow
      backends: [{backend: sqlite, variants: [{journal: delete, sync: full}]}]
      workloads: [{workload: insert}]
      """)
    let run = try BackgroundRun(
      [
        "crash", "--fault", "power-loss", "--scenario", scenario, "--trials", "40",
        "--out", temp.url.appendingPathComponent("out").path, "--workdir", temp.url.path,
      ],
      stderrIn: temp.url)
    #expect(waitUntil { !mounts(below: temp).isEmpty }, "the run never mounted the layer: \(run.stderr)")
    kill(run.process.processIdentifier, SIGKILL)
    _ = run.finish()
    #expect(waitUntil { mounts(below: temp).isEmpty }, "left mounted: \(mounts(below: temp))")

    let layer = try mount(in: temp)
    let listed = try #require(mounts(below: temp).first)
    kill(listed.server, SIGKILL)
    #expect(waitUntil { !PageCacheMount.isRunning(listed.server) })
    #expect(mounts(below: temp) == [listed], "a killed server leaves its mount")
    #expect(PageCacheMount.removeStale().contains(listed.mountpoint))
    #expect(mounts(below: temp).isEmpty)
    layer.unmount()
  }

  /// Polls `condition` for up to 60 s.
  func waitUntil(_ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline {
      if condition() { return true }
      usleep(20_000)
    }
    return condition()
  }
}

/// The power-loss rows where the layer cannot mount: `/dev/null` bound over `/dev/fuse` in a private mount namespace.
@Suite(
  "Power loss where FUSE cannot mount",
  .enabled(
    if: geteuid() == 0 && FileManager.default.fileExists(atPath: "/usr/bin/unshare")
      && FileManager.default.fileExists(atPath: "/dev/fuse"),
    "needs root, unshare and a /dev/fuse to hide"))
struct PowerLossUnavailableTests {
  @Test(
    "the power-loss rows say 'unavailable' with the reason, the kill rows are still measured, and the run succeeds")
  func unavailableRows() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let scenario = try temp.file(
      "one.yaml",
      """
      name: one
      backends: [{backend: lmdb}]
      workloads: [{workload: insert}]
      """)
    let out = temp.url.appendingPathComponent("out")
    let command =
      "mount --bind /dev/null /dev/fuse && exec '\(try storebenchBinary().path)' crash --fault power-loss "
      + "--scenario '\(scenario)' --trials 2 --batch 5 --max-delay-ms 20 --out '\(out.path)' --workdir '\(temp.url.path)'"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
    process.arguments = ["--mount", "--propagation", "private", "sh", "-c", command]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let table = try CSVFormat.decode(
      String(contentsOf: out.appendingPathComponent("durability.csv"), encoding: .utf8))
    func value(_ row: [String], _ column: String) -> String { row[table.header.firstIndex(of: column)!] }
    #expect(table.rows.map { value($0, "status") } == ["measured", "unavailable", "unavailable"])
    #expect(
      table.rows.dropFirst().allSatisfy { value($0, "detail").contains("mount") && value($0, "trials") == "0" },
      "\(table.rows)")
  }
}
