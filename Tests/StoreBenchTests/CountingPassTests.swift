import Foundation
import StoreBenchBackends
import StoreBenchCore
import Testing

/// The counting passes (`storebench run --count`), end to end through the binary: instructions under callgrind and
/// allocations through the preloaded interposer, once per case after the timed repetitions; the same counts on two
/// identical runs; and a small planted change per operation (`STOREBENCH_TEST_EXTRA_WORK`) caught by compare, the
/// count gate's judge, and by a budget.
@Suite("Counting passes", .serialized)
struct CountingPassTests {
  /// Lookups and inserts of 200 articles on sqlite and lmdb, one timed repetition, both passes.
  static func run(
    _ name: String, in directory: TemporaryDirectory, environment: [String: String] = [:]
  ) throws -> (path: String, table: SampleTable) {
    let out = directory.url.appendingPathComponent(name)
    let result = try runStorebench(
      [
        "run", "--backend", "sqlite", "--backend", "lmdb", "--workload", "lookup", "--workload", "insert",
        "--size", "200", "--reps", "1", "--warmup", "0", "--count", "all", "--out", out.path, "--workdir",
        try directory.child("work-\(name)").path,
      ], environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    return (out.path, try SampleTable(path: out.path))
  }

  /// The `counted` row of a backend's workload.
  static func counted(_ table: SampleTable, _ backend: String, _ workload: String) throws -> SampleTable.Row {
    try #require(
      table.rows.first { $0.status == .counted && $0.key.backend == backend && $0.key.workload == workload },
      "no counted row for \(backend) \(workload)")
  }

  @Test("a pass list parses by name or as all, and an unknown pass is refused by name")
  func parsing() throws {
    #expect(try CountingPass.parse("all") == [.instructions, .allocations])
    #expect(try CountingPass.parse("allocations") == [.allocations])
    #expect(try CountingPass.parse("instructions, allocations") == [.instructions, .allocations])
    #expect(throws: CounterUnavailable.self) { try CountingPass.parse("cycles") }
    #expect(CountingPass.instructions.costs == [.instructions])
    #expect(CountingPass.allocations.costs == [.allocations, .allocatedBytes, .frees])
    // The timed repetitions' costs belong to no pass.
    #expect(CountedCost.allCases.filter { $0.pass == nil }.count == 12)
  }

  @Test(
    "a callgrind dump's count is its totals without the allocator's and libdispatch's timers' own instructions, names defined once and recursion suffixes read"
  )
  func callgrindTotals() throws {
    // A dump written by CALLGRIND_DUMP_STATS_AT: 6,000 instructions of a loop, a malloc (with its helper), a
    // libdispatch worker-pool check; calls lines carry inclusive costs, which are not a function's own.
    let dump = """
      version: 1
      creator: callgrind-3.19.0
      part: 1
      desc: Trigger: Client Request: storebench region
      positions: line
      events: Ir
      summary: 0

      ob=(1) /lib/x86_64-linux-gnu/libc.so.6
      fl=(1) ./malloc/malloc.c
      fn=(1) _int_malloc
      10 40
      +2 8
      fn=(2) unlink_chunk.constprop.0
      5 7
      fn=(3) malloc
      20 9
      cfn=(1)
      calls=1 10
      20 55
      fn=(4) sb_spin
      1 6000
      cfn=(3)
      calls=1 20
      1 64
      fn=(1)
      12 3
      fn=(5) _dispatch_workq_monitor_pools'2
      3 71
      fn=(6) swift_release'2
      4 12

      totals: 6150
      """
    let read = try #require(CallgrindDump(dump))
    #expect(read.total == 6150)
    #expect(read.excluded == 40 + 8 + 7 + 9 + 3 + 71)
    #expect(read.counted == 6000 + 12)
    #expect(CallgrindDump("events: Ir\nsummary: 12\n") == nil)
    #expect(CallgrindDump.isExcluded("__libc_malloc") && !CallgrindDump.isExcluded("swift_allocObject"))
  }

