import Foundation
import StoreBenchBackends
import StoreBenchCore
import Testing

/// Seeded synthetic samples: `rows` rows of normally distributed wall times.
func syntheticSamples(
  mean: Double, spread: Double = 0.02, repetitions: Int, seed: UInt64,
  rows: [String] = ["sqlite", "memory"], storeBytes: Int64 = 4096
) -> [Sample] {
  var rng = SplitMix64(seed: seed)
  func normal() -> Double {
    let u1 = max(Double(rng.next() % 1_000_000) / 1_000_000, 1e-9)
    let u2 = Double(rng.next() % 1_000_000) / 1_000_000
    return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
  }
  return rows.flatMap { backend in
    (1...repetitions).map { repetition in
      let key = RowKey(
        scenario: "s", workload: "insert", backend: backend, variant: "default", size: 100,
        parameters: "count=100")
      let wall = mean * (1 + spread * normal())
      return Sample.measured(
        key, repetition: repetition, wall: wall, cpuUser: wall, maxRSSKiB: 1000, readBytes: 0,
        writeBytes: 100, storeBytes: storeBytes, storeAllocatedBytes: storeBytes, ops: 100)
    }
  }
}

func table(_ samples: [Sample]) throws -> SampleTable {
  let data = try CSVFormat.encode([ColumnSet.standard.sampleHeader] + samples.map { $0.fields(.standard) })
  return try SampleTable(text: String(decoding: data, as: UTF8.self), source: "fixture")
}

@Suite("Compare statistics")
struct CompareStatisticsTests {
  @Test(
    "Mann-Whitney U matches SciPy 1.17.1",
    arguments: [
      ([1.1, 2.2, 3.3, 4.4], [5.5, 6.6, 7.7], 0.0, 0.05714285714285714, true),
      ([0.8, 0.9, 1.0, 1.05, 1.1], [1.2, 1.3, 0.95, 1.4, 1.5], 3.0, 0.05555555555555555, true),
      ((0..<10).map(Double.init), (10..<20).map(Double.init), 0.0, 1.082508822446903e-05, true),
      (
        [3.1, 4.2, 1.3, 5.9, 2.6, 5.35, 8.97, 9.3], [2.7, 1.8, 2.85, 8.1, 2.55, 9.7, 0.2, 4.05, 6.15], 43.0,
        0.5414232825997531, true
      ),
      ([1, 2, 2, 3, 3, 3], [2, 3, 4, 4, 5, 5, 6], 5.5, 0.028410955971066798, false),
    ] as [([Double], [Double], Double, Double, Bool)])
  func mannWhitney(_ x: [Double], _ y: [Double], _ u: Double, _ p: Double, _ exact: Bool) throws {
    let result = try #require(MannWhitney.test(x, y))
    #expect(result.u == u)
    #expect(result.exact == exact)
    #expect(abs(result.pValue - p) < 1e-12 * max(1, p) + 1e-15, "p \(result.pValue) vs SciPy \(p)")
  }

  @Test("Mann-Whitney U, large samples: the normal approximation matches SciPy")
  func mannWhitneyLarge() throws {
    let x = [
      10.0012, 10.2987, 9.7259, 9.1094, 9.5453, 9.0084, 10.0601, 11.3402, 9.5078, 9.3795, 10.4898, 10.3569,
      10.1054, 9.0695, 9.9707, 10.6953, 8.6558, 9.5424, 8.0988, 8.7105, 8.1583, 9.7649, 8.7326, 10.2713, 10.1568,
    ]
    let y = [
      10.6131, 8.2832, 10.2613, 10.7515, 10.9133, 9.2699, 10.3222, 9.8215, 9.9912, 11.8609, 9.9925, 10.7675,
      11.6844, 10.2164, 10.6883, 10.9105, 10.8638, 9.5749, 10.8761, 12.1588, 9.2529, 11.6594, 10.9194, 10.1585,
      12.8004, 11.5623, 9.6007, 10.8745, 11.3767, 10.6112,
    ]
    let result = try #require(MannWhitney.test(x, y))
    #expect(result.u == 150 && !result.exact)
    #expect(abs(result.pValue - 0.00014779670408754928) < 1e-12)
  }

