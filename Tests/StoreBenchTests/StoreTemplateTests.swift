import Foundation
import StoreBenchBackends
import StoreBenchContract
import StoreBenchCore
import StoreBenchMeasure
import StoreBenchStandard
import Testing

/// The filled store kept once per case and copied for each repetition (``StoreTemplate``).
@Suite("Store templates")
struct StoreTemplateTests {
  @Test("a private copy has every byte of files of any size (the kernel's copy and the fallback agree)")
  func privateCopyBytes() throws {
    let directory = try TemporaryDirectory()
    let source = try directory.child("source")
    var rng = SplitMix64(seed: 7)
    let sizes = [0, 1, 4095, 4096, 65_537, 3 << 20]
    for size in sizes {
      let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
      try Data(bytes).write(to: source.appendingPathComponent("file-\(size)"))
    }
    let copy = directory.url.appendingPathComponent("copy")
    try PrivateCopy.copyTree(from: source, to: copy)
    for size in sizes {
      let name = "file-\(size)"
      #expect(
        try Data(contentsOf: copy.appendingPathComponent(name))
          == Data(contentsOf: source.appendingPathComponent(name)), "\(name)")
    }
    #expect(try StoreTemplate.digest(of: copy).digest == StoreTemplate.digest(of: source).digest)
  }

  @Test("a copy is proven identical to its template; a template changed behind its back is refused, naming both")
  func copyProvenIdentical() throws {
    let directory = try TemporaryDirectory()
    let store = try directory.child("store")
    try Data("database pages".utf8).write(to: store.appendingPathComponent("store.sqlite"))
    let nested = store.appendingPathComponent("articles/ab")
    try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
    try Data("one record".utf8).write(to: nested.appendingPathComponent("record"))
    let template = try StoreTemplate.capture(store, into: directory.url.appendingPathComponent("template"))
    #expect(template.files == ["articles/ab/record", "store.sqlite"])
    #expect(template.bytes == 24)

    let copy = try directory.child("copy")
    try template.restore(into: copy)
    #expect(try StoreTemplate.digest(of: copy).digest == template.digest)
    #expect(
      try String(contentsOf: copy.appendingPathComponent("articles/ab/record"), encoding: .utf8) == "one record")

    // One byte changed in the template: the next copy is refused.
    try Data("database pageS".utf8).write(to: template.directory.appendingPathComponent("store.sqlite"))
    let second = try directory.child("second")
    #expect(throws: StoreTemplate.Mismatch.self) { try template.restore(into: second) }
    do { try template.restore(into: try directory.child("third")) } catch {
      #expect("\(error)".contains("differs from its template") && "\(error)".contains(template.directory.path))
    }
    // The digest covers names, not only bytes.
    let renamed = try directory.child("renamed")
    try Data("database pages".utf8).write(to: renamed.appendingPathComponent("store.db"))
    try FileManager.default.createDirectory(
      at: renamed.appendingPathComponent("articles/ab"), withIntermediateDirectories: true)
    try Data("one record".utf8).write(to: renamed.appendingPathComponent("articles/ab/record"))
    #expect(try StoreTemplate.digest(of: renamed).digest != template.digest)
  }

  @Test(
    "a write workload's repetitions start from copies of one filled store: every repetition verifies, the SQL stores close cleanly (no -wal, -shm left in the template), and the run leaves no template behind",
    arguments: [
      "sqlite[txn=single,journal=wal,sync=normal]", "grdb[writer=pool]", "lmdb", "gdbm", "files", "plist",
      "defaults",
    ])
  func repetitionsFromTemplate(_ backend: String) throws {
    let directory = try TemporaryDirectory()
    let out = directory.url.appendingPathComponent("run")
    let work = try directory.child("work")
    let result = try runStorebench([
      "run", "--workload", "edit", "--size", "20", "--param", "stored=200", "--reps", "3", "--warmup", "0",
      "--backend", backend, "--out", out.path, "--workdir", work.path, "--no-counters",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let rows = try SampleTable(path: out.path).rows
    #expect(rows.count == 3 && rows.allSatisfy { $0.status == .ok }, "\(rows.map(\.error))")
    #expect(Set(rows.map(\.values[.ops])) == [20])
    #expect((try? FileManager.default.contentsOfDirectory(atPath: work.path))?.isEmpty ?? true)
  }

  @Test("the template of a WAL store holds the database alone: the store was closed cleanly before it was kept")
  func walClosedCleanly() throws {
    let directory = try TemporaryDirectory()
    for spec in ["sqlite[journal=wal]", "grdb[writer=pool]"] {
      let parsed = try BackendSpec(parsing: spec)
      let descriptor = try #require(BackendRegistry.standard()[parsed.backend])
      let variant = try descriptor.variant(parsed.settings)
      let store = try directory.child(parsed.backend)
      let opened = try descriptor.open(StoreLocation(directory: store, variant: variant))
      try opened.playing((any ArticleStore).self).load(articles: DatasetGenerator(seed: 7).articles(count: 50))
      try opened.close()
      let template = try StoreTemplate.capture(
        store, into: directory.url.appendingPathComponent("template-\(parsed.backend)"))
      #expect(template.files == descriptor.storeFiles, "\(spec): \(template.files)")
    }
  }

  @Test(
    "a shelf keeps the fills of one run for the next (advise's probe hands its stores to its run): the same store of the same data is copied, not filled again; other data gets its own; a template changed on the shelf is refused"
  )
  func shelfKeepsFillsAcrossRuns() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let shelf = try temp.child("shelf")
    func run(_ name: String, count: Int, stored: Int) throws -> [SampleTable.Row] {
      let yaml = """
        name: \(name)
        seed: 3
        warmup: 0
        repetitions: 2
        backends:
          - backend: sqlite
            variants: [{txn: single}]
        workloads:
          - {workload: edit, parameters: {count: \(count), stored: \(stored)}}
        """
      let scenario = try ScenarioParser(backends: .standard(), workloads: .standard).parse(
        data: Data(yaml.utf8), file: "\(name).yaml")
      let out = try temp.child(name)
      var options = Runner.Options(workdir: temp.url, output: out, commandLine: [], progress: { _ in })
      options.keptFills = shelf
      _ = try Runner(backends: .standard(), workloads: .standard).run(scenario, options: options)
      return try SampleTable(path: out.path).rows
    }
    func index() throws -> [[String: Any]] {
      let data = try Data(contentsOf: shelf.appendingPathComponent("index.json"))
      return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }
    let probe = try run("probe", count: 5, stored: 300)
    #expect(probe.count == 2 && probe.allSatisfy { $0.status == .ok }, "\(probe.map(\.error))")
    let kept = try index()
    #expect(kept.count == 1, "\(kept)")
    let directory = shelf.appendingPathComponent(try #require(kept.first?["directory"] as? String))
    let made = try FileManager.default.attributesOfItem(atPath: directory.path)[.modificationDate] as? Date

    // The run: more operations on the same stored data — every repetition from the probe's fill.
    let full = try run("full", count: 20, stored: 300)
    #expect(full.count == 2 && full.allSatisfy { $0.status == .ok }, "\(full.map(\.error))")
    #expect(Set(full.map(\.values[.ops])) == [20])
    #expect(try index().count == 1)
    #expect(try FileManager.default.attributesOfItem(atPath: directory.path)[.modificationDate] as? Date == made)

    // Other stored data: a fill of its own, beside the first.
    _ = try run("other", count: 5, stored: 400)
    #expect(try index().count == 2)

    // A template changed on the shelf: the copy is refused, not used.
    let file = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first)
    let handle = try FileHandle(forWritingTo: directory.appendingPathComponent(file))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data([1]))
    try handle.close()
    let tampered = try run("tampered", count: 5, stored: 300)
    #expect(tampered.contains { $0.error.contains("differs from its template") }, "\(tampered.map(\.error))")
  }
}
