import Foundation
import StoreBenchCore
import Testing

/// The counted costs, end to end through the binary (a separate process: counters see every thread of the process
/// that opens them, and the test process runs many tests at once). Run as root with tracefs mounted, as
/// scripts/test does; as another user the counted cells must be empty with the reason in environment.json.
@Suite("Counted costs", .serialized)
struct CountedCostTests {
  /// Inserts `size` articles with each variant (one repetition, no warm-up); the rows by backend and variant.
  static func insert(
    _ variants: [String], size: Int, in directory: TemporaryDirectory, name: String = "run",
    environment: [String: String] = [:]
  ) throws -> (table: SampleTable, environment: [String: Any]) {
    let out = directory.url.appendingPathComponent(name)
    let work = try directory.child("work-\(name)")
    let result = try runStorebench(
      [
        "run", "--workload", "insert", "--size", String(size), "--reps", "2", "--warmup", "0",
        "--out", out.path, "--workdir", work.path,
      ] + variants.flatMap { ["--backend", $0] },
      environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    let data = try Data(contentsOf: out.appendingPathComponent("environment.json"))
    let environment = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return (try SampleTable(path: out.path), environment)
  }

  static var countersExpected: Bool {
    geteuid() == 0 && FileManager.default.fileExists(atPath: "/sys/kernel/tracing/events/syscalls")
  }

  @Test(
    "every sync a library documents is counted: SQLite's journal syncs, LMDB's O_DSYNC meta page, one fsync per file and directory"
  )
  func documentedSyncs() throws {
    let directory = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    // syncs per inserted record, from each library's documentation (docs/MEASURING.md has the table).
    let perRecord: [(variant: String, backend: String, syncs: Int)] = [
      ("sqlite[txn=none,journal=delete,sync=normal]", "sqlite", 3),  // journal, its directory, the database
      ("sqlite[txn=none,journal=delete,sync=full]", "sqlite", 4),  // + the journal header again
      ("sqlite[txn=none,journal=wal,sync=normal]", "sqlite", 0),  // WAL syncs at checkpoints only
      ("sqlite[txn=none,journal=wal,sync=full]", "sqlite", 1),  // the WAL at every commit
      ("lmdb[txn=each,sync=full]", "lmdb", 2),  // data pages, then the meta page (O_DSYNC)
      ("lmdb[txn=each,sync=nometasync]", "lmdb", 1),
      ("lmdb[txn=each,sync=nosync]", "lmdb", 0),
      ("gdbm[sync=each]", "gdbm", 1),
      ("memory", "memory", 0),
    ]
    let size = 30
    let run = try Self.insert(perRecord.map(\.variant) + ["files[fsync=each]"], size: size, in: directory)
    let counters = try #require(run.environment["counters"] as? [String: Any])
    let counted = counters["counted"] as? [String] ?? []
    let rows = run.table.rows.filter { $0.status == .ok }
    #expect(rows.count == 2 * (perRecord.count + 1))
    guard Self.countersExpected else {
      // Not root: no event is counted, the cells are empty and the reason is recorded once.
      #expect(!counted.contains("syncs"))
      #expect((counters["missing"] as? [String: String])?["syncs"]?.isEmpty == false)
      #expect(rows.allSatisfy { $0.values[.syncs] == nil && $0.values[.syncsPerOp] == nil })
      return
    }
    // Every cost a timed repetition counts; the counting passes' costs need `--count`.
    #expect(Set(counted) == Set(CountedCost.allCases.filter { $0.pass == nil }.map(\.rawValue)), "\(counters)")
    for row in rows {
      let syncs = try #require(row.values[.syncs])
      let ops = try #require(row.values[.ops])
      #expect(ops == Double(size))
      #expect(abs((row.values[.syncsPerOp] ?? -1) - syncs / ops) <= 1e-5 * max(1, syncs / ops))
      if row.key.backend == "files" {
        // One fsync of the file and one of its directory per record, plus one per new fan-out directory.
        let created = try #require(row.values[.filesCreated])
        #expect(syncs == ops + created, "\(row.key.variant)")
        #expect(row.values[.renames] == ops)
        continue
      }
      let expected = try #require(
        perRecord.first { candidate in
          let settings = Self.distinctive(candidate.variant)
          return candidate.backend == row.key.backend
            && (settings.isEmpty || row.key.variant.contains(settings))
        })
      #expect(syncs == Double(expected.syncs * size), "\(row.key.backend) [\(row.key.variant)]")
    }
    let memory = try #require(rows.first { $0.key.backend == "memory" })
    for column in [SampleColumn.writeCalls, .writtenBytes, .readCalls, .renames, .unlinks, .filesCreated] {
      #expect(memory.values[column] == 0, "memory \(column)")
    }
    #expect(memory.values[.recordBytes] ?? 0 > 0)
  }

