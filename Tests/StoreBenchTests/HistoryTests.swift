import Foundation
import StoreBenchAnalysis
import StoreBenchContract
import StoreBenchStatistics
import Testing

@testable import StoreBenchHistory

/// A synthetic run directory: `environment.json`, `summary.csv` and `samples.csv` with one row per (workload, value).
func writeSyntheticRun(
  in directory: URL, commit: String, commitTime: Int = 0, host: String = "vm", scenarioHash: String = "h1",
  rows: [(workload: String, median: Double, samples: [Double])], status: String = "ok",
  interrupted: Bool = false
) throws {
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  var environment: [String: Any] = [
    "storebench_version": "test", "git_commit": commit,
    "started_at": "2026-11-01T00:00:\(String(format: "%02d", commitTime % 60))Z", "host": host,
    "cpu_model": "cpu", "cores": 2, "memory_bytes": 1 << 30, "kernel": "Linux", "workdir_filesystem": "ext4",
    "scenario_name": "synthetic", "scenario_hash": scenarioHash, "libraries": ["sqlite": "3"],
    "repetition_policy_values": ["min_repetitions": 6], "commit_time_for_test": commitTime,
  ]
  if interrupted { environment["interrupted"] = "SIGINT" }
  try JSONSerialization.data(withJSONObject: environment, options: [.sortedKeys]).write(
    to: directory.appendingPathComponent("environment.json"))
  var summary =
    "scenario,workload,backend,variant,size,status,n,failed,median_s,median_ci95_low_s,median_ci95_high_s,parameters,median_syncs_per_op\n"
  var samples = "scenario,workload,backend,variant,size,repetition,status,wall_s,parameters,dataset\n"
  for row in rows {
    summary +=
      "synthetic,\(row.workload),memory,default,100,\(status),\(row.samples.count),0,\(row.median),,,count=100,1\n"
    for (index, value) in row.samples.enumerated() {
      samples += "synthetic,\(row.workload),memory,default,100,\(index + 1),\(status),\(value),count=100,d1\n"
    }
  }
  try Data(summary.utf8).write(to: directory.appendingPathComponent("summary.csv"))
  try Data(samples.utf8).write(to: directory.appendingPathComponent("samples.csv"))
}

/// Normal draws from a seeded generator (Box–Muller).
struct Gaussian {
  var rng: SplitMix64
  mutating func next() -> Double {
    let u = max(Double(rng.next() >> 11) / Double(1 << 53), 1e-12)
    let v = Double(rng.next() >> 11) / Double(1 << 53)
    return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
  }
}

@Suite("History")
struct HistoryTests {
  static func run(_ id: Int64, commit: String, host: String = "vm") -> HistoryRun {
    HistoryRun(
      id: id, commit: commit, dirty: false, branch: nil, commitTime: Double(id),
      startedAt: "2026-11-01T00:00:00Z",
      machine: host, host: host, cpuModel: "cpu", kernel: "Linux", fileSystem: "ext4", scenarioName: "s",
      scenarioHash: "h", partial: nil)
  }

  /// A series of `values`, one run each, commits c000, c001, …
  static func series(_ values: [Double], metric: HistorySeries.Metric = .time, name: String = "w") -> HistorySeries {
    let key = HistorySeries.Key(
      machine: "vm", scenarioHash: "h",
      row: RowKey(scenario: "", workload: name, backend: "memory", variant: "default", size: 100, parameters: ""),
      dataset: "d", metric: metric)
    return HistorySeries(
      key: key,
      points: values.enumerated().map { index, value in
        HistorySeries.Point(
          run: run(Int64(index), commit: String(format: "c%03d", index)), rowKey: name, value: value,
          interval: nil, n: 6)
      })
  }

  /// Precision and recall of the step scan on 400 synthetic histories of 20 runs (200 with a 20% step after run 10,
  /// 200 without), each run's median off by `noise` × a normal draw. A found step counts as right within one run
  /// of the true one; every other found step, in either kind of history, counts against precision.
  static func operatingPoint(noise: Double, seed: UInt64) -> (
    precision: Double, recall: Double, detected: Double, nullSteps: Double
  ) {
    var gaussian = Gaussian(rng: SplitMix64(seed: seed))
    var truePositives = 0
    var falsePositives = 0
    var nullSteps = 0
    var detected = 0
    var check = HistoryCheck()
    check.minHistory = 1_000  // steps only
    for trial in 0..<400 {
      let step = trial % 2 == 0
      let values = (0..<20).map { index in (step && index >= 10 ? 1.2 : 1.0) * (1 + noise * gaussian.next()) }
      let found = check.check([Self.series(values)]).steps.map { Int($0.first.id) }
      if step && !found.isEmpty { detected += 1 }
      for index in found {
        if step && abs(index - 10) <= 1 { truePositives += 1 } else { falsePositives += 1 }
        if !step { nullSteps += 1 }
      }
    }
    let result = (
      precision: Double(truePositives) / Double(max(1, truePositives + falsePositives)),
      recall: Double(truePositives) / 200, detected: Double(detected) / 200, nullSteps: Double(nullSteps) / 200
    )
    print(
      String(
        format: "history steps, 20%% step at %.1f%% noise, 10+10 runs: precision %.3f, recall %.3f "
          + "(a step found at all in %.3f; false steps per history without one %.3f)",
        noise * 100, result.precision, result.recall, result.detected, result.nullSteps))
    return result
  }

