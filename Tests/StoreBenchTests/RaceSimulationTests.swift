import Foundation
import StoreBenchCore
import Testing

/// The race keeps its error rate per answer: over answers simulated with repetition times resampled from the
/// committed default run's rows (`Tests/Fixtures/coverage-populations.csv`, as the coverage test uses), the
/// share of answers holding any wrongly settled relation — a settled *slower* whose true ratio to the leader is at
/// most 1, a settled *equivalent* outside the tie margin — stays within 5%. The rule is the runner's own:
/// ``RepetitionSchedule`` racing a group by ``AnswerRule``, with the leader running ahead while others wait.
@Suite("Error rate of the race")
struct RaceSimulationTests {
  typealias Population = CoverageSimulationTests.Population

  /// True ratios of the candidates to the leader: ties (the hardest case for *slower*), ratios just outside and
  /// just inside the margin (the hardest for *equivalent*), and far rows (which should settle).
  static let ratios: [Double] = [1.0, 1.0, 1.0, 1.12, 0.93, 1.05, 1.3, 2.0, 4.0]

  struct Outcome {
    var answers = 0
    var wrong = 0
    var settled = 0
    var relations = 0
    var repetitions = 0
    var rate: Double { Double(wrong) / Double(max(answers, 1)) }
    var standardError: Double { (0.05 * 0.95 / Double(max(answers, 1))).squareRoot() }
  }

  /// One simulated answer: a leader and candidates at ``ratios``, each with times drawn from its own population.
  /// `naive`: test every relation after every repetition at a plain 5%, for the test that can fail.
  static func simulate(trials: Int, naive: Bool = false) throws -> Outcome {
    let populations = try CoverageSimulationTests.populations()
    var rng = SplitMix64(seed: 4141)
    var outcome = Outcome()
    let rule = AnswerRule(maximum: 20)
    for _ in 0..<trials {
      let count = ratios.count + 1
      let chosen = (0..<count).map { _ in populations[Int(rng.next() % UInt64(populations.count))] }
      let scales = [1.0] + ratios
      // Each population's median is 1 by construction; its true median under the jitter is estimated.
      let truths = zip(chosen, scales).map { population, scale in
        scale * Statistics.median((0..<1000).map { _ in CoverageSimulationTests.draw(population, &rng) })!
      }
      func draw(_ index: Int) -> Double { scales[index] * CoverageSimulationTests.draw(chosen[index], &rng) }
      var decisions: [(row: Int, leader: Int, verdict: RatioVerdict)] = []
      if naive {
        var walls = [[Double]](repeating: [], count: count)
        var open = Set(1..<count)
        for _ in 0..<20 {
          for index in 0..<count { walls[index].append(draw(index)) }
          for row in open {
            guard let interval = RankSumInterval(walls[row], over: walls[0], alpha: 0.05) else { continue }
            let verdict = interval.verdict(rule.margin)
            if verdict == .slower || verdict == .equivalent {
              decisions.append((row, 0, verdict))
              open.remove(row)
            }
          }
        }
        outcome.relations += count - 1
      } else {
        var policy = RepetitionPolicy(warmup: 0, minimum: 3, maximum: 20)
        policy.stop = .answer
        let race = RaceGroups(
          groups: [Array(0..<count)],
          promise: Dictionary(uniqueKeysWithValues: (0..<count).map { ($0, DurabilityPromise.mayLose) }))
        var schedule = RepetitionSchedule(policy: policy, caseCount: count, race: race)
        var tested = [Int](repeating: 0, count: count)
        while schedule.activeCount > 0 {
          for index in 0..<count where schedule.runsThisRound(index) {
            _ = schedule.record(index, sample(draw(index)), seconds: 0, warmup: false, runElapsed: 0)
            outcome.repetitions += 1
          }
          schedule.applyRace()
          // Every test the schedule made this round, and what it decided.
          let answers = AnswerRace(
            entries: (0..<count).map {
              AnswerRace.Entry(id: $0, walls: schedule.cases[$0].wall, promise: .mayLose)
            }, rule: rule)
          for index in 0..<count where schedule.cases[index].testedAt > tested[index] {
            tested[index] = schedule.cases[index].testedAt
            guard let answer = answers.answers.first, answer.leader != index,
              let relation = answer.relations[index], relation.isSettled, let verdict = relation.verdict
            else { continue }
            decisions.append((index, answer.leader, verdict))
          }
        }
        // The report's judgement of the final samples is the last test.
        let final = AnswerRace(
          entries: (0..<count).map {
            AnswerRace.Entry(id: $0, walls: schedule.cases[$0].wall, promise: .mayLose)
          }, rule: rule, leaderMinimum: policy.schedule.minimumCount)
        if let answer = final.answers.first {
          outcome.relations += answer.relations.count
          outcome.settled += answer.relations.values.count(where: \.isSettled)
          for (row, relation) in answer.relations {
            if let verdict = relation.verdict, relation.isSettled {
              decisions.append((row, answer.leader, verdict))
            }
          }
        }
      }
      outcome.answers += 1
      let wrong = decisions.contains { decision in
        let truth = truths[decision.row] / truths[decision.leader]
        switch decision.verdict {
        case .slower: return truth <= 1
        case .equivalent: return truth < rule.margin.low || truth > rule.margin.high
        default: return false
        }
      }
      if wrong { outcome.wrong += 1 }
    }
    return outcome
  }