  @Test(
    "a save is one operation: insert batch=1 commits each save, WAL+FULL syncs once per save; the repetitions that start from the filled store's template count what the freshly filled one counts"
  )
  func oneSavePerOperationAndTemplateCopies() throws {
    let directory = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let out = directory.url.appendingPathComponent("run")
    let work = try directory.child("work")
    let result = try runStorebench([
      "run", "--workload", "insert", "--size", "20", "--param", "stored=400", "--param", "batch=1",
      "--reps", "3", "--warmup", "0", "--out", out.path, "--workdir", work.path,
      "--backend", "sqlite[txn=single,journal=wal,sync=full]", "--backend", "lmdb[txn=single,sync=full]",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let rows = try SampleTable(path: out.path).rows
    #expect(rows.count == 6 && rows.allSatisfy { $0.status == .ok })
    // 20 app operations of one record each, not 20 records in one operation.
    #expect(rows.allSatisfy { $0.values[.ops] == 20 })
    // The work directory holds no template once the run is over.
    #expect((try? FileManager.default.contentsOfDirectory(atPath: work.path))?.isEmpty ?? true)
    guard Self.countersExpected else { return }
    for backend in ["sqlite", "lmdb"] {
      let reps = rows.filter { $0.key.backend == backend }.sorted { $0.repetition < $1.repetition }
      let first = try #require(reps.first)
      // Repetition 1 filled its store; 2 and 3 started from copies of it: the same counted work per save.
      for copy in reps.dropFirst() {
        for column in [SampleColumn.syncsPerOp, .writeCallsPerOp, .renamesPerOp, .unlinksPerOp] {
          #expect(copy.values[column] == first.values[column], "\(backend) \(column) rep \(copy.repetition)")
        }
      }
      if backend == "sqlite" {
        // One WAL sync per committed save, plus the new WAL's header syncs at its first commit after the
        // open (2 on this platform), nothing else.
        #expect(
          reps.allSatisfy { row in
            let extra = (row.values[.syncsPerOp] ?? 0) * 20 - 20
            return (0...3).contains(extra.rounded())
          }, "\(reps.map { $0.values[.syncsPerOp] ?? -1 })")
      } else {
        #expect(reps.allSatisfy { $0.values[.syncsPerOp] == 2 }, "data pages, then the meta page per save")
      }
    }
  }

  /// The part of a variant that tells it apart in the row's canonical variant text.
  static func distinctive(_ variant: String) -> String {
    guard let open = variant.firstIndex(of: "[") else { return "" }
    let settings = variant[variant.index(after: open)..<variant.index(before: variant.endIndex)].split(
      separator: ",")
    let txn = settings.first { $0.hasPrefix("txn=") }.map(String.init) ?? ""
    let rest = settings.filter { !$0.hasPrefix("txn=") }
    // Canonical order puts txn first, then the others in the descriptor's order, which is the order written here.
    return ([txn] + rest.map(String.init)).filter { !$0.isEmpty }.joined(separator: " ")
  }

  @Test(
    "the gate exits 2 when a backend syncs once more per record, names it with both values, and stays quiet on A/A")
  func gateCatchesOneMoreSync() throws {
    guard Self.countersExpected else { return }
    let directory = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let variants = ["lmdb[txn=each,sync=full]", "memory"]
    let baseline = try Self.insert(variants, size: 20, in: directory, name: "baseline")
    _ = try Self.insert(variants, size: 20, in: directory, name: "same")
    _ = try Self.insert(
      variants, size: 20, in: directory, name: "seam", environment: [TestExtraSync.variable: "lmdb"])
    #expect(baseline.table.rows.count == 4)
    let gate = [
      "--metric", "syncs_per_op", "--metric", "files_created_per_op", "--require-counts", "--allow-underpowered",
    ]
    let path = { (name: String) in directory.url.appendingPathComponent(name).path }
    let same = try runStorebench(["compare", path("baseline"), path("same")] + gate)
    #expect(same.status == 0, "\(same.stdout)\n\(same.stderr)")
    let seam = try runStorebench(["compare", path("baseline"), path("seam")] + gate)
    #expect(seam.status == 2, "\(seam.stdout)\n\(seam.stderr)")
    #expect(
      seam.stdout.contains(
        "regression: lmdb [txn=each sync=full mapsize_mb=2048 migrate=eager] insert (size 20): syncs_per_op 2.00 → 3.00"
      ),
      "\(seam.stdout)")
    #expect(!seam.stdout.contains("regression: memory"))
  }