  @Test("bootstrap interval of the ratio of medians is seeded and brackets the true ratio")
  func bootstrap() throws {
    let base = (1...10).map { 1.0 + Double($0) / 100 }
    let current = base.map { $0 * 1.2 }
    let a = try #require(Bootstrap.ratioOfMedians(baseline: base, current: current, seed: 1))
    let b = try #require(Bootstrap.ratioOfMedians(baseline: base, current: current, seed: 1))
    #expect(a == b)
    #expect(a.contains(1.2))
    #expect(Bootstrap.percentile([1, 2, 3, 4, 5], 0.5) == 3 && Bootstrap.percentile([1, 2], 0.25) == 1.25)
  }
}

@Suite("Compare verdicts")
struct CompareVerdictTests {
  @Test("A/A: the same distribution is never a regression (20 seeded pairs, at most 1 flagged)")
  func aa() throws {
    var flagged = 0
    for pair in 0..<20 {
      let comparison = Comparison(
        baseline: try table(syntheticSamples(mean: 1, repetitions: 10, seed: UInt64(pair * 2 + 1))),
        current: try table(syntheticSamples(mean: 1, repetitions: 10, seed: UInt64(pair * 2 + 2))),
        options: .init())
      if comparison.hasRegression || comparison.hasImprovement { flagged += 1 }
    }
    #expect(flagged <= 1)
  }

  /// Options that allow no drift between runs (the statistics alone).
  static var noDrift: Comparison.Options {
    var options = Comparison.Options()
    options.drift = 0
    return options
  }

  @Test("a 20% slowdown with 10 repetitions is a regression; with 3 it is underpowered (p < 0.01 is out of reach)")
  func slowdown() throws {
    let ten = Comparison(
      baseline: try table(syntheticSamples(mean: 1, repetitions: 10, seed: 1)),
      current: try table(syntheticSamples(mean: 1.2, repetitions: 10, seed: 2)), options: Self.noDrift)
    #expect(ten.findings.filter { $0.metric.name == "wall_s" }.allSatisfy { $0.verdict == .regression })
    let three = Comparison(
      baseline: try table(syntheticSamples(mean: 1, repetitions: 3, seed: 1)),
      current: try table(syntheticSamples(mean: 1.2, repetitions: 3, seed: 2)), options: Self.noDrift)
    #expect(three.findings.filter { $0.metric.name == "wall_s" }.allSatisfy { $0.verdict == .underpowered })
    #expect(!three.hasRegression)
  }

  @Test("ops/s: smaller is worse")
  func polarity() throws {
    var options = Self.noDrift
    options.metrics = [Comparison.Metric.named("ops_per_s")!]
    let slower = Comparison(
      baseline: try table(syntheticSamples(mean: 1, repetitions: 10, seed: 1)),
      current: try table(syntheticSamples(mean: 1.3, repetitions: 10, seed: 2)), options: options)
    #expect(slower.findings.allSatisfy { $0.verdict == .regression })
  }

  @Test(
    "identical repetitions catch a 3% bigger store that timing noise would hide; a few KiB are under the byte floor"
  )
  func deterministic() throws {
    let comparison = Comparison(
      baseline: try table(
        syntheticSamples(mean: 1, spread: 0.3, repetitions: 5, seed: 1, storeBytes: 10_000_000)),
      current: try table(syntheticSamples(mean: 1, spread: 0.3, repetitions: 5, seed: 2, storeBytes: 10_300_000)),
      options: .init())
    let store = try #require(comparison.findings.first { $0.metric.name == "store_bytes" })
    #expect(store.verdict == .regression && store.method == "identical repetitions")
    #expect(comparison.findings.first { $0.metric.name == "wall_s" }?.verdict != .regression)
    // A read-only row whose store grew from 0 to one page: judged as 4 KiB, not as an infinite ratio.
    let page = Comparison(
      baseline: try table(syntheticSamples(mean: 1, repetitions: 6, seed: 1, storeBytes: 0)),
      current: try table(syntheticSamples(mean: 1, repetitions: 6, seed: 2, storeBytes: 4096)),
      options: .init())
    #expect(page.findings.first { $0.metric.name == "store_bytes" }?.verdict == .unchanged)
  }

