import Foundation
import StoreBenchAdvice
import StoreBenchBackends
import StoreBenchStandard
import Testing

@testable import StoreBenchCore

/// `storebench check --budgets`: every metric kind judged on the committed smoke baseline against values computed
/// here from its samples (a limit below them is broken, above them kept), bad budget files refused with their
/// message, and the command's exit codes and CI summary.
@Suite("Budgets and CI summaries")
struct BudgetTests {
  static let run = packageRoot.appendingPathComponent("results/baseline/smoke").path

  static func check(_ yaml: String) throws -> BudgetCheck {
    try BudgetCheck(try BudgetFile.parse(Data(yaml.utf8), file: "b.yaml"), run: try RunFolder(run))
  }

  static func refusal(_ yaml: String) -> String {
    do {
      _ = try check(yaml)
      return "accepted"
    } catch {
      return "\(error)"
    }
  }

  /// The ok repetitions' values of `column` in the first row of lmdb's inserts (one variant and size), sorted; the
  /// variant.
  static func firstLMDBInsert(_ column: String) throws -> (values: [Double], variant: String) {
    let cells = try RunFolder(run).samples.cells.filter { $0["workload"] == "insert" && $0["backend"] == "lmdb" }
    let first = try #require(cells.first)
    let row = cells.filter {
      $0["variant"] == first["variant"] && $0["size"] == first["size"] && $0["status"] == "ok"
    }
    return (row.compactMap { Double($0[column] ?? "") }.sorted(), first["variant"]!)
  }

  @Test("each metric kind: the judged value is the one the rule names, a limit below it breaks, above it keeps")
  func metricKinds() throws {
    let cases: [(metric: String, extra: String, column: String, factor: Double, largest: Bool)] = [
      ("p99_us", "", "p99_us", 1, false), ("syncs_per_op", "", "syncs_per_op", 1, false),
      ("written_bytes_per_op", "", "written_bytes_per_op", 1, false),
      ("written_bytes_per_day", ", ops_per_day: 20000", "written_bytes_per_op", 20_000, false),
      ("store_bytes", "", "store_bytes", 1, true), ("peak_memory_bytes", "", "max_rss_kib", 1024, true),
    ]
    for item in cases {
      let (raw, variant) = try Self.firstLMDBInsert(item.column)
      let values = raw.map { $0 * item.factor }
      try #require(values.count >= 2 && values.last! > 0, "\(item.metric)")
      let expected = item.largest ? values.last! : Statistics.median(ofSorted: values)
      let row = "workload: insert, backend: lmdb, variant: \"\(variant)\""
      let check = try Self.check(
        """
        budgets:
          - {\(row), metric: \(item.metric), max: \(expected * 0.5)\(item.extra)}
          - {\(row), metric: \(item.metric), max: \(expected * 2)\(item.extra)}
        """)
      try #require(check.verdicts.count == 2, "\(item.metric): one row, two budgets")
      let (below, above) = (check.verdicts[0], check.verdicts[1])
      #expect(abs((below.judged ?? -1) - expected) <= expected * 1e-9, "\(item.metric): \(below.evidence)")
      #expect(!below.kept && above.kept, "\(item.metric): \(below.evidence)")
      // The smoke run has 2 repetitions: no interval, so a per-operation value is judged on its median — a
      // verdict only when the two agree (an exact count); otherwise not measured enough, and never kept.
      let exact = values.first == values.last
      #expect(
        below.outcome == (exact ? .broken : .notMeasuredEnough)
          && above.outcome == (exact ? .kept : .notMeasuredEnough),
        "\(item.metric): \(below.evidence)")
      #expect(exact || below.evidence.hasSuffix("; not measured enough (n=\(values.count); 8 needed)"))
      if !item.largest {
        #expect(
          below.evidence.contains("(n=\(values.count), no interval); judged on the median"),
          "\(below.evidence)")
      } else {
        #expect(below.evidence.hasPrefix("largest of n=\(values.count): "))
      }
    }
  }

  @Test("bad budget files are refused with their message: unknown metric, a budget matching no row, a bad limit")
  func refusals() {
    #expect(
      Self.refusal("budgets:\n  - {metric: p98_us, max: 5ms}\n").hasSuffix(
        "budgets[0].metric: unknown metric 'p98_us'; metrics: p50_us, p90_us, p99_us, p999_us, max_us, "
          + "syncs_per_op, write_calls_per_op, written_bytes_per_op, files_created_per_op, "
          + "written_bytes_per_day, store_bytes, store_alloc_bytes, peak_memory_bytes, instructions_per_op, "
          + "allocations_per_op, allocated_bytes_per_op"))
    #expect(
      Self.refusal("budgets:\n  - {workload: insrt, metric: p99_us, max: 5ms}\n")
        == "b.yaml: budgets[0]: no row of \(Self.run) matches workload 'insrt', backend '*', variant '*'")
    #expect(
      Self.refusal("budgets:\n  - {metric: store_bytes, max: 5ms}\n").contains("'5ms' is not a limit in bytes"))
    #expect(
      Self.refusal("budgets:\n  - {metric: written_bytes_per_day, max: 1GB}\n").contains(
        "ops_per_day: required for written_bytes_per_day"))
    #expect(Self.refusal("budgets:\n  - {metric: p99_us, max: 5ms, when: always}\n").contains("unknown key"))
  }

  @Test(
    "the command: exit 0 when kept, 2 when broken (the summary opens with the verdict), 7 when too thin to judge, 64 for a bad file"
  )
  func command() throws {
    let sandbox = try TemporaryDirectory()
    // syncs_per_op of lmdb's inserts: both repetitions agree (an exact count), so 2 of them decide.
    let exact = "workload: insert, backend: lmdb, metric: syncs_per_op"
    let kept = try sandbox.file("kept.yaml", "budgets:\n  - {\(exact), max: 5}\n")
    let broken = try sandbox.file("broken.yaml", "budgets:\n  - {\(exact), max: 0.001}\n")
    // A latency from 2 repetitions that differ is no verdict, however far from the limit.
    let thin = try sandbox.file("thin.yaml", "budgets:\n  - {workload: insert, metric: p99_us, max: 100s}\n")
    let bad = try sandbox.file("bad.yaml", "budgets:\n  - {workload: nothing, metric: p99_us, max: 1us}\n")
    let summary = sandbox.url.appendingPathComponent("summary.md").path
    let ok = try runStorebench(["check", "--budgets", kept, Self.run, "--summary", summary])
    #expect(ok.status == 0 && ok.stdout.hasPrefix("**Budgets: all kept**"), "\(ok.stderr)")
    let failed = try runStorebench(["check", "--budgets", broken, Self.run, "--summary", summary])
    #expect(failed.status == 2, "\(failed.stderr)")
    let page = try String(contentsOfFile: summary, encoding: .utf8)
    #expect(page.hasPrefix("**Budgets: ") && page.contains(" broken** of ") && page.contains("| **broken** |"))
    #expect(!page.contains("| kept |") && page.hasSuffix("Full report: \(Self.run)\n"))
    let unjudged = try runStorebench(["check", "--budgets", thin, Self.run, "--summary", summary])
    #expect(unjudged.status == 7 && unjudged.stdout.hasPrefix("**Budgets: no answer yet**"), "\(unjudged.stdout)")
    #expect(unjudged.stdout.contains("| not measured enough |"))
    let refused = try runStorebench(["check", "--budgets", bad, Self.run])
    #expect(refused.status == 64 && refused.stderr.contains("matches workload 'nothing'"), "\(refused.stderr)")
  }

  @Test("compare's CI summary: the verdict first, then only what regressed or improved, then the full report's link")
  func compareSummary() throws {
    var options = Comparison.Options()
    options.drift = 0
    let slow = try table(syntheticSamples(mean: 1.2, repetitions: 10, seed: 2))
    let fast = try table(syntheticSamples(mean: 1, repetitions: 10, seed: 1))
    let regressed = CompareReport.summary(
      Comparison(baseline: fast, current: slow, options: options), durability: nil, underpoweredAllowed: false,
      fullReport: "report.md")
    let lines = regressed.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines[0] == "**storebench compare: 2 regression(s)**", "\(regressed)")
    #expect(regressed.contains("**Regressed**") && !regressed.contains("**Improved**"))
    #expect(lines.filter { $0.hasPrefix("| insert |") }.count == 2, "only the two slower rows' wall_s")
    #expect(regressed.hasSuffix("Full report: report.md\n"))
    let improved = CompareReport.summary(
      Comparison(baseline: slow, current: fast, options: options), durability: nil, underpoweredAllowed: false,
      fullReport: nil)
    #expect(improved.hasPrefix("**storebench compare: no regression** — 2 improvement(s)\n"), "\(improved)")
    #expect(improved.contains("**Improved**") && !improved.contains("**Regressed**"))
    let same = CompareReport.summary(
      Comparison(baseline: fast, current: fast, options: options), durability: nil, underpoweredAllowed: false,
      fullReport: nil)
    #expect(same == "**storebench compare: no regression**\n\n")
  }
}

