import Foundation
import StoreBenchCore
import StoreBenchStandard
import Testing

@testable import StoreBenchAnalysis
@testable import StoreBenchFormats
@testable import StoreBenchStatistics

@Suite("The decision report")
struct DecisionReportTests {
  /// Ten repetitions of insert at `size` on `backend`, around `mean` seconds.
  func rows(
    _ backend: String, mean: Double, size: Int = 100, spread: Double = 0.02, repetitions: Int = 10,
    parameters: String? = nil, workload: String = "insert", seed: UInt64
  ) -> [Sample] {
    syntheticSamples(mean: mean, spread: spread, repetitions: repetitions, seed: seed, rows: [backend]).map {
      sample in
      var copy = sample
      copy.key = RowKey(
        scenario: "s", workload: workload, backend: backend, variant: "default", size: size,
        parameters: parameters ?? "count=\(size)")
      return copy
    }
  }

  func cells(_ answer: String, _ workload: String) throws -> [String] {
    let line = try #require(answer.split(separator: "\n").first { $0.hasPrefix("| \(workload) (") })
    return line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
  }

  @Test(
    "per need, whether the answer is settled and which rows are open; a far row settled by the rank test shows the test"
  )
  func settlement() throws {
    let samples =
      rows("fast", mean: 1.0, repetitions: 20, seed: 1)
      + rows("twin", mean: 1.02, spread: 0.25, repetitions: 20, seed: 2)
      + rows("far", mean: 3.0, repetitions: 4, seed: 3)
    let report = DecisionReport(table: try table(samples), promise: { _, _ in .mayLose }, crashes: [:])
    #expect(report.settledRelations.settled == 1 && report.settledRelations.total == 2)
    let line = try #require(report.settlement.split(separator: "\n").first { $0.hasPrefix("| insert |") })
    #expect(
      line
        == "| insert | not settled (1 of 2); still open: twin [default] | none in this run | none in this run |"
    )
    #expect(report.settlement.contains("**1 of 2 relations settled.**"))
    #expect(
      report.rankings.contains(
        "3.02×; settled slower by the rank-sum test (4 repetitions against the fastest's 20; ratio at least 2.88×"
      ), "\(report.rankings)")
    #expect(!report.rankings.contains("too few repetitions to tell); settled"))
  }

  @Test(
    "ranks by median within equal parameters, lowers a promise a crash run refuted, ranks other sizes apart, never the floor"
  )
  func ranking() throws {
    let samples =
      rows("fast", mean: 1.0, seed: 1) + rows("safe", mean: 1.5, seed: 2) + rows("liar", mean: 1.2, seed: 3)
      + rows("floor", mean: 0.1, seed: 4) + rows("small", mean: 0.01, size: 10, seed: 5)
    let promises: [String: DurabilityPromise] = [
      "fast": .survivesKill, "safe": .durable, "liar": .durable, "floor": .none,
      "small": .durable,
    ]
    let kills = try CrashResult.read(
      csv: """
        backend,variant,settings,kills,acked_batches,lost_batches,partial_batches,corrupt_opens,unrecoverable,retries\r
        liar,default,,50,1000,7,0,0,0,0\r
        safe,default,,50,1000,0,0,0,0,0\r

        """)
    let report = DecisionReport(
      table: try table(samples), promise: { backend, _ in promises[backend] }, crashes: kills)
    let answer = report.answer
    let row = try cells(answer, "insert")
    #expect(row[1].hasPrefix("fast [default]") && row[1].contains("survives a killed app, declared"), "\(row)")
    // The durable pick is safe at its own median (about 1.5 s), not the liar (1.2 s), which lost data.
    let pick = try #require(
      row[3].firstMatch(of: #/^safe \[default\]: ([0-9.]+) s \(survives power loss/#),
      "the liar lost data, so safe is the durable pick: \(row)")
    #expect((1.45...1.55).contains(try #require(Double(pick.output.1))), "\(row)")
    #expect(
      answer.contains(
        "if the data must survive power loss, safe [default], which survives power loss (declared; measured: killed app: no loss in 50 kills"
      ),
      "a declared class shows its measurement beside it: \(answer)")
    #expect(answer.contains("### Warnings") && answer.contains("liar [default]: declared 'survives power loss'"))
    let rankings = report.rankings
    #expect(rankings.contains("| floor | floor [default] |"))
    #expect(
      rankings.contains("### insert, ranked apart: 10 records (count=10)")
        && rankings.contains("| 1 | small [default] |"))
    #expect(
      rankings.contains("| liar [default] | 10 |")
        && rankings.contains("lost saves in at least 1 of 50 kills (lost 7 of 1,000 acknowledged batches)"))
    #expect(
      rankings.contains(
        "may lose data when the app is killed (measured: killed app: lost saves in at least 1 of 50 kills (lost 7 of 1,000 acknowledged batches))"
      ))
    #expect(
      rankings.contains(
        "survives power loss (declared; measured: killed app: no loss in 50 kills (1,000 batches acknowledged; ≤ 5.8% per kill, one-sided 95%))"
      ),
      "a declared class shows the measurement beside it: \(rankings)")
  }

  @Test(
    "rows not shown to differ (equivalent or indistinguishable) are tied; the stronger class is picked and the kind of tie said"
  )
  func ties() throws {
    let samples =
      rows("nosync", mean: 1.0, spread: 0.3, seed: 1) + rows("full", mean: 1.05, spread: 0.3, seed: 2)
      + rows("slow", mean: 3.0, seed: 3) + rows("few", mean: 0.5, repetitions: 3, seed: 4)
    let promises: [String: DurabilityPromise] = [
      "nosync": .survivesKill, "full": .durable, "slow": .durable, "few": .durable,
    ]
    let report = DecisionReport(
      table: try table(samples), promise: { backend, _ in promises[backend] }, crashes: [:])
    let answer = report.answer
    let row = try cells(answer, "insert")
    #expect(row[1].hasPrefix("full [default]") && row[1].contains("indistinguishable: nosync [default]"), "\(row)")
    #expect(answer.contains("full [default] survives power loss (declared), and its time is "), "\(answer)")
    #expect(
      answer.contains("indistinguishable against the fastest, nosync [default] (not settled at this precision)."),
      "\(answer)")
    #expect(!answer.contains("few [default]: "), "3 repetitions neither win nor tie")
    let rankings = report.rankings
    #expect(rankings.contains("| – | few [default] | 3 |") && rankings.contains("too few repetitions"))
    #expect(rankings.contains("] slower |") && rankings.contains("] indistinguishable |"), "\(rankings)")
    #expect(!rankings.contains("| tied |"), "the one vocabulary: no 'tied' verdict")
  }

  @Test(
    "the answer comes from the rows that ran the scenario's own parameters, even when limited rows outnumber them")
  func mainGroupIsTheScenarios() throws {
    // 3 limited rows (count=10 of a scenario's 100 queries) outnumber the 2 that ran the real 100; the limited
    // rows are faster in total, as 10 queries are, and must still never be the answer.
    let full = "count=100 limit=50 stored=2000"
    let limited = "count=10 limit=50 stored=2000"
    let samples =
      rows("sql", mean: 1.0, size: 2000, parameters: full, workload: "query", seed: 1)
      + rows("orm", mean: 1.4, size: 2000, parameters: full, workload: "query", seed: 2)
      + rows("kv1", mean: 0.5, size: 2000, parameters: limited, workload: "query", seed: 3)
      + rows("kv2", mean: 0.55, size: 2000, parameters: limited, workload: "query", seed: 4)
      + rows("kv3", mean: 0.6, size: 2000, parameters: limited, workload: "query", seed: 5)
    let report = DecisionReport(
      table: try table(samples), promise: { _, _ in .durable }, crashes: [:], readOnly: ["query"])
    let row = try cells(report.answer, "query")
    #expect(row[1].hasPrefix("sql [default]"), "the full group answers: \(row)")
    #expect(!report.answer.contains("kv1 [default]: "), "a limited group is never the answer")
    #expect(report.rankings.contains("### query, ranked apart: 2,000 records (count=10 limit=50 stored=2000)"))
    #expect(report.rankings.contains("### query: 2,000 records (count=100 limit=50 stored=2000)"))
    // The rule: the group with the largest value of every parameter (limits only lower parameters).
    typealias ID = DecisionReport.GroupID
    let a = ID(size: 10, parameters: "count=100 stored=10", dataset: "")
    let b = ID(size: 10, parameters: "count=10 stored=10", dataset: "")
    #expect(DecisionReport.mainGroup([a: 1, b: 5]) == a)
    // Every row limited, differently: no group dominates, so the most rows decide.
    let c = ID(size: 10, parameters: "count=100 stored=5", dataset: "")
    #expect(DecisionReport.mainGroup([c: 1, b: 5]) == b)
  }

  @Test("a workload that writes nothing is ranked by speed; durability is a property there, not a cost")
  func readOnly() throws {
    let samples =
      rows("fast", mean: 1.0, workload: "lookup", seed: 1) + rows("safe", mean: 2.0, workload: "lookup", seed: 2)
    let promises: [String: DurabilityPromise] = ["fast": .mayLose, "safe": .durable]
    let report = DecisionReport(
      table: try table(samples), promise: { backend, _ in promises[backend] }, crashes: [:],
      readOnly: ["lookup"])
    #expect(
      report.answer.contains(
        "- **lookup** (reads only: durability is a property of the store here, not a cost): fast [default] is the fastest"
      ))
    #expect(!report.answer.contains("if the data must survive power loss"))
  }

  @Test(
    "a measured power-loss loss in any image lowers a durable promise to 'survives a killed app'; unmeasured ones say 'declared'"
  )
  func powerLoss() throws {
    let samples =
      rows("wal", mean: 1.0, seed: 1) + rows("extra", mean: 1.3, seed: 2) + rows("trusted", mean: 1.1, seed: 3)
      + rows("torn", mean: 1.2, seed: 4)
    let promises: [String: DurabilityPromise] = [
      "wal": .durable, "extra": .durable, "trusted": .durable, "torn": .durable,
    ]
    let crashes = try CrashResult.read(
      csv: """
        backend,variant,settings,fault,image,trials,images,acked_batches,lost_batches,partial_batches,corrupt_opens,unrecoverable,retries,status,detail\r
        wal,default,,kill,live,50,50,900,0,0,0,0,0,measured,\r
        wal,default,,power-loss,synced,50,50,800,12,0,0,0,0,measured,\r
        wal,default,,power-loss,prefix,50,150,2400,0,0,0,0,0,measured,\r
        torn,default,,kill,live,50,50,900,0,0,0,0,0,measured,\r
        torn,default,,power-loss,synced,50,50,800,0,0,0,0,0,measured,\r
        torn,default,,power-loss,prefix,50,150,2400,3,0,1,0,0,measured,\r
        extra,default,,kill,live,50,50,900,0,0,0,0,0,measured,\r
        extra,default,,power-loss,synced,50,50,800,0,0,0,0,0,measured,\r
        extra,default,,power-loss,prefix,50,150,2400,0,0,0,0,0,measured,\r
        trusted,default,,kill,live,50,50,900,0,0,0,0,0,measured,\r
        trusted,default,,power-loss,synced,0,0,0,0,0,0,0,0,unavailable,no /dev/fuse\r

        """)
    #expect(
      crashes["wal [default]"]?.synced == CrashResult.Counts(trials: 50, acknowledged: 800, lost: 12, corrupt: 0))
    #expect(
      crashes["wal [default]"]?.prefix
        == CrashResult.Counts(trials: 50, states: 150, acknowledged: 2400, lost: 0, corrupt: 0),
      "a prefix row's crash states are its images (3 per cut), not its cuts")
    let report = DecisionReport(
      table: try table(samples), promise: { backend, _ in promises[backend] }, crashes: crashes)
    let row = try cells(report.answer, "insert")
    #expect(
      row[1].hasPrefix("wal [default]")
        && row[1].contains(
          "survives a killed app, measured: no loss in 50 kills (≤ 5.8% per kill); lost saves in at least 1 of 50 cuts (12 batches; synced image)"
        ), "\(row)")
    #expect(row[3].hasPrefix("trusted [default]") && row[3].contains("survives power loss, declared"), "\(row)")
    let classes = Dictionary(uniqueKeysWithValues: report.classRows.dropFirst().map { ($0[0], $0) })
    #expect(classes["torn"]?[4] == "survives a killed app", "a prefix image's loss lowers the class too")
    #expect(classes["extra"]?[4] == "survives power loss" && classes["extra"]?[5] == "yes")
    #expect(
      classes["extra"]?[6]
        == "measured: power cut: no loss in 50 cuts (50 synced and 150 prefix images; 800 batches acknowledged; ≤ 5.8% per cut, one-sided 95%); killed app: no loss in 50 kills (900 batches acknowledged; ≤ 5.8% per kill, one-sided 95%)",
      "the evidence is crash states (cuts), never batches re-counted over the prefix images")
    #expect(
      classes["torn"]?[6].contains(
        "prefix images lost saves in at least 1 of 150 images of 50 cuts (lost 3 of 2,400 acknowledged batches; 1 of 150 images unreadable or damaged, each losing every save it held)"
      ) == true,
      "\(classes["torn"]?[6] ?? "")")
    #expect(classes["trusted"]?[5] == "no")
    // The answer names wal (fastest of all and that survives a killed app) and trusted (power loss, declared):
    // the variants scripts/bench crash-tests. torn and extra are named only if tied with a pick.
    #expect(report.classRows[0].last == "named")
    #expect(report.namedVariants.isSuperset(of: ["wal [default]", "trusted [default]"]), "\(report.namedVariants)")
    #expect(classes["wal"]?[7] == "yes" && classes["trusted"]?[7] == "yes")
    let rankings = report.rankings
    #expect(
      rankings.contains(
        "synced image lost saves in at least 1 of 50 cuts (lost 12 of 800 acknowledged batches); prefix images no acknowledged batch lost in 150 images of 50 cuts"
      ), "\(rankings)")
    #expect(
      rankings.contains("survives power loss (declared; measured: killed app: no loss in 50 kills")
        && rankings.contains("unavailable: no /dev/fuse"))
  }

  @Test("several crash files merge: counts of the same variant add up")
  func mergedFiles() throws {
    let temp = try TemporaryDirectory()
    let text = """
      backend,variant,settings,fault,image,trials,images,acked_batches,lost_batches,partial_batches,corrupt_opens,unrecoverable,retries,status,detail\r
      a,default,,kill,live,50,50,900,0,0,0,0,0,measured,\r
      a,default,,power-loss,synced,50,50,800,0,0,0,0,0,measured,\r

      """
    for name in ["durability.csv", "durability-quick.csv"] {
      try Data(text.utf8).write(to: temp.url.appendingPathComponent(name))
    }
    let files = CrashResult.files(in: temp.url)
    #expect(files.map(\.lastPathComponent) == ["durability-quick.csv", "durability.csv"])
    let merged = try CrashResult.read(files: files)
    #expect(merged["a [default]"]?.kill == CrashResult.Counts(trials: 100, acknowledged: 1800, lost: 0, corrupt: 0))
    #expect(
      merged["a [default]"]?.durability(declared: .durable).evidence
        == "measured: power cut: no loss in 100 cuts (100 synced images; 1,600 batches acknowledged; ≤ 3% per cut, one-sided 95%); killed app: no loss in 100 kills (1,800 batches acknowledged; ≤ 3% per kill, one-sided 95%)"
    )
  }

  @Test("every label names the settings that decide durability and speed, defaults included")
  func labels() throws {
    let registry = BackendRegistry.standard()
    let (sqlite, variant) = try registry.resolve(backend: "sqlite", settings: "journal=wal")
    #expect(sqlite.label(variant) == "sqlite [txn=single journal=wal sync=full]")
    let (lmdb, lmdbVariant) = try registry.resolve(backend: "lmdb", settings: "")
    #expect(lmdb.label(lmdbVariant) == "lmdb [txn=single sync=full]")
    let (grdb, grdbVariant) = try registry.resolve(backend: "grdb", settings: "")
    #expect(grdb.label(grdbVariant) == "grdb [style=records writer=queue]")
    #expect(
      grdb.promise(grdbVariant) == .survivesKill,
      "GRDB's queue is journal=delete FULL: the last commit may roll back on power loss")
  }

  @Test(
    "migrate: a lazy strategy's deferred first read goes beside its time, ordered by the sum; aging's figures get a table"
  )
  func deferredCostAndFigures() throws {
    func noted(_ samples: [Sample], _ column: SampleColumn, _ value: String) -> [Sample] {
      samples.map { sample in
        var copy = sample
        copy.notes[column] = value
        return copy
      }
    }
    let samples =
      noted(rows("lazy", mean: 0.001, workload: "migrate", seed: 1), .firstReadSeconds, "1.000000000")
      + noted(rows("eager", mean: 0.8, workload: "migrate", seed: 2), .firstReadSeconds, "0.100000000")
      + noted(rows("old", mean: 0.3, workload: "aging", seed: 3), .reclaimedBytes, "4096")
    let report = DecisionReport(
      table: try table(samples), promise: { _, _ in .durable }, crashes: [:],
      figures: WorkloadRegistry.standard.figures)
    // Without the workloads' declarations there is nothing to add: the report knows no workload's figures.
    let bare = DecisionReport(table: try table(samples), promise: { _, _ in .durable }, crashes: [:])
    #expect(bare.figures.isEmpty)
    let line = try #require(report.answer.split(separator: "\n").first { $0.hasPrefix("- **migrate**") })
    #expect(line.contains("first full read after it pays what a lazy strategy deferred"), "\(line)")
    let eager = try #require(line.range(of: "eager [default] 100.0 ms"))
    let lazy = try #require(line.range(of: "lazy [default] 1.00 s"))
    #expect(eager.lowerBound < lazy.lowerBound, "by the sum of both medians: \(line)")
    #expect(report.figures.contains("### migrate") && report.figures.contains("| first full read |"))
    #expect(report.figures.contains("### aging") && report.figures.contains("4,096 B"))
    #expect(
      !report.answer.contains("- **aging**: ")
        || !report.answer.split(separator: "\n").first { $0.hasPrefix("- **aging**") }!.contains(
          "first full read")
    )
  }
}