  @Test("bytes that vary between repetitions are judged statistically, not as deterministic")
  func varyingBytes() throws {
    func varying(_ seed: UInt64, scale: Double) throws -> SampleTable {
      var rng = SplitMix64(seed: seed)
      return try table(
        syntheticSamples(mean: 1, repetitions: 8, seed: seed).map { sample in
          var copy = sample
          copy.storeBytes = Int64((20_000_000 + Double(rng.next() % 18_000_000)) * scale)
          return copy
        })
    }
    let comparison = Comparison(
      baseline: try varying(1, scale: 1), current: try varying(2, scale: 1), options: .init())
    let store = try #require(comparison.findings.first { $0.metric.name == "store_bytes" })
    #expect(store.method.hasPrefix("bootstrap") && store.verdict != .regression, "\(store.verdict) \(store.method)")
  }

  @Test(
    "separate runs: a run that is slower throughout is within drift, not a regression; ab's paired rounds catch 20%"
  )
  func drift() throws {
    let rows = (0..<10).map { "b\($0)" }
    let base = try table(syntheticSamples(mean: 1, repetitions: 10, seed: 1, rows: rows))
    let slower = try table(syntheticSamples(mean: 1.25, repetitions: 10, seed: 2, rows: rows))
    let separate = Comparison(baseline: base, current: slower, options: .init())
    #expect(!separate.hasRegression && separate.findings.contains { $0.verdict == .withinDrift })
    #expect(separate.warnings.contains { $0.contains("slower throughout") })
    var paired = Comparison.Options()
    paired.paired = true
    paired.metrics = [Comparison.Metric.named("wall_s")!]
    let interleaved = Comparison(baseline: base, current: slower, options: paired)
    #expect(
      interleaved.findings.allSatisfy {
        $0.verdict == .regression && $0.method.hasPrefix("paired rounds, signed-rank")
      })
    // A/A through paired rounds: nothing flagged.
    let same = Comparison(
      baseline: base, current: try table(syntheticSamples(mean: 1, repetitions: 10, seed: 3, rows: rows)),
      options: paired)
    #expect(!same.hasRegression && !same.hasImprovement)
  }

  @Test(
    "the gate cannot pass when a row is ok in baseline and unsupported in current, failed in baseline, or other work"
  )
  func statusProblems() throws {
    let base = syntheticSamples(mean: 1, repetitions: 6, seed: 1)
    let unsupported = base.map { sample -> Sample in
      guard sample.key.backend == "memory" else { return sample }
      var copy = sample
      copy.status = .unsupported
      return copy
    }
    let comparison = Comparison(baseline: try table(base), current: try table(unsupported), options: .init())
    #expect(comparison.problems.contains { $0.hasPrefix("ok in baseline, unsupported in current: insert memory") })
    let failedBase = Comparison(
      baseline: try table(
        unsupported.map { sample in
          var copy = sample
          if copy.status == .unsupported { copy.status = .failed }
          return copy
        }), current: try table(base), options: .init())
    #expect(failedBase.problems.contains { $0.hasPrefix("failed in baseline: insert memory") })
    let other = syntheticSamples(mean: 1, repetitions: 6, seed: 2).map { sample -> Sample in
      var copy = sample
      copy.key = RowKey(
        scenario: "s", workload: "insert", backend: sample.key.backend, variant: "default", size: 100,
        parameters: "count=100 stored=500")
      return copy
    }
    let mismatch = Comparison(baseline: try table(base), current: try table(other), options: .init())
    #expect(
      mismatch.problems.contains {
        $0.hasPrefix("not compared: insert sqlite [default] size=100 (count=100) measured other work")
      })
    #expect(mismatch.findings.isEmpty)
  }

  @Test("the even/odd split of a committed default run is one run: compare exits 0")
  func evenOddSplit() throws {
    let even = packageRoot.appendingPathComponent("Tests/Fixtures/split-even").path
    let odd = packageRoot.appendingPathComponent("Tests/Fixtures/split-odd").path
    let result = try runStorebench([
      "compare", even, odd, "--metric", "wall_s", "--metric", "store_bytes",
      "--metric", "write_bytes", "--metric", "ops", "--allow-underpowered",
    ])
    #expect(result.status == 0, "\(result.stdout.prefix(3000))")
    #expect(!result.stdout.contains("| regression |"))
  }

  @Test("a row missing in current is a problem the gate cannot pass; a row only in current is a warning")
  func missingRows() throws {
    let comparison = Comparison(
      baseline: try table(syntheticSamples(mean: 1, repetitions: 3, seed: 1)),
      current: try table(syntheticSamples(mean: 1, repetitions: 3, seed: 2, rows: ["sqlite", "lmdb"])),
      options: .init())
    #expect(comparison.problems == ["missing in current: insert memory [default] size=100 (count=100)"])
    #expect(comparison.warnings.contains("only in current: insert lmdb [default] size=100 (count=100)"))
  }

  @Test("a file that is not samples.csv is a clear error")
  func schemaMismatch() {
    #expect(throws: CompareError.self) { try SampleTable(text: "a,b\r\n1,2\r\n", source: "x.csv") }
  }
}

