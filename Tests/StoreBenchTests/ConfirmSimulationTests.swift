import Foundation
import Testing

@testable import StoreBenchCore

/// `ab`'s confirm pass keeps the error rate it states (``ConfirmPass``): over A/A jobs simulated with round times
/// resampled from the committed default run's rows (`Tests/Fixtures/coverage-populations.csv`, as the coverage and
/// race tests use), the share of jobs that alarm on any row — a regression the confirm rounds confirm — stays within
/// 5%, also when a burst of load slows one row of one side for a stretch of the first pass (what a false alarm in
/// CI looks like); the first pass alone alarms on most of those. The decisions are `ab`'s own: ``Comparison`` on
/// paired rounds, ``ConfirmPass/flagged(_:improvementsFail:)``, the confirm rounds judged with
/// ``Comparison/Options/only``, and ``ConfirmPass/combine(first:flagged:confirm:rounds:confirmRounds:)``.
@Suite("Error rate of the confirm pass")
struct ConfirmSimulationTests {
  static let rows = 6
  static let rounds = 12

  struct Outcome {
    var jobs = 0
    var firstPassAlarms = 0
    var alarms = 0
    var confirmedPlanted = 0
    var flaggedPlanted = 0
    var rate: Double { Double(alarms) / Double(max(jobs, 1)) }
  }

  static func key(_ row: Int) -> RowKey {
    RowKey(scenario: "sim", workload: "insert", backend: "b\(row)", variant: "", size: 10, parameters: "count=10")
  }

  /// The two sides' samples over `rounds` rounds: each row's times drawn from its population, scaled by
  /// `scale(side, row, round)`.
  static func tables(
    populations: [CoverageSimulationTests.Population], rows: [Int], rounds: Int, rng: inout SplitMix64,
    scale: (Int, Int, Int) -> Double
  ) throws -> [SampleTable] {
    try (0..<2).map { side in
      var samples: [Sample] = []
      for row in rows {
        for round in 1...rounds {
          let wall = scale(side, row, round) * CoverageSimulationTests.draw(populations[row], &rng) * 0.01
          samples.append(
            Sample.measured(
              key(row), repetition: round, wall: wall, cpuUser: 0.001, maxRSSKiB: 1, readBytes: 0, writeBytes: 1,
              storeBytes: 4096, storeAllocatedBytes: 4096, ops: 10))
        }
      }
      return try table(samples)
    }
  }

  /// `jobs` A/A jobs (a planted ×`planted` on row 0's current side when given); `burst`: the current side of one
  /// row runs ×2 slower for 6 consecutive rounds of the first pass.
  static func simulate(jobs: Int, burst: Bool, planted: Double? = nil, seed: UInt64) throws -> Outcome {
    let all = try CoverageSimulationTests.populations()
    var rng = SplitMix64(seed: seed)
    var options = Comparison.Options()
    options.paired = true
    options.metrics = [.of(.wallSeconds)]
    var outcome = Outcome()
    for _ in 0..<jobs {
      let populations = (0..<rows).map { _ in all[Int(rng.next() % UInt64(all.count))] }
      let (burstRow, burstStart) = (Int(rng.next() % UInt64(rows)), 1 + Int(rng.next() % UInt64(rounds - 5)))
      func scale(_ side: Int, _ row: Int, _ round: Int, first: Bool) -> Double {
        var factor = side == 1 && row == 0 ? planted ?? 1 : 1
        if first && burst && side == 1 && row == burstRow && (burstStart..<burstStart + 6).contains(round) {
          factor *= 2
        }
        return factor
      }
      let sides = try tables(populations: populations, rows: Array(0..<rows), rounds: rounds, rng: &rng) {
        scale($0, $1, $2, first: true)
      }
      let first = Comparison(baseline: sides[0], current: sides[1], options: options)
      let flagged = ConfirmPass.flagged(first, improvementsFail: false)
      var final = first
      if !flagged.isEmpty {
        let indices = flagged.map { finding in (0..<rows).first { key($0).backend == finding.key.backend }! }
        let again = try tables(populations: populations, rows: indices, rounds: rounds, rng: &rng) {
          scale($0, $1, $2, first: false)
        }
        var confirmOptions = options
        confirmOptions.only = Set(flagged.map(\.id))
        let confirm = Comparison(baseline: again[0], current: again[1], options: confirmOptions)
        final = ConfirmPass.combine(
          first: first, flagged: flagged, confirm: confirm, rounds: rounds, confirmRounds: rounds)
      }
      outcome.jobs += 1
      let wrong = { (comparison: Comparison) in
        comparison.findings.contains { $0.verdict == .regression && (planted == nil || $0.key.backend != "b0") }
      }
      if wrong(first) { outcome.firstPassAlarms += 1 }
      if wrong(final) { outcome.alarms += 1 }
      if planted != nil, first.findings.contains(where: { $0.key.backend == "b0" && $0.verdict == .regression }) {
        outcome.flaggedPlanted += 1
      }
      if planted != nil, final.findings.contains(where: { $0.key.backend == "b0" && $0.verdict == .regression }) {
        outcome.confirmedPlanted += 1
      }
    }
    return outcome
  }

  @Test("A/A jobs alarm on at most 5% of jobs, with or without a burst of load in the first pass")
  func errorRate() throws {
    let quiet = try Self.simulate(jobs: 200, burst: false, seed: 65)
    let disturbed = try Self.simulate(jobs: 200, burst: true, seed: 66)
    // 5% plus two standard errors of a 200-job estimate.
    let bound = 0.05 + 2 * (0.05 * 0.95 / 200).squareRoot()
    #expect(quiet.rate <= bound, "quiet A/A: \(quiet.alarms) of \(quiet.jobs) jobs alarmed")
    #expect(disturbed.rate <= bound, "disturbed A/A: \(disturbed.alarms) of \(disturbed.jobs) jobs alarmed")
    // The test can fail: the burst does make the first pass alarm, which is what the confirm pass is for.
    #expect(
      Double(disturbed.firstPassAlarms) / Double(disturbed.jobs) > bound,
      "the first pass alone alarmed on \(disturbed.firstPassAlarms) of \(disturbed.jobs) disturbed jobs")
  }

  @Test("a planted 50% slowdown of one row is confirmed in most jobs that flag it")
  func power() throws {
    let outcome = try Self.simulate(jobs: 60, burst: false, planted: 1.5, seed: 67)
    let report =
      "flagged in \(outcome.flaggedPlanted), confirmed in \(outcome.confirmedPlanted) of \(outcome.jobs) jobs"
    #expect(outcome.flaggedPlanted >= 40, "\(report)")
    #expect(Double(outcome.confirmedPlanted) >= 0.75 * Double(outcome.flaggedPlanted), "\(report)")
    #expect(outcome.alarms <= 6, "other rows alarmed in \(outcome.alarms) of \(outcome.jobs) jobs")
  }
}
