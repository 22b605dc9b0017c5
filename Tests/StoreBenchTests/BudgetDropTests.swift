import Foundation
import StoreBenchAnalysis
import StoreBenchBackends
import StoreBenchCore
import StoreBenchMeasure
import StoreBenchStandard
import Testing

/// A memory store whose inserts each take `delay` (a strategy far over any frame budget).
enum SlowBackend {
  static func descriptor(delay: Double) -> BackendDescriptor {
    let memory = MemoryBackend.descriptor()
    return BackendDescriptor(name: "slow", summary: "every insert sleeps (test double)") { location in
      SlowStore(wrapped: try memory.open(location, as: (any ArticleStore).self), delay: delay)
    }
  }

  final class SlowStore: ArticleStore {
    let wrapped: any ArticleStore
    let delay: Double
    init(wrapped: any ArticleStore, delay: Double) {
      self.wrapped = wrapped
      self.delay = delay
    }
    var effectiveSettings: String { "delay=\(delay)" }
    func unitOfWork(_ body: () throws -> Void) throws { try wrapped.unitOfWork(body) }
    func insert(_ article: Article) throws {
      Thread.sleep(forTimeInterval: delay)
      try wrapped.insert(article)
    }
    func markRead(uids: [String]) throws { try wrapped.markRead(uids: uids) }
    func delete(uids: [String]) throws { try wrapped.delete(uids: uids) }
    func edit(_ edit: ArticleEdit) throws { try wrapped.edit(edit) }
    func article(uid: String) throws -> Article? { try wrapped.article(uid: uid) }
    func allUIDs() throws -> [String] { try wrapped.allUIDs() }
    func load(articles: [Article]) throws { try wrapped.load(articles: articles) }
    func allArticles() throws -> [Article] { try wrapped.allArticles() }
    func close() throws { try wrapped.close() }
  }
}

@Suite("A budget held while measuring")
struct BudgetDropTests {
  /// Simulates the rules as the runner applies them — the recorder's cut and evidence rule inside each repetition,
  /// the certain rule between them — on operations over the budget independently with probability `q`.
  /// Returns how many of `trials` strategies were dropped, and the most operations a drop took.
  static func simulate(
    _ budget: LatencyBudget, operations: Int, q: Double, trials: Int, seed: UInt64, level: Double? = nil
  ) -> (dropped: Int, mostOperations: Int, certain: Int) {
    let rule = BudgetDropRule(budget, operations: operations, minimum: 8, maximum: 16, level: level)
    var rng = SplitMix64(seed: seed)
    var dropped = 0
    var certain = 0
    var most = 0
    for _ in 0..<trials {
      var tally = BudgetTally()
      var overRepetitions = 0
      var out = false
      var byEvidence = false
      for repetition in 1...16 where !out {
        if budget.perRepetition {
          let over = Double(rng.next() % 1_000_000) / 1e6 < q
          tally.operations += 1
          if over { tally.over += 1 }
          if over { overRepetitions += 1 }
          byEvidence = rule.drops(over: tally.over, of: tally.operations)
          out =
            BudgetEvidence.certainMiss(
              over: overRepetitions, repetitions: repetition, budget: budget, minimum: 8, maximum: 16)
            || byEvidence
        } else {
          let recorder = LatencyRecorder(capacity: operations)
          recorder.hold(to: rule, prior: tally)
          for _ in 0..<operations {
            let over = Double(rng.next() % 1_000_000) / 1e6 < q
            recorder.record(nanoseconds: over ? budget.nanoseconds * 2 : budget.nanoseconds / 2)
            if recorder.stop != nil { break }
          }
          tally = recorder.tally
          if recorder.stop != nil || recorder.over >= budget.overToMiss(of: operations) {
            overRepetitions += 1
          }
          byEvidence = recorder.stop == .dropped
          out =
            byEvidence
            || BudgetEvidence.certainMiss(
              over: overRepetitions, repetitions: repetition, budget: budget, minimum: 8, maximum: 16)
        }
      }
      // A certain miss is the verdict's own (at q*, a coin toss by construction), not the rule's error.
      if out && !byEvidence { certain += 1 }
      if out && byEvidence {
        dropped += 1
        most = max(most, tally.operations)
      }
    }
    return (dropped, most, certain)
  }