  @Test("a run without counters is named by the gate, never compared as if equal")
  func uncountedBaselineIsNamed() throws {
    let directory = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    _ = try Self.insert(["memory"], size: 10, in: directory, name: "counted")
    let off = try runStorebench([
      "run", "--workload", "insert", "--size", "10", "--reps", "2", "--warmup", "0", "--backend", "memory",
      "--no-counters", "--out", directory.url.appendingPathComponent("off").path,
      "--workdir", try directory.child("work-off").path,
    ])
    #expect(off.status == 0, "\(off.stderr)")
    let path = { (name: String) in directory.url.appendingPathComponent(name).path }
    let warned = try runStorebench([
      "compare", path("off"), path("counted"), "--metric", "syncs_per_op", "--allow-underpowered",
    ])
    #expect(warned.stdout.contains("counts not compared: the baseline counted no events"), "\(warned.stdout)")
    let required = try runStorebench([
      "compare", path("off"), path("counted"), "--metric", "syncs_per_op", "--require-counts",
      "--allow-underpowered",
    ])
    #expect(required.status == 1, "\(required.stdout)")
  }

  @Test("as another user than root: exit 0, the event counts empty (never zero), the reason in environment.json")
  func nonRootRunSaysWhy() throws {
    guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
    let directory = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.url.path)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    process.arguments = [
      "--reuid=65534", "--regid=65534", "--clear-groups", try storebenchBinary().path, "run",
      "--workload", "insert", "--size", "10", "--reps", "2", "--warmup", "0", "--backend", "files",
      "--out", directory.url.appendingPathComponent("out").path, "--workdir", directory.url.path,
    ]
    process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory.url.path, "TMPDIR": directory.url.path]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let out = directory.url.appendingPathComponent("out")
    let environment = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: out.appendingPathComponent("environment.json"))) as? [String: Any])
    let counters = try #require(environment["counters"] as? [String: Any])
    let missing = try #require(counters["missing"] as? [String: String])
    #expect(missing["syncs"]?.contains("root") == true, "\(missing)")
    #expect(missing["context_switches"] != nil)
    let rows = try SampleTable(path: out.path).rows
    #expect(rows.count == 2 && rows.allSatisfy { $0.status == .ok })
    #expect(
      rows.allSatisfy {
        $0.values[.syncs] == nil && $0.values[.writeCalls] == nil && $0.values[.syncsPerOp] == nil
      })
    #expect(rows.allSatisfy { $0.values[.writtenBytes] != nil }, "wchar needs no privilege")
  }
}
