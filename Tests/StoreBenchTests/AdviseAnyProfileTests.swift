import Foundation
import StoreBenchAdvice
import StoreBenchAnalysis
import StoreBenchBackends
import StoreBenchCore
import StoreBenchMeasure
import StoreBenchStandard
import Testing

/// advise on profiles nobody shipped, at small scale: the real plan, probe estimate, repetition schedule with its
/// budget rules, and judgement, over a simulated machine (each row's operations drawn from its own latency, each
/// repetition's harness from the store's size) instead of real stores.
@Suite("advise on any profile")
struct AdviseAnyProfileTests {
  static let operations: [AppProfile.Operation] = [
    .launch, .save, .edit, .search, .markRead, .tagQuery, .tagChange, .migration, .setting, .cache,
  ]

  /// A random profile: sizes 100–200,000 records, 1 to 8 operations, budgets 1 ms–1 s, every need, 60 s–30 min.
  static func profile(_ rng: inout SplitMix64) throws -> AppProfile {
    func uniform() -> Double { Double(rng.next() % 1_000_000) / 1e6 }
    let records = Int(exp(log(100.0) + uniform() * (log(200_000.0) - log(100.0))))
    var chosen = operations.shuffled(using: &rng).prefix(1 + Int(rng.next() % 8))
    if chosen.isEmpty { chosen = [.save] }
    var perDay: [String] = []
    var budgets: [String] = []
    for operation in chosen {
      perDay.append("  \(operation.rawValue): \(1 + Int(rng.next() % 500))")
      if uniform() < 0.7 {
        let ms = exp(uniform() * log(1_000.0))
        let percentile = ["p50", "p90", "p99"][Int(rng.next() % 3)]
        budgets.append(
          "  \(operation.rawValue): {ms: \(String(format: "%.3f", ms)), percentile: \(percentile)}")
      }
    }
    let saves = chosen.contains(.save) || chosen.contains(.edit)
    let needs = ["kill", "power-loss"] + (saves ? ["{survive: power-loss, loss_window_ms: 1000}"] : [])
    let yaml = """
      name: generated
      data: {records: \(records), settings: \(10 + Int(rng.next() % 1_000)), cache_keys: 1000, tags: 20, tags_per_note: 3}
      per_day:
      \(perDay.joined(separator: "\n"))
      \(budgets.isEmpty ? "" : "budgets:\n" + budgets.joined(separator: "\n"))
      durability: \(needs[Int(rng.next() % UInt64(needs.count))])
      run_seconds: \(60 + Int(rng.next() % 1_741))
      """
    return try AppProfile(data: Data(yaml.utf8), file: "generated.yaml")
  }

  /// One row of the simulated machine: its seconds per operation and its harness's seconds.
  struct Row {
    let strategy: (backend: String, variant: String)
    let measure: AdvicePlan.Measure
    let perOperation: Double
    let fill: Double
    let copy: Double
    var operations: Int {
      measure.wholeRepetition ? 1 : max(measure.parameters[ParameterName.count.text] ?? 1, 1)
    }
  }