  static func sample(_ wall: Double) -> Sample {
    var sample = Sample(
      key: RowKey(scenario: "s", workload: "w", backend: "b", variant: "v", size: 1, parameters: ""),
      repetition: 1, dataset: "")
    sample.status = .ok
    sample.wallSeconds = wall
    return sample
  }

  @Test("answers with a wrongly settled relation stay within 5%, and far rows settle")
  func errorRate() throws {
    let outcome = try Self.simulate(trials: 300)
    print(
      "race simulation: \(outcome.wrong) of \(outcome.answers) answers held a wrongly settled relation "
        + "(\(String(format: "%.3f ± %.3f", outcome.rate, outcome.standardError))); "
        + "\(outcome.settled) of \(outcome.relations) relations settled; \(outcome.repetitions) repetitions")
    #expect(outcome.rate <= 0.05 + 2 * outcome.standardError, "error rate \(outcome.rate) over \(outcome.answers)")
    // The far rows (2× and 4×) settle in most answers: the rule is not merely silent.
    #expect(Double(outcome.settled) >= 1.5 * Double(outcome.answers), "\(outcome.settled) settled")
  }

  @Test("a naive rule (every relation tested after every repetition at a plain 5%) errs too often: the test can fail")
  func naiveRuleErrs() throws {
    let outcome = try Self.simulate(trials: 200, naive: true)
    print(
      "race simulation, naive rule: \(outcome.wrong) of \(outcome.answers) answers held a wrongly settled "
        + "relation (\(String(format: "%.3f", outcome.rate)))")
    #expect(outcome.rate > 0.05 + 2 * outcome.standardError, "error rate \(outcome.rate)")
  }
}

@Suite("Rank-sum interval")
struct RankSumIntervalTests {
  @Test("the ranks match the published critical values of the two-sided 5% Mann–Whitney test")
  func criticalValues() {
    // Critical U (reject when U ≤ c) for n = m = 5, 8, 10 at two-sided 0.05: 2, 13, 23; the interval's rank is
    // c + 1. n = 4, m = 17 at two-sided 0.0004: only the most extreme ordering, 1/C(21, 4) = 1/5985.
    #expect(RankSumInterval.criticalRank(n: 5, m: 5, alpha: 0.05)?.0 == 3)
    #expect(RankSumInterval.criticalRank(n: 8, m: 8, alpha: 0.05)?.0 == 14)
    #expect(RankSumInterval.criticalRank(n: 10, m: 10, alpha: 0.05)?.0 == 24)
    #expect(RankSumInterval.criticalRank(n: 4, m: 17, alpha: 0.0004)?.0 == 1)
    #expect(RankSumInterval.criticalRank(n: 4, m: 16, alpha: 0.0004) == nil)
    #expect(RankSumInterval.criticalRank(n: 1, m: 20, alpha: 0.05) == nil, "1/21 > 0.025")
    // The whole distribution: C(16, 7) = 11,440 orderings, symmetric about n·m/2.
    let counts = MannWhitney.uDistribution(n1: 7, n2: 9)
    #expect(counts.reduce(0, +) == 11_440)
    #expect((0...63).allSatisfy { counts[$0] == counts[63 - $0] })
    #expect(Array(counts[0...4]) == [1, 1, 2, 3, 5])
    #expect(MannWhitney.uDistribution(n1: 7, n2: 9, upTo: 10) == Array(counts[0...10]))
  }

  @Test("complete separation gives min x / max y as the lower end; a shifted copy brackets its shift")
  func bounds() throws {
    let y = [1.0, 1.1, 1.2, 1.3]
    let x = [3.0, 3.3, 3.6, 3.9]
    let interval = try #require(RankSumInterval(x, over: y, alpha: 0.03))
    #expect(interval.rank == 1 && abs(interval.low - 3.0 / 1.3) < 1e-12 && abs(interval.high - 3.9 / 1.0) < 1e-12)
    #expect(interval.verdict(.standard) == .slower)
    let base = (0..<15).map { 1 + 0.01 * Double(($0 * 7) % 15) }
    let shifted = try #require(RankSumInterval(base.map { $0 * 1.5 }, over: base, alpha: 0.05))
    #expect(shifted.low <= 1.5 && 1.5 <= shifted.high)
    #expect(RankSumInterval([1, 2], over: [1, 2], alpha: 0.05) == nil)
  }
}

@Suite("Settled relations, as published")
struct SettledRelationsPageTests {
  @Test("MEASURING.md quotes the racing run's settled relations as its report.md counts them")
  func quotedCountMatchesReport() throws {
    let measuring = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/MEASURING.md"), encoding: .utf8)
    let report = try String(
      contentsOf: packageRoot.appendingPathComponent("results/example/report.md"), encoding: .utf8)
    let counted = try #require(report.firstMatch(of: #/\*\*([0-9,]+ of [0-9,]+) relations settled\.\*\*/#))
    let quoted = try #require(
      measuring.firstMatch(of: #/The racing default run \([^)]*\)+ settles \*\*([0-9,]+ of [0-9,]+)\*\*/#))
    #expect(quoted.output.1 == counted.output.1)
  }
}
