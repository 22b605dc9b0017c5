import Foundation
import StoreBenchCore
import Testing

/// The stopping rule keeps its coverage: rows that stop as precise cover their true median at least 95% of the
/// time, simulated over repetition times resampled from 173 real rows of a committed default run
/// (`Tests/Fixtures/coverage-populations.csv`: each row's times over its median; skewed, bimodal and heavy-tailed
/// ones among them). The rule is the runner's own: ``RepetitionSchedule`` deciding at ``LookSchedule``'s looks.
@Suite("Coverage of the stopping rule")
struct CoverageSimulationTests {
  struct Population {
    let name: String
    let values: [Double]
  }

  static func populations() throws -> [Population] {
    let file = packageRoot.appendingPathComponent("Tests/Fixtures/coverage-populations.csv")
    let decoded = try CSVFormat.decode(String(contentsOf: file, encoding: .utf8))
    return decoded.rows.map { cells in
      Population(
        name: cells[0...3].joined(separator: " "),
        values: cells[4].split(separator: " ").compactMap { Double($0) })
    }
  }

  /// A draw from the population, smoothed by a 1% lognormal jitter so that the median is well defined.
  static func draw(_ population: Population, _ rng: inout SplitMix64) -> Double {
    let value = population.values[Int(rng.next() % UInt64(population.values.count))]
    let u1 = max(Double(rng.next() >> 11) / Double(1 << 53), 1e-12)
    let u2 = Double(rng.next() >> 11) / Double(1 << 53)
    return value * exp(0.01 * (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2))
  }

  struct Outcome {
    var precise = 0
    var covered = 0
    var coverage: Double { Double(covered) / Double(max(precise, 1)) }
    var standardError: Double { (0.95 * 0.05 / Double(max(precise, 1))).squareRoot() }
  }

  /// Runs `trials` simulated rows per population through the policy; `everyRepetition` is the old rule (a look
  /// after every repetition with a plain 95% interval), kept to show that the test can fail.
  static func simulate(policy: RepetitionPolicy, trials: Int, everyRepetition: Bool = false) throws -> Outcome {
    var rng = SplitMix64(seed: 2026)
    var outcome = Outcome()
    for population in try populations() {
      let truth = Statistics.median((0..<20_000).map { _ in draw(population, &rng) })!
      for _ in 0..<trials {
        if everyRepetition {
          var values: [Double] = []
          for _ in 0..<policy.maximum {
            values.append(draw(population, &rng))
            guard values.count >= policy.minimum, let statistics = Statistics(values),
              let interval = statistics.medianInterval,
              NoiseFlags.reach(interval, median: statistics.median) <= policy.targetPrecision
            else { continue }
            outcome.precise += 1
            if interval.low <= truth && truth <= interval.high { outcome.covered += 1 }
            break
          }
          continue
        }
        var schedule = RepetitionSchedule(policy: policy, caseCount: 1)
        while schedule.isActive(0) {
          var sample = Sample(
            key: RowKey(
              scenario: "s", workload: "w", backend: "b", variant: "v", size: 1,
              parameters: ""), repetition: 1, dataset: "")
          sample.status = .ok
          sample.wallSeconds = draw(population, &rng)
          _ = schedule.record(0, sample, seconds: 0, warmup: false, runElapsed: 0)
        }
        guard schedule.cases[0].stop == .precise else { continue }
        let statistics = Statistics(schedule.cases[0].wall, schedule: policy.schedule)!
        let interval = try #require(statistics.medianInterval)
        outcome.precise += 1
        if interval.low <= truth && truth <= interval.high { outcome.covered += 1 }
      }
    }
    return outcome
  }

  @Test("rows that stop as precise cover their median ≥ 95% (default policy 6–20, ±5%)", arguments: [20, 30])
  func coverage(maximum: Int) throws {
    let policy = RepetitionPolicy(minimum: 6, maximum: maximum, targetPrecision: 0.05)
    let outcome = try Self.simulate(policy: policy, trials: 40)
    print(
      "coverage simulation, policy 6–\(maximum) (looks \(policy.schedule.looks)): \(outcome.covered) of \(outcome.precise) "
        + "precise stops covered the median (\(String(format: "%.3f ± %.3f", outcome.coverage, outcome.standardError)))"
    )
    #expect(outcome.precise >= 300, "too few precise stops to judge: \(outcome.precise)")
    #expect(
      outcome.coverage >= 0.95 - 2 * outcome.standardError,
      "coverage \(outcome.coverage) over \(outcome.precise) precise stops (looks \(policy.schedule.looks))")
  }

  @Test("the old rule (a look after every repetition, a plain 95% interval) falls short: the test can fail")
  func oldRuleFallsShort() throws {
    let policy = RepetitionPolicy(minimum: 6, maximum: 20, targetPrecision: 0.05)
    let outcome = try Self.simulate(policy: policy, trials: 40, everyRepetition: true)
    print(
      "coverage simulation, old rule (a look after every repetition): \(outcome.covered) of \(outcome.precise) "
        + "(\(String(format: "%.3f ± %.3f", outcome.coverage, outcome.standardError)))")
    #expect(
      outcome.coverage < 0.95 - 2 * outcome.standardError, "coverage \(outcome.coverage) over \(outcome.precise)")
  }

  @Test("the schedule: looks about ×1.4 apart, Bonferroni level, exact bound ≥ 0.95; a fixed policy has one look")
  func schedule() {
    let schedule = LookSchedule(minimum: 6, maximum: 20)
    #expect(schedule.looks == [8, 11, 15, 20])
    #expect(abs(schedule.alpha - 0.0125) < 1e-12)
    #expect(schedule.coverage(n: 20)! >= 0.95)
    #expect(schedule.minimumCount == 8)
    #expect(LookSchedule(minimum: 6, maximum: 6).looks == [6])
    #expect(LookSchedule(minimum: 6, maximum: 6).alpha == 0.05)
    #expect(RepetitionPolicy.fixed(2).schedule.minimumCount == 6)
  }
}