  static func rows(_ plan: AdvicePlan, _ rng: inout SplitMix64) -> [Row] {
    func uniform() -> Double { Double(rng.next() % 1_000_000) / 1e6 }
    let records = Double(max(plan.profile.data.records, 1))
    return plan.candidates.flatMap { candidate -> [Row] in
      let spec = try! BackendSpec(parsing: candidate)
      let variant = spec.settings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
        separator: " ")
      // A strategy's speed, then each operation's around it: 20 µs to 0.5 s an operation.
      let speed = exp(log(20e-6) + uniform() * (log(0.5) - log(20e-6)))
      return plan.measures.map { measure in
        let perOperation = speed * exp((uniform() - 0.5) * 2) * (measure.wholeRepetition ? 20 : 1)
        let fill = records * 2e-6 * exp(uniform() * 3)
        return Row(
          strategy: (spec.backend, variant.isEmpty ? "default" : variant), measure: measure,
          perOperation: perOperation, fill: fill, copy: fill * 0.2)
      }
    }
  }

  /// One simulated repetition of `row`: operations drawn around its latency (log sd 0.3), held to `rule`.
  static func repetition(
    _ row: Row, number: Int, operations: Int, first: Bool, rule: BudgetDropRule?, prior: BudgetTally,
    _ rng: inout SplitMix64
  ) -> Sample {
    func normal() -> Double {
      let u1 = max(Double(rng.next() % 1_000_000) / 1e6, 1e-9)
      let u2 = Double(rng.next() % 1_000_000) / 1e6
      return sqrt(-2 * log(u1)) * cos(2 * .pi * u2)
    }
    var sample = Sample(
      key: RowKey(
        scenario: "advise-generated", workload: row.measure.workload, backend: row.strategy.backend,
        variant: row.strategy.variant, size: 1, parameters: ""),
      repetition: number, dataset: "d")
    sample.status = .ok
    let recorder = LatencyRecorder(capacity: max(operations, 1))
    if let rule, !rule.budget.perRepetition { recorder.hold(to: rule, prior: prior) }
    var wall = 0.0
    var done = 0
    for _ in 0..<operations {
      let seconds = row.perOperation * exp(0.3 * normal())
      wall += seconds
      done += 1
      recorder.record(nanoseconds: UInt64(seconds * 1e9))
      if recorder.stop != nil { break }
    }
    sample.wallSeconds = wall
    sample.ops = row.measure.wholeRepetition ? 1 : done
    if !row.measure.wholeRepetition { sample.latency = recorder.percentiles }
    if let rule, !rule.budget.perRepetition {
      sample.notes[.overBudget] = String(recorder.over)
      if let stop = recorder.stop { sample.notes[.budgetStop] = stop.rawValue }
    }
    sample.repetitionSeconds = wall + (first ? row.fill : row.copy)
    return sample
  }

  static func rule(_ plan: AdvicePlan, _ row: Row, operations: Int, maximum: Int) -> BudgetDropRule? {
    guard let budget = plan.profile.budgets[row.measure.operation], AdvicePlan.holdsToBudget(row.measure) else {
      return nil
    }
    return BudgetDropRule(
      LatencyBudget(
        percentile: budget.percentile, milliseconds: budget.milliseconds,
        perRepetition: row.measure.wholeRepetition),
      operations: operations, minimum: min(AdvicePlan.minimumRepetitions, maximum), maximum: maximum)
  }

  static func table(_ samples: [Sample]) throws -> SampleTable {
    let data = try CSVFormat.encode([ColumnSet.standard.sampleHeader] + samples.map { $0.fields(.standard) })
    return try SampleTable(text: String(decoding: data, as: UTF8.self), source: "simulated")
  }

  /// Runs the schedule as the runner does, in simulated time, until it stops every row or spends `budget`.
  static func run(_ plan: AdvicePlan, _ rows: [Row], budget: Double, _ rng: inout SplitMix64) -> [Sample] {
    let policy = RepetitionPolicy(
      warmup: 0, minimum: AdvicePlan.minimumRepetitions, maximum: AdvicePlan.maximumRepetitions,
      targetPrecision: AdvicePlan.targetPrecision, budgetSeconds: budget)
    let rules = rows.map { rule(plan, $0, operations: $0.operations, maximum: policy.maximum) }
    let strategies = Dictionary(
      uniqueKeysWithValues: rows.indices.map {
        ($0, "\(rows[$0].strategy.backend) [\(rows[$0].strategy.variant)]")
      })
    var schedule = RepetitionSchedule(policy: policy, caseCount: rows.count, strategies: strategies)
    var samples: [Sample] = []
    var elapsed = 0.0
    var round = 0
    while schedule.activeCount > 0 && round < 40 {
      for index in rows.indices where schedule.runsThisRound(index) {
        var sample = repetition(
          rows[index], number: schedule.cases[index].measured + 1, operations: rows[index].operations,
          first: round == 0, rule: rules[index], prior: schedule.cases[index].budgetTally, &rng)
        if let rule = rules[index] { schedule.holdToBudget(index, &sample, rule: rule, warmup: false) }
        elapsed += sample.repetitionSeconds ?? 0
        _ = schedule.record(
          index, sample, seconds: sample.repetitionSeconds ?? 0, warmup: false, runElapsed: elapsed)
        samples.append(sample)
      }
      schedule.applyBudget(runElapsed: elapsed)
      round += 1
    }
    return samples
  }

  /// The probe as advise runs it: two repetitions of at most 10 operations.
  static func probe(_ plan: AdvicePlan, _ rows: [Row], _ rng: inout SplitMix64) throws -> AdviceProbe {
    var samples: [Sample] = []
    for row in rows {
      let operations =
        row.measure.wholeRepetition ? 1 : min(row.operations, AdviceProbe.operations)
      let rule = rule(plan, row, operations: operations, maximum: AdviceProbe.repetitions)
      // The between-repetition rules as the runner applies them: the schedule, at the probe's 2 repetitions.
      var schedule = RepetitionSchedule(
        policy: RepetitionPolicy(
          warmup: 0, minimum: AdviceProbe.repetitions, maximum: AdviceProbe.repetitions),
        caseCount: 1)
      while schedule.isActive(0) {
        var sample = repetition(
          row, number: schedule.cases[0].measured + 1, operations: operations,
          first: schedule.cases[0].measured == 0, rule: rule, prior: schedule.cases[0].budgetTally, &rng)
        if let rule { schedule.holdToBudget(0, &sample, rule: rule, warmup: false) }
        _ = schedule.record(0, sample, seconds: sample.repetitionSeconds ?? 0, warmup: false, runElapsed: 0)
        samples.append(sample)
      }
    }
    return AdviceProbe(plan: plan, probe: try table(samples))
  }

  @Test(
    "on generated profiles: a recommendation rests on 8 repetitions of every operation of every contender, a plan the probe says fits gets a full answer, and one it says does not is refused with a number"
  )
  func generatedProfiles() throws {
    var rng = SplitMix64(seed: 60)
    let registry = BackendRegistry.standard()
    var outcomes: [String: Int] = [:]
    for trial in 0..<24 {
      let profile = try Self.profile(&rng)
      let plan = AdvicePlan(profile, backends: registry, workloads: .standard)
      guard !plan.candidates.isEmpty else {
        outcomes["no candidate", default: 0] += 1
        continue
      }
      let rows = Self.rows(plan, &rng)
      let probe = try Self.probe(plan, rows, &rng)
      let available = Double(profile.runSeconds) - probe.seconds
      let fit = probe.fit(available: available)
      guard fit.fits else {
        // Refused before measuring, with the budget it needs.
        #expect(fit.needed > available && fit.needed.isFinite, "trial \(trial)")
        #expect(fit.drop.isEmpty == false || fit.contenders.isEmpty || fit.needed - available > 0)
        outcomes["refused", default: 0] += 1
        continue
      }
      let samples = Self.run(plan, rows, budget: available, &rng)
      let advice = Advice(
        plan: plan, table: try Self.table(samples), crashes: [:], promise: registry.declaredPromise,
        resamples: 200)
      let contenders = advice.strategies.filter {
        [.recommended, .tied, .costlier, .candidate].contains($0.verdict)
      }
      if advice.recommendation != nil {
        for strategy in contenders {
          for operation in strategy.operations {
            #expect(
              operation.repetitions >= AdvicePlan.minimumRepetitions,
              "trial \(trial): \(strategy.label) \(operation.operation.rawValue): n=\(operation.repetitions)"
            )
          }
        }
        outcomes["recommended", default: 0] += 1
      } else {
        outcomes[advice.noAnswerYet ? "no answer yet" : "no strategy", default: 0] += 1
      }
      let open = advice.strategies.filter { $0.verdict == .notMeasuredEnough }.map {
        "\($0.label): \($0.missingEvidence.joined(separator: "; "))"
      }
      #expect(
        !advice.noAnswerYet,
        "trial \(trial): the probe said \(Int(fit.needed)) s of \(Int(available)) fit, yet: \(open)")
      for strategy in advice.strategies where strategy.verdict == .missesBudget {
        #expect(strategy.budgets.contains { $0.outcome == .missed })
      }
    }
    // Not a test that always refuses, nor one that always answers.
    #expect((outcomes["recommended"] ?? 0) + (outcomes["no strategy"] ?? 0) >= 4, "\(outcomes)")
    #expect((outcomes["refused"] ?? 0) >= 1, "\(outcomes)")
  }
}