  @Test(
    "a strategy at the edge of its budget (a verdict a miss half the time) is dropped at most 1% of the time, at every percentile and size",
    arguments: [(99, 100, false), (90, 100, false), (50, 10, false), (99, 5, false), (50, 1, true)])
  func errorRateHolds(_ percentile: Int, _ operations: Int, _ perRepetition: Bool) {
    let budget = LatencyBudget(percentile: percentile, milliseconds: 10, perRepetition: perRepetition)
    let rule = BudgetDropRule(budget, operations: operations, minimum: 8, maximum: 16)
    let trials = 4_000
    let result = Self.simulate(budget, operations: operations, q: rule.share, trials: trials, seed: 7)
    // Binomial(4000, 0.01): mean 40, standard deviation 6.3: 60 is three of them over. (A launch over a p99
    // budget is a certain miss, not this rule's: the p99 of 8–16 launches is the slowest.)
    #expect(
      result.dropped <= 60,
      "p\(percentile) of \(operations): \(result.dropped) of \(trials) dropped at q* = \(rule.share)")
  }

  @Test(
    "the simulation sees a rule that errs: tested at every operation without the correction, it drops more than 1%")
  func uncorrectedRuleFails() {
    let budget = LatencyBudget(percentile: 99, milliseconds: 10)
    let rule = BudgetDropRule(budget, operations: 100, minimum: 8, maximum: 16)
    let result = Self.simulate(
      budget, operations: 100, q: rule.share, trials: 2_000, seed: 11, level: LatencyBudget.errorRate)
    #expect(result.dropped > 40, "\(result.dropped) of 2000 dropped without the correction")
  }

  @Test("a strategy 100× over its budget is dropped within its first repetition, after a few operations")
  func farOverIsDroppedAtOnce() {
    // p99: 3 operations (0.017³ ≤ 1% / 1,600); p90: 6; p50: 18 — all within one repetition of 100.
    for (percentile, operations, most) in [(99, 100, 3), (90, 100, 6), (50, 100, 18), (99, 1_000, 4)] {
      let budget = LatencyBudget(percentile: percentile, milliseconds: 10)
      let result = Self.simulate(budget, operations: operations, q: 1, trials: 20, seed: 3)
      #expect(result.dropped == 20)
      #expect(
        result.mostOperations <= most, "p\(percentile): \(result.mostOperations) operations before the drop")
    }
  }

  @Test("the thresholds match the binomial tail they are built from")
  func thresholdsAreTheTail() {
    let budget = LatencyBudget(percentile: 99, milliseconds: 16.7)
    #expect(budget.overToMiss(of: 100) == 2)
    #expect(budget.rank(of: 100) == 99)
    let rule = BudgetDropRule(budget, operations: 100, minimum: 8, maximum: 16)
    let level = LatencyBudget.errorRate / Double(rule.looks)
    for s in 1...min(rule.most.count, 20) {
      let j = rule.most[s - 1]
      if j >= s { #expect(Binomial.tail(n: j, p: rule.share, atLeast: s) <= level) }
      if j + 1 <= rule.looks { #expect(Binomial.tail(n: j + 1, p: rule.share, atLeast: s) > level) }
    }
    // Known values: P(Bin(10, 0.5) ≥ 8) = 56/1024; P(Bin(100, 0.01) ≥ 1) = 1 − 0.99^100.
    #expect(abs(Binomial.tail(n: 10, p: 0.5, atLeast: 8) - 56.0 / 1024) < 1e-12)
    #expect(abs(Binomial.tail(n: 100, p: 0.01, atLeast: 1) - (1 - pow(0.99, 100))) < 1e-12)
  }

  @Test(
    "a planted strategy that takes 100× the budget per operation stops within its first repetition, says why, and costs a small share of the run"
  )
  func plantedSlowStrategyStops() throws {
    var registry = BackendRegistry.standard()
    registry.register(SlowBackend.descriptor(delay: 0.1))
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let yaml = """
      name: planted
      seed: 1
      warmup: 0
      repetitions: {min: 8, max: 8}
      backends:
        - backend: slow
        - backend: memory
      workloads:
        - {workload: insert, parameters: {count: 100, batch: 1}, budget: {percentile: 99, ms: 1}}
        - {workload: edit, parameters: {count: 20, stored: 200}}
      """
    let scenario = try ScenarioParser(backends: registry, workloads: .standard).parse(
      data: Data(yaml.utf8), file: "planted.yaml")
    let out = temp.url.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let options = Runner.Options(workdir: temp.url, output: out, commandLine: [], progress: { _ in })
    let started = Date()
    let result = try Runner(backends: registry, workloads: .standard).run(scenario, options: options)
    let seconds = Date().timeIntervalSince(started)
    let table = try SampleTable(path: out.path)
    let slow = table.rows.filter { $0.key.backend == "slow" && $0.key.workload == "insert" }
    #expect(slow.count == 1, "dropped within its first repetition: \(slow.count) repetitions")
    #expect(slow.first?.budgetStop == BudgetStop.dropped.rawValue)
    #expect((slow.first?.values[.ops] ?? 100) <= 5)
    #expect((slow.first?.values[.overBudget] ?? 0) == (slow.first?.values[.ops] ?? -1))
    // Its other workload is not timed at full length: the strategy cannot meet every budget.
    let summary = result.summary.filter { $0.key.backend == "slow" }
    #expect(summary.contains { $0.stopped == "over-budget" })
    #expect(
      summary.filter { $0.key.workload == "edit" }.allSatisfy {
        $0.stopped == "strategy-over-budget" || ($0.statistics?.n ?? 0) < 8
      })
    // A full repetition would take 10 s; the strategy cost well under one.
    #expect(seconds < 5, "the run took \(seconds) s")
    let memory = table.rows.filter { $0.key.backend == "memory" && $0.key.workload == "insert" }
    #expect(memory.count == 8 && memory.allSatisfy { $0.budgetStop.isEmpty })
  }

  @Test("a budget entry is read with its percentile, limit and unit, and a bad one is refused by name")
  func budgetEntryParses() throws {
    let parser = ScenarioParser(backends: .standard(), workloads: .standard)
    let scenario = try parser.parse(
      data: Data(
        """
        name: b
        backends: [{backend: memory}]
        workloads:
          - {workload: insert, budget: {percentile: 90, ms: 16.7}}
          - {workload: list-cold, budget: {ms: 200, per: repetition}}
        """.utf8), file: "b.yaml")
    #expect(scenario.workloads[0].budget == LatencyBudget(percentile: 90, milliseconds: 16.7))
    #expect(scenario.workloads[1].budget == LatencyBudget(percentile: 99, milliseconds: 200, perRepetition: true))
    for bad in ["{percentile: 95, ms: 1}", "{ms: -1}", "{percentile: 99}", "{ms: 1, per: day}", "{ms: 1, x: 2}"] {
      #expect(throws: ScenarioError.self) {
        try parser.parse(
          data: Data(
            "name: b\nbackends: [{backend: memory}]\nworkloads:\n  - {workload: insert, budget: \(bad)}\n"
              .utf8),
          file: "b.yaml")
      }
    }
  }
}