  @Test("Steps at 5% noise: precision and recall ≥ 0.9 for a 20% step, 10 runs a side (≥ 0.95 at 2.5%)")
  func precisionAndRecall() {
    let result = Self.operatingPoint(noise: 0.05, seed: 2026)
    #expect(result.precision >= 0.9 && result.recall >= 0.9)
    #expect(result.nullSteps <= 0.03)
    let quiet = Self.operatingPoint(noise: 0.025, seed: 2026)
    #expect(quiet.precision >= 0.95 && quiet.recall >= 0.95)
  }

  /// At 10% noise the step is two standard deviations: even the maximum-likelihood split of a history known to have
  /// one step lands within one run of it only 79% of the time (docs/COMPARING.md), so 0.9 cannot be reached there;
  /// the scan stays conservative (few false steps) and reports what it can tell.
  @Test(
    "Steps at 10% noise (this VM's noisier rows drift this much between runs): conservative — precision ≥ 0.7, a false step in ≤ 3% of histories without one"
  )
  func noisyHistories() {
    let result = Self.operatingPoint(noise: 0.10, seed: 2026)
    #expect(result.precision >= 0.7 && result.recall >= 0.4)
    #expect(result.nullSteps <= 0.03)
  }

  /// The two limits docs/COMPARING.md cites for 10% noise, measured on the same kind of history (20 runs, a 20% step
  /// after run 10). Placing: the maximum-likelihood split of a Gaussian mean shift (the τ maximising
  /// a·b/(a+b)·(mean after − mean before)²), told that exactly one step exists, lands within one run of it in ≈79% of
  /// histories, so no method reaches 0.9 recall by the within-one-run rule. Finding: a Student-t scan (the most
  /// powerful test for a Gaussian step) with the same permutation test at α = 0.01 finds a step in ≈63% of them, the
  /// energy scan in ≈56%: the significance level, not the method, bounds what is found at this noise.
  @Test(
    "At 10% noise, any method's limits: the known-step maximum-likelihood split within one run ≈ 0.79; a t-scan at α = 0.01 finds ≈ 0.63"
  )
  func limitsAtTenPercentNoise() {
    func history(_ gaussian: inout Gaussian) -> [Double] {
      (0..<20).map { index in log((index >= 10 ? 1.2 : 1.0) * (1 + 0.10 * gaussian.next())) }
    }
    func mean(_ x: ArraySlice<Double>) -> Double { x.reduce(0, +) / Double(x.count) }
    var gaussian = Gaussian(rng: SplitMix64(seed: 79))
    var placed = 0
    let histories = 4_000
    for _ in 0..<histories {
      let x = history(&gaussian)
      func score(_ t: Int) -> Double {
        let shift: Double = mean(x[t...]) - mean(x[..<t])
        return Double(t * (20 - t)) / 20 * shift * shift
      }
      let split: Int = (3...17).max { score($0) < score($1) }!
      if abs(split - 10) <= 1 { placed += 1 }
    }
    let ceiling = Double(placed) / Double(histories)

    /// The largest two-sample |t| over the splits with at least 3 runs a side.
    func maxT(_ x: [Double]) -> Double {
      (3...17).map { t -> Double in
        let a = x[..<t]
        let b = x[t...]
        let ma = mean(a)
        let mb = mean(b)
        let squaresA: Double = a.map { ($0 - ma) * ($0 - ma) }.reduce(0, +)
        let squaresB: Double = b.map { ($0 - mb) * ($0 - mb) }.reduce(0, +)
        let pooled: Double = ((squaresA + squaresB) / 18).squareRoot()
        let scale: Double = (1 / Double(t) + 1 / Double(20 - t)).squareRoot()
        return abs(mb - ma) / (pooled * scale)
      }.max()!
    }
    var rng = SplitMix64(seed: 60)
    var found = 0
    let tested = 600
    for _ in 0..<tested {
      let x = history(&gaussian)
      let observed = maxT(x)
      var shuffled = x
      var exceed = 0
      for _ in 0..<199 where exceed <= 1 {  // p = (1 + exceed) / 200 ≤ 0.01 needs exceed ≤ 1
        shuffled.shuffle(using: &rng)
        if maxT(shuffled) >= observed { exceed += 1 }
      }
      if exceed <= 1 { found += 1 }
    }
    let tScan = Double(found) / Double(tested)
    print(
      String(
        format: "history steps, 20%% step at 10%% noise, 10+10 runs: the known-step maximum-likelihood split "
          + "within one run %.3f (%d histories); a t-scan at α = 0.01 finds a step in %.3f (%d)",
        ceiling, histories, tScan, tested))
    #expect(ceiling > 0.74 && ceiling < 0.84, "\(ceiling)")
    #expect(tScan > 0.55 && tScan < 0.72, "\(tScan)")
  }

