import Foundation
import StoreBenchCore
import StoreBenchCrash
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Enumerated crash states on the real libraries, through the page-cache layer (docs/POWER-LOSS.md).
@Suite(
  "Power loss by enumeration: every crash state of a traced run", .serialized,
  .enabled(
    if: PageCacheMount.unavailableReason() == nil,
    "needs /dev/fuse and the permission to mount: \(PageCacheMount.unavailableReason() ?? "")"))
struct PowerLossEnumerationTests {
  func trials(_ backend: String, _ settings: [String: String], in temp: TemporaryDirectory, seed: UInt64 = 7)
    throws -> CrashTrials
  {
    let descriptor = try #require(BackendRegistry.standard()[backend])
    var trials = CrashTrials(
      executable: try storebenchBinary(), backend: descriptor, variant: try descriptor.variant(settings),
      workRoot: temp.url, seed: seed)
    trials.fault = .powerLoss
    trials.batchSize = 5
    trials.enumeratedBatches = 8
    return trials
  }

  @Test(
    "SQLite journal=delete, synchronous=FULL: every state that loses anything loses exactly the newest acknowledged commit, and the unsynced report names the journal's unlink; EXTRA and WAL/FULL lose nothing in any state"
  )
  func sqliteStates() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let full = try trials("sqlite", ["journal": "delete", "sync": "full"], in: temp).enumerate()
    #expect(full.plan.states.count > full.plan.points.count && full.plan.points.allSatisfy { !$0.sampled })
    let losing = full.plan.states.indices.filter { !full.verdicts.stateLosses[$0].lost.isEmpty }
    #expect(!losing.isEmpty, "delete/FULL never lost its last commit")
    for index in losing {
      let point = full.plan.points[full.plan.states[index].point]
      #expect(full.verdicts.stateLosses[index].lost == [point.acknowledged.map(\.batch).max()!], "\(point)")
    }
    #expect(full.verdicts.stateLosses.allSatisfy { !$0.corrupt })
    #expect(
      full.unsynced.items.contains { $0.path.hasSuffix("-journal") && $0.change == "removed" },
      "\(full.unsynced.lines)")
    for settings in [["journal": "delete", "sync": "extra"], ["journal": "wal", "sync": "full"]] {
      let run = try trials("sqlite", settings, in: temp).enumerate()
      #expect(run.verdicts.acknowledged == 8)
      #expect(
        run.verdicts.stateLosses.allSatisfy { $0.lost.isEmpty && !$0.corrupt },
        "\(settings): \(run.verdicts.tallies)")
    }
  }

  @Test(
    "the loss window on a writer with a known batching delay: it syncs its store 200 ms after an acknowledgement, and the oldest save a state loses is 200 ms old or a little more, never older"
  )
  func lossWindowOfADelayedWriter() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    // SQLite with synchronous=OFF never syncs on its own: only the seam's group sync makes a save durable.
    var run = try trials("sqlite", ["journal": "wal", "sync": "off"], in: temp)
    run.delayedSync = 200
    run.enumeratedBatches = 12
    let enumeration = try run.enumerate()
    let synced = try #require(enumeration.verdicts.tallies[.synced])
    let window = Double(try #require(synced.lossWindow)) / 1e6
    // The state just before a group sync loses every save since the last one, the oldest at least 200 ms old;
    // the writer paces its batches 50 ms apart, so no save waits longer than about 250 ms plus one batch's write
    // (slowed by the layer: the bound allows 150 ms for it).
    #expect(window >= 200 && window <= 400, "loss window \(window) ms")
    // At 50 ms a batch, 4 or 5 saves are pending at a sync: never all 12.
    let depth = try #require(synced.lossDepth)
    #expect(depth >= 3 && depth <= 6, "loss depth \(depth)")
    #expect(enumeration.verdicts.stateLosses.allSatisfy { !$0.corrupt })
  }

  @Test(
    "a writer that skips one fsync before acknowledging is caught by enumeration in every run; random cuts catch it only sometimes"
  )
  func droppedSyncIsCaught() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    for seed: UInt64 in [1, 2, 3] {
      var run = try trials("sqlite", ["journal": "wal", "sync": "full"], in: temp, seed: seed)
      run.droppedSync = 3
      let enumeration = try run.enumerate()
      #expect(
        enumeration.verdicts.tallies[.synced]?.lostStates ?? 0 > 0,
        "seed \(seed): enumeration missed the skipped fsync")
    }
    // The same writer under 10 random cuts: the cut must fall between the skipped sync and the next one.
    var random = try trials("sqlite", ["journal": "wal", "sync": "full"], in: temp)
    random.droppedSync = 3
    random.cuts = .random
    random.maxDelayMilliseconds = 200
    let rows = try random.run(trials: 10)
    let synced = try #require(rows.first { $0.image == .synced })
    print(
      "random cuts: the skipped fsync lost a batch in \(synced.lostBatches > 0 ? "some" : "none") of 10 cuts (\(synced.summary))"
    )
    #expect(synced.trials == 10)
  }

  @Test(
    "crash --cuts enumerate writes state-counted rows and unsynced.csv; a torn page in gdbm's in-place write is found"
  )
  func commandLine() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let scenario = try temp.file(
      "two.yaml",
      """
      name: two
      backends:
        - {backend: sqlite, variants: [{journal: delete, sync: full}]}
        - {backend: gdbm, variants: [{sync: each}]}
      workloads: [{workload: insert}]
      """)
    let out = temp.url.appendingPathComponent("out")
    let result = try runStorebench([
      "crash", "--scenario", scenario, "--trials", "2", "--batch", "5", "--batches", "6", "--tear", "page",
      "--max-delay-ms", "50", "--out", out.path, "--workdir", temp.url.path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let table = try CSVFormat.decode(
      String(contentsOf: out.appendingPathComponent("durability.csv"), encoding: .utf8))
    func value(_ row: [String], _ column: String) -> String { row[table.header.firstIndex(of: column)!] }
    let power = table.rows.filter { value($0, "fault") == "power-loss" }
    #expect(power.map { value($0, "image") } == ["synced", "prefix", "torn", "synced", "prefix", "torn"])
    for row in power {
      #expect(value(row, "method") == "enumerated" && value(row, "trials") == "1", "\(row)")
      #expect(value(row, "acked_batches") == "6", "\(row)")
      // SQLite writes one page at a time: it has no torn states; GDBM's writeback writes several pages at once.
      let torn = value(row, "image") == "torn"
      #expect(
        Int(value(row, "points"))! > 0
          && (Int(value(row, "images"))! > 0) != (torn && value(row, "backend") == "sqlite"),
        "\(row)")
    }
    let gdbmTorn = try #require(power.first { value($0, "backend") == "gdbm" && value($0, "image") == "torn" })
    #expect(
      Int(value(gdbmTorn, "corrupt_opens"))! + Int(value(gdbmTorn, "lost_batches"))! > 0,
      "a torn page in GDBM's in-place write went unnoticed: \(gdbmTorn)")
    let fullSynced = try #require(
      power.first { value($0, "backend") == "sqlite" && value($0, "image") == "synced" })
    #expect(Int(value(fullSynced, "lost_states"))! > 0, "\(fullSynced)")
    let unsynced = try String(contentsOf: out.appendingPathComponent("unsynced.csv"), encoding: .utf8)
    #expect(unsynced.contains("-journal,removed"), "\(unsynced)")
    print(table.rows.map { $0.joined(separator: ",") }.joined(separator: "\n"))
    // The report reads the enumerated rows in states.
    let crash = try CrashResult.read(files: CrashResult.files(in: out))
    let sqlite = try #require(crash.first { $0.key.hasPrefix("sqlite") }?.value)
    #expect(sqlite.powerLossSummary.contains("synced states: lost"), "\(sqlite.powerLossSummary)")
  }
}