/// One rule for every budget: `check --budgets` and advise judge the same repetitions the same way.
@Suite("Budgets: one judging rule")
struct BudgetRuleTests {
  /// Per-repetition p99 (µs) whose median (16.35 ms) is within 16.7 ms and whose interval's upper end is not.
  static let straddling: [Double] = [15_000, 15_500, 16_000, 16_200, 16_500, 16_600, 17_500, 18_000]

  @Test("a median within the budget whose interval reaches over it: broken in check --budgets, missed in advise")
  func sameVerdictBothWays() throws {
    let judgement = try #require(BudgetJudgement(Self.straddling, basis: .median))
    #expect(judgement.figure < 16_700 && judgement.judged > 16_700 && judgement.outcome(limit: 16_700) == .broken)
    #expect(judgement.outcome(limit: 18_500) == .kept)
    // One repetition agrees with nothing: not measured enough, whatever its value.
    #expect(BudgetJudgement([1], basis: .median)?.outcome(limit: 2) == .notMeasuredEnough)
    #expect(BudgetJudgement([3, 3], basis: .median)?.outcome(limit: 2) == .broken)
    // advise, on rows whose p99 column holds these values (AdviceTests.table writes save × 1.5e6 there).
    let saves = Self.straddling.map { $0 / 1.5e6 }
    let table = try AdviceTests.table([("edge", "v", saves, Array(repeating: 0.05, count: 8))])
    let plan = AdvicePlan(try AdviceTests.profile(AdviceTests.simple), backends: .standard(), workloads: .standard)
    let advice = Advice(plan: plan, table: table, crashes: [:], promise: { _, _ in .durable }, resamples: 100)
    let save = try #require(advice.strategies.first?.budgets.first { $0.operation == .save })
    #expect(save.outcome == .missed && save.judged == judgement.judged / 1e6, "\(save)")
    // check --budgets, on the same rows.
    let rows = table.rows.filter { $0.key.workload == "insert" }
    let budget = try BudgetFile.parse(Data("budgets: [{metric: p99_us, max: 16.7ms}]".utf8), file: "b.yaml").budgets[0]
    let verdict = try BudgetCheck.judge(budget, .init(key: rows[0].key), rows, "b.yaml")
    #expect(verdict.outcome == .broken && verdict.judged == judgement.judged, "\(verdict.evidence)")
  }
}