  @Test(
    "instructions and allocations per operation are counted once per case, agree between identical runs, and a planted +2% instructions and +1 allocation per lookup are regressions"
  )
  func plantedWork() throws {
    let directory = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let first = try Self.run("first", in: directory)
    let again = try Self.run("again", in: directory)
    let environment = try #require(first.table.counters)
    for cost in CountedCost.allCases where cost.pass != nil {
      #expect(environment.counted.contains(cost), "\(environment.missing)")
    }
    // One counted row per case, its times empty, every pass's counts in it; the timed row keeps no pass's counts.
    for row in first.table.rows {
      if row.status == .counted {
        #expect(row.repetition == 0)
        #expect(row.values[.wallSeconds] == nil && row.values[.ops] == nil)
        for cost in CountedCost.allCases where cost.pass != nil {
          #expect(row.values[SampleColumn.counted(cost).perOp] != nil, "\(row.key.workload) \(row.key.backend) \(cost)")
        }
      } else {
        #expect(row.status == .ok)
        #expect(row.values[SampleColumn.counted(.instructions).perOp] == nil)
      }
    }
    #expect(first.table.rows.count { $0.status == .counted } == 4)
    // Two identical runs agree within the tolerance the gate judges by (±1%), instructions too: the allocator's
    // instructions, which depend on the heap's history (an lmdb lookup's moved 4% with them), are not in the count.
    for row in first.table.rows where row.status == .counted {
      let other = try Self.counted(again.table, row.key.backend, row.key.workload)
      for cost in CountedCost.allCases where cost.pass != nil {
        let column = SampleColumn.counted(cost).perOp
        let (a, b) = (try #require(row.values[column]), try #require(other.values[column]))
        #expect(abs(b - a) <= 0.01 * a, "\(row.key.workload) \(row.key.backend) \(column.rawValue): \(a) then \(b)")
      }
    }
    let instructions = SampleColumn.counted(.instructions).perOp
    let allocations = SampleColumn.counted(.allocations).perOp
    let lookup = try #require(try Self.counted(first.table, "sqlite", "lookup").values[instructions])
    // The seam's loop costs at least 4 instructions an iteration: this plants at least +2% per lookup.
    let iterations = Int((0.02 * lookup / 4).rounded(.up))
    let planted = try Self.run(
      "planted", in: directory,
      environment: [TestExtraWork.variable: "sqlite/lookup:\(iterations):1"])
    let plantedRow = try Self.counted(planted.table, "sqlite", "lookup")
    let ratio = try #require(plantedRow.values[instructions]) / lookup
    #expect(ratio >= 1.02 && ratio < 1.08, "planted ratio \(ratio)")
    let extra =
      try #require(plantedRow.values[allocations])
      - (try #require(try Self.counted(first.table, "sqlite", "lookup").values[allocations]))
    #expect(abs(extra - 1) < 0.01, "allocations per lookup grew by \(extra), not 1")
    let metrics = [
      "--metric", "instructions_per_op", "--metric", "allocations_per_op", "--metric", "allocated_bytes_per_op",
    ]
    let gate = try runStorebench(
      ["compare", first.path, planted.path, "--require-counts", "--allow-underpowered", "--filter", "lookup"]
        + metrics)
    #expect(gate.status == 2, "\(gate.stdout)\n\(gate.stderr)")
    let regressions = gate.stdout.split(separator: "\n").filter { $0.hasPrefix("- regression:") }
    #expect(
      regressions.contains { $0.contains("sqlite") && $0.contains("lookup") && $0.contains("instructions_per_op") })
    #expect(
      regressions.contains { $0.contains("sqlite") && $0.contains("lookup") && $0.contains("allocations_per_op") })
    #expect(!regressions.contains { $0.contains("lmdb") && $0.contains("allocations_per_op") }, "\(regressions)")
    #expect(!regressions.contains { $0.contains("insert") }, "\(regressions)")
    let same = try runStorebench(
      ["compare", first.path, again.path, "--require-counts", "--allow-underpowered", "--filter", "sqlite*"]
        + metrics)
    #expect(same.status == 0, "\(same.stdout)\n\(same.stderr)")
    // A budget on a pass's count is decided on its one counted row.
    let budgets = directory.url.appendingPathComponent("budgets.yaml")
    try """
    budgets:
      - {workload: lookup, backend: sqlite, metric: instructions_per_op, max: \(Int(lookup * 0.9))}
      - {workload: lookup, backend: lmdb, metric: allocations_per_op, max: 1000000}
    """.write(to: budgets, atomically: true, encoding: .utf8)
    let check = try runStorebench(["check", "--budgets", budgets.path, first.path])
    #expect(check.status == 2, "\(check.stdout)\n\(check.stderr)")
    #expect(check.stdout.contains("counted exactly in the instructions pass"), "\(check.stdout)")
    #expect(check.stdout.contains("**Budgets: 1 broken** of 2 judgements"), "\(check.stdout)")
  }

  @Test("a run without the passes has none of their counts, and the gate refuses to compare what one side lacks")
  func passMissing() throws {
    let directory = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let counted = try Self.run("counted", in: directory)
    let out = directory.url.appendingPathComponent("plain")
    let plain = try runStorebench([
      "run", "--backend", "sqlite", "--backend", "lmdb", "--workload", "lookup", "--workload", "insert",
      "--size", "200", "--reps", "1", "--warmup", "0", "--out", out.path, "--workdir",
      try directory.child("work-plain").path,
    ])
    #expect(plain.status == 0, "\(plain.stderr)")
    let table = try SampleTable(path: out.path)
    #expect(!table.rows.contains { $0.status == .counted })
    let missing = try #require(table.counters?.missing["instructions"])
    #expect(missing.contains("--count instructions"), "\(missing)")
    let gate = try runStorebench([
      "compare", counted.path, out.path, "--metric", "instructions_per_op", "--require-counts",
      "--allow-underpowered",
    ])
    #expect(gate.status == 1, "\(gate.stdout)\n\(gate.stderr)")
    #expect((gate.stdout + gate.stderr).contains("instructions counts not compared"))
  }

  @Test("a variant whose work follows the clock (sqlite txn=batch) is not counted; its neighbour in the run is")
  func timingDependentVariant() throws {
    let sqlite = try #require(BackendRegistry.standard()["sqlite"])
    #expect(sqlite.workDependsOnTiming(try sqlite.variant(["txn": "batch"])))
    #expect(!sqlite.workDependsOnTiming(try sqlite.variant(["txn": "single"])))
    let directory = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let out = directory.url.appendingPathComponent("batch")
    let result = try runStorebench([
      "run", "--backend", "sqlite[txn=batch]", "--backend", "sqlite[txn=single]", "--workload", "insert",
      "--size", "100", "--reps", "1", "--warmup", "0", "--count", "allocations", "--out", out.path, "--workdir",
      try directory.child("work").path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let table = try SampleTable(path: out.path)
    let counted = table.rows.filter { $0.status == .counted }.map(\.key.variant)
    #expect(counted.count == 1 && counted.allSatisfy { $0.contains("txn=single") }, "\(counted)")
    #expect(table.rows.contains { $0.status == .ok && $0.key.variant.contains("txn=batch") })
  }
}