  @Test("A step's first commit, its size with an interval that holds it; counts (no noise) step exactly")
  func stepNamesItsCommit() throws {
    var gaussian = Gaussian(rng: SplitMix64(seed: 7))
    let values = (0..<16).map { index in (index >= 9 ? 1.2 : 1.0) * (1 + 0.03 * gaussian.next()) }
    var check = HistoryCheck()
    check.minHistory = 1_000
    #expect(check.detector.fewestPointsForAStep == 9)
    #expect(
      check.check([Self.series([1, 1, 1, 1, 2, 2, 2, 2], metric: .syncs)]).steps.isEmpty,
      "8 runs cannot reach p ≤ 0.01")
    let steps = check.check([Self.series(values), Self.series([1, 1, 1, 1, 1, 1, 2, 2, 2, 2], metric: .syncs)])
      .steps
    let time = try #require(steps.first { $0.key.metric == .time })
    #expect(time.first.commit == "c009" && time.previous.commit == "c008")
    #expect(time.interval.contains(time.ratio) && time.interval.contains(1.2) && !time.interval.contains(1.0))
    let syncs = try #require(steps.first { $0.key.metric == .syncs })
    #expect(syncs.first.commit == "c006" && syncs.levels == (1, 2))
    #expect(steps.count == 2)
    // A count that was 0 (no renames) and becomes 1 per operation is a step, and as the newest commit a regression.
    var gate = HistoryCheck()
    let renames = gate.check([Self.series([0, 0, 0, 0, 0, 0, 1, 1, 1, 1], metric: .renames)])
    #expect(
      renames.steps.map(\.first.commit) == ["c006"] && renames.steps.first.map { $0.levels == (0, 1) } == true)
    let newest = gate.check([Self.series([0, 0, 0, 0, 0, 0, 1], metric: .renames)])
    #expect(newest.regressions.count == 1 && newest.regressions.first?.levels.map { $0 == (0, 1) } == true)
    gate.minHistory = 5
    #expect(newest.text(runs: [Self.run(6, commit: "c006")], check: gate).contains("0 → 1 per op"))
  }

  @Test(
    "The newest commit: a 30% slower run (2% drift) is a regression among 200 rows; A/A histories (200 rows, 10% noise) stay quiet; short histories are named"
  )
  func newestCommit() {
    var gaussian = Gaussian(rng: SplitMix64(seed: 11))
    var check = HistoryCheck()
    let quiet = (0..<200).map { row in
      Self.series((0..<12).map { _ in 1 + 0.1 * gaussian.next() }, name: "row\(row)")
    }
    let aa = check.check(quiet)
    #expect(aa.regressions.isEmpty && aa.newest.count == 200)
    #expect(aa.newest.allSatisfy { $0.verdict != .notEnoughHistory })

    let slower = Self.series((0..<11).map { _ in 1 + 0.02 * gaussian.next() } + [1.3], name: "slow")
    let result = check.check(quiet + [slower])
    #expect(result.regressions.map(\.key.workload) == ["slow"])
    #expect(result.regressions.first?.run.commit == "c011")

    check.minHistory = 5
    let short = check.check([Self.series([1, 1, 1, 2])])
    #expect(short.newest.map(\.verdict) == [.notEnoughHistory] && short.regressions.isEmpty)
    #expect(short.text(runs: [Self.run(0, commit: "c000")], check: check).contains("not enough history"))
  }

  @Test("Student's t upper tail on known values (tables: df 10 → 1.812, 2.228, 3.169; df 4 → 4.604; df 1 → 1)")
  func studentT() {
    for (t, df, p) in [
      (1.812, 10.0, 0.05), (2.228, 10.0, 0.025), (3.169, 10.0, 0.005), (4.604, 4.0, 0.005), (1.0, 1.0, 0.25),
      (0.0, 5.0, 0.5),
    ] {
      #expect(abs(StudentT.upperTail(t, degrees: df) - p) < 2e-4, "t=\(t) df=\(df)")
    }
    #expect(abs(StudentT.upperTail(-2.228, degrees: 10) - 0.975) < 2e-4)
  }

  @Test("Series never join rows of different machines, scenario hashes or datasets; a metric a run lacks is absent")
  func seriesKeepMachinesApart() {
    let a = Self.run(1, commit: "a", host: "one")
    let b = Self.run(2, commit: "b", host: "two")
    func row(_ run: Int64, _ cells: [String: String]) -> HistoryRow {
      HistoryRow(
        run: run,
        key: RowKey(
          scenario: "", workload: "insert", backend: "memory", variant: "default", size: 10,
          parameters: "count=10"),
        dataset: "d", status: "ok", n: 6, cells: cells)
    }
    let series = HistorySeries.build(
      runs: [a, b],
      rows: [
        row(1, ["median_s": "1", "median_syncs_per_op": "0"]),
        row(2, ["median_s": "2"]),
      ])
    #expect(series.count == 3)
    #expect(series.allSatisfy { $0.points.count == 1 })
    #expect(series.filter { $0.key.metric == .syncs }.map(\.key.machine) == ["one"])
  }
}