@Suite("compare, ab and report through the binary", .serialized)
struct CompareEndToEndTests {
  /// A storebench run's environment.json (its schema fields) with `extra` fields.
  static func runEnvironment(_ extra: [String: Any] = [:]) -> [String: Any] {
    [
      "storebench_version": "test", "scenario_name": "synthetic", "scenario_hash": "0",
      "started_at": "2026-12-02T00:00:00Z",
    ].merging(extra) { $1 }
  }

  func write(_ samples: [Sample], to directory: URL, environment: [String: Any]? = nil) throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try CSVFormat.encode([ColumnSet.standard.sampleHeader] + samples.map { $0.fields(.standard) }).write(
      to: directory.appendingPathComponent("samples.csv"))
    if let environment {
      try JSONSerialization.data(withJSONObject: environment).write(
        to: directory.appendingPathComponent("environment.json"))
    }
  }

  @Test("exit codes: 0 unchanged, 2 regression, 4 improvement only with --fail-on-improvement, 1 bad input, 64 usage")
  func exitCodes() throws {
    let temp = try TemporaryDirectory()
    let base = temp.url.appendingPathComponent("base")
    let slow = temp.url.appendingPathComponent("slow")
    let fast = temp.url.appendingPathComponent("fast")
    let same = temp.url.appendingPathComponent("same")
    try write(
      syntheticSamples(mean: 1, repetitions: 10, seed: 1), to: base,
      environment: Self.runEnvironment(["host": "a", "cores": 2]))
    try write(
      syntheticSamples(mean: 1.2, repetitions: 10, seed: 2), to: slow,
      environment: Self.runEnvironment(["host": "b", "cores": 2]))
    try write(syntheticSamples(mean: 0.8, repetitions: 10, seed: 3), to: fast)
    try write(syntheticSamples(mean: 1, repetitions: 10, seed: 4), to: same)

    // Two separate runs of one row each: the statistics alone (--drift 0); the drift model has its own test.
    let regression = try runStorebench([
      "compare", base.path, slow.path, "--drift", "0", "--csv", temp.url.appendingPathComponent("f.csv").path,
    ])
    #expect(regression.status == 2)
    #expect(regression.stdout.contains("| regression | insert | sqlite |"))
    #expect(regression.stdout.contains("environment differs: host: a vs b"))
    #expect(!regression.stderr.contains("environment differs"), "warnings are printed once, in the report")
    let csv = try CSVFormat.decode(String(contentsOf: temp.url.appendingPathComponent("f.csv"), encoding: .utf8))
    #expect(csv.header == CompareReport.csvHeader && csv.rows.first?.first == "regression")

    #expect(try runStorebench(["compare", base.path, same.path]).status == 0)
    let json = try runStorebench(["compare", base.path, slow.path, "--json", "--drift", "0"])
    let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(
      json.status == 2 && (document["findings"] as? [[String: Any]])?.first?["verdict"] as? String == "regression"
    )
    let list = try runStorebench(["list", "--json"])
    let listed = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])
    #expect((listed["backends"] as? [[String: Any]])?.count == BackendRegistry.standard().descriptors.count)
    let fewBase = temp.url.appendingPathComponent("few-base")
    let fewSlow = temp.url.appendingPathComponent("few-slow")
    try write(syntheticSamples(mean: 1, repetitions: 3, seed: 5), to: fewBase)
    try write(syntheticSamples(mean: 1.2, repetitions: 3, seed: 6), to: fewSlow)
    let few = try runStorebench(["compare", fewBase.path, fewSlow.path])
    #expect(
      few.status == 5 && few.stdout.contains("| underpowered | insert |")
        && !few.stdout.contains("| regression |"))
    #expect(try runStorebench(["compare", fewBase.path, fewSlow.path, "--allow-underpowered"]).status == 0)
    #expect(try runStorebench(["compare", base.path, fast.path]).status == 0)
    #expect(
      try runStorebench(["compare", base.path, fast.path, "--fail-on-improvement", "--drift", "0"]).status == 4)
    let missing = try runStorebench(["compare", base.path, temp.url.appendingPathComponent("nothing").path])
    #expect(missing.status == 1 && missing.stderr.contains("no such file or directory"))
    #expect(try runStorebench(["compare", base.path, same.path, "--metric", "speed"]).status == 64)
  }

  @Test(
    "the gate never passes on nothing: no matching rows, failed or missing rows, header-only or cut-short files, a 10× slowdown with 2 repetitions"
  )
  func gateCannotPassOnNothing() throws {
    let temp = try TemporaryDirectory()
    let base = temp.url.appendingPathComponent("base")
    try write(syntheticSamples(mean: 1, repetitions: 10, seed: 1), to: base)
    func compare(_ samples: [Sample], _ extra: [String] = [], edit: ((URL) throws -> Void)? = nil) throws
      -> (status: Int32, stdout: String, stderr: String)
    {
      let current = temp.url.appendingPathComponent("current-\(UUID().uuidString)")
      try write(samples, to: current)
      try edit?(current)
      return try runStorebench(["compare", base.path, current.path] + extra)
    }
    let renamed = syntheticSamples(mean: 1, repetitions: 10, seed: 2).map { sample in
      var copy = sample
      copy.key = RowKey(
        scenario: "renamed", workload: "insert", backend: sample.key.backend, variant: "default",
        size: 100, parameters: "count=100")
      return copy
    }
    let none = try compare(renamed)
    #expect(none.status == 1 && none.stdout.contains("no row of"), "\(none.stdout)")
    let failed = syntheticSamples(mean: 1, repetitions: 10, seed: 2).map { sample in
      var copy = sample
      if sample.key.backend == "sqlite" && sample.repetition == 3 { copy.status = .failed }
      return copy
    }
    let failing = try compare(failed)
    #expect(
      failing.status == 1 && failing.stdout.contains("- failed in current: insert sqlite"), "\(failing.stdout)")
    let half = try compare(syntheticSamples(mean: 1, repetitions: 10, seed: 2, rows: ["memory"]))
    #expect(half.status == 1 && half.stdout.contains("- missing in current: insert sqlite"))
    let header = try compare([])
    #expect(header.status == 1 && header.stderr.contains("no rows, only a header"))
    let cut = try compare(syntheticSamples(mean: 1, repetitions: 10, seed: 2)) { directory in
      // summary.csv says 10 repetitions a row; drop the last row at a line boundary.
      let file = directory.appendingPathComponent("samples.csv")
      var lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\r\n")
      lines.removeLast(2)
      try (lines.joined(separator: "\r\n") + "\r\n").write(to: file, atomically: true, encoding: .utf8)
      var summary = SummaryBuilder()
      for sample in syntheticSamples(mean: 1, repetitions: 10, seed: 2) { summary.add(sample) }
      try CSVFormat.encode(summary.csvRows).write(to: directory.appendingPathComponent("summary.csv"))
      try JSONSerialization.data(withJSONObject: Self.runEnvironment()).write(
        to: directory.appendingPathComponent("environment.json"))
    }
    #expect(cut.status == 1 && cut.stderr.contains("cut short"), "\(cut.stderr)")
    let midRow = try compare(syntheticSamples(mean: 1, repetitions: 10, seed: 2)) { directory in
      let file = directory.appendingPathComponent("samples.csv")
      let data = try Data(contentsOf: file)
      try data.prefix(data.count - 7).write(to: file)
    }
    #expect(midRow.status == 1)

    let twoBase = temp.url.appendingPathComponent("two-base")
    try write(syntheticSamples(mean: 1, repetitions: 2, seed: 7), to: twoBase)
    let twoSlow = temp.url.appendingPathComponent("two-slow")
    try write(syntheticSamples(mean: 10, repetitions: 2, seed: 8), to: twoSlow)
    let tenfold = try runStorebench(["compare", twoBase.path, twoSlow.path])
    #expect(tenfold.status == 5 && tenfold.stderr.contains("underpowered"), "\(tenfold.stdout)")
  }

  @Test(
    "compare refuses a run folder whose environment.json is [], {}, a string or missing (as export, check and report do), and samples beside a foreign environment"
  )
  func foreignEnvironment() throws {
    let temp = try TemporaryDirectory()
    let run = packageRoot.appendingPathComponent("results/baseline/smoke").path
    for (name, content) in [("array", "[]"), ("object", "{}"), ("string", "\"x\""), ("missing", nil)] {
      let copy = temp.url.appendingPathComponent(name)
      try FileManager.default.copyItem(atPath: run, toPath: copy.path)
      let environment = copy.appendingPathComponent("environment.json")
      try FileManager.default.removeItem(at: environment)
      if let content { try Data(content.utf8).write(to: environment) }
      let compared = try runStorebench(["compare", run, copy.path, "--allow-underpowered"])
      #expect(
        compared.status == 1 && compared.stderr.contains("environment.json"),
        "\(name): exit \(compared.status): \(compared.stderr)")
      let exported = try runStorebench(["export", copy.path, "--format", "bmf"])
      #expect(exported.status != 0, "\(name): export read it")
      // A recorded folder is a run folder even without its summary: the one reader says what is missing.
      try FileManager.default.removeItem(at: copy.appendingPathComponent("summary.csv"))
      try Data("{}".utf8).write(to: copy.appendingPathComponent(OutputMarks.manifestFileName))
      let recorded = try runStorebench(["compare", run, copy.path, "--allow-underpowered"])
      #expect(
        recorded.status == 1 && recorded.stderr.contains("not a storebench run folder"), "\(recorded.stderr)")
    }
    // Samples alone (ab's merged sides): a run's environment beside them is read, a foreign one refused.
    let alone = temp.url.appendingPathComponent("alone")
    try write(syntheticSamples(mean: 1, repetitions: 10, seed: 1), to: alone, environment: Self.runEnvironment())
    let other = temp.url.appendingPathComponent("other")
    try write(syntheticSamples(mean: 1, repetitions: 10, seed: 2), to: other, environment: ["host": "a"])
    #expect(try runStorebench(["compare", alone.path, alone.path]).status == 0)
    let foreign = try runStorebench(["compare", alone.path, other.path])
    #expect(
      foreign.status == 1 && foreign.stderr.contains("not a storebench run's environment"), "\(foreign.stderr)")
  }

  @Test("Markdown cells are escaped: a | in a variant cannot shift the columns")
  func markdownEscaping() throws {
    let temp = try TemporaryDirectory()
    let samples = syntheticSamples(mean: 1, repetitions: 10, seed: 1).map { sample in
      var copy = sample
      copy.key = RowKey(
        scenario: "s", workload: "insert", backend: sample.key.backend, variant: "a|b\nc",
        size: 100, parameters: "count=100")
      return copy
    }
    let run = temp.url.appendingPathComponent("run")
    try write(samples, to: run)
    let result = try runStorebench(["compare", run.path, run.path])
    let rows = result.stdout.split(separator: "\n").filter { $0.hasPrefix("| unchanged") }
    #expect(
      !rows.isEmpty
        && rows.allSatisfy {
          $0.contains("a\\|b c") && $0.split(separator: "|", omittingEmptySubsequences: false).count == 15
        })
  }

  @Test("report prints the summary and writes report.md")
  func report() throws {
    let temp = try TemporaryDirectory()
    let run = temp.url.appendingPathComponent("run")
    // A run folder as the one reader takes it: samples, their summary, and a storebench run's environment.
    let samples = syntheticSamples(mean: 0.01, repetitions: 3, seed: 1)
    try write(
      samples, to: run,
      environment: [
        "storebench_version": "test", "scenario_name": "s", "scenario_hash": "h1",
        "started_at": "2026-11-01T00:00:00Z", "host": "h",
      ])
    var builder = SummaryBuilder()
    for sample in samples { builder.add(sample) }
    try CSVFormat.encode(builder.csvRows).write(to: run.appendingPathComponent("summary.csv"))
    let result = try runStorebench(["report", run.path])
    #expect(result.status == 0)
    #expect(result.stdout.contains("| insert | sqlite | default | 100 |"))
    let document = try String(contentsOf: run.appendingPathComponent("report.md"), encoding: .utf8)
    #expect(
      document.contains("## Summary") && document.contains("| host | h |") && document.contains("scripts/plot"))
  }

  @Test("ab runs two binaries interleaved and compares them; repetitions of round k are numbered after round k-1's")
  func ab() throws {
    let temp = try TemporaryDirectory()
    let binary = try storebenchBinary().path
    let scenario = try temp.file(
      "ab.yaml",
      """
      name: ab
      backends: [{backend: memory}]
      workloads: [{workload: insert, parameters: {count: 50}}]
      """)
    let out = temp.url.appendingPathComponent("ab")
    let result = try runStorebench([
      "ab", "--baseline-binary", binary, "--current-binary", binary, "--scenario", scenario,
      "--rounds", "3", "--reps-per-round", "2", "--warmup", "0", "--out", out.path,
      "--workdir", temp.url.path, "--allow-underpowered",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let merged = try SampleTable(path: out.appendingPathComponent("current").path)
    #expect(merged.rows.map(\.repetition).sorted() == [1, 2, 3, 4, 5, 6], "round k's repetitions are 2k-1 and 2k")
    #expect(result.stdout.contains("### storebench compare"))
  }
}

@Suite("Variants across versions")
struct VariantUpgradeTests {
  @Test(
    "a run recorded before sqlite had list_index, auto_vacuum and migrate is named as today, and its rows match today's"
  )
  func upgraded() throws {
    let registry = BackendRegistry.standard()
    let old = "txn=single journal=wal sync=normal index=on search=like"
    let between = "txn=single journal=wal sync=normal index=on list_index=off search=like auto_vacuum=none"
    let today = between + " migrate=alter tags=join fullfsync=off busy_timeout=10000"
    #expect(registry.currentVariantText(backend: "sqlite", variant: old) == today)
    #expect(registry.currentVariantText(backend: "sqlite", variant: between) == today)
    #expect(registry.currentVariantText(backend: "sqlite", variant: today) == today)
    // A setting today's binary does not know, or an unknown backend: unchanged, so it matches nothing new.
    #expect(registry.currentVariantText(backend: "sqlite", variant: "txn=single gone=1") == "txn=single gone=1")
    #expect(registry.currentVariantText(backend: "nosuch", variant: "a=b") == "a=b")
    // A non-default value of the new setting is another variant: it does not match the old text.
    #expect(registry.currentVariantText(backend: "sqlite", variant: old + " list_index=on") != today)

    func samples(_ variant: String) -> [Sample] {
      (1...3).map { repetition in
        Sample.measured(
          RowKey(
            scenario: "s", workload: "insert", backend: "sqlite", variant: variant, size: 10,
            parameters: "count=10"),
          repetition: repetition, wall: 0.01, cpuUser: 0.01, maxRSSKiB: 1, readBytes: 0, writeBytes: 1,
          storeBytes: 4096, storeAllocatedBytes: 4096, ops: 10)
      }
    }
    var before = try table(samples(old))
    var after = try table(samples(today))
    #expect(
      Comparison(baseline: before, current: after, options: .init()).problems.contains {
        $0.contains("missing in current")
      })
    before.upgradeVariants(registry.currentVariantText)
    after.upgradeVariants(registry.currentVariantText)
    let comparison = Comparison(baseline: before, current: after, options: .init())
    #expect(comparison.problems.isEmpty, "\(comparison.problems)")
  }
}
