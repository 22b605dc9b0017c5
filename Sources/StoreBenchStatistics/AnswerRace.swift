import Foundation
import StoreBenchContract

/// When a workload's answer is settled, and so where a run's repetitions still buy something: the rule the
/// runner races repetitions by and the report judges settlement by, so both say the same.
///
/// An answer is, per durability need, the fastest strategy that keeps it (the *leader*: the lowest median) and
/// every other candidate's relation to it. A relation is **settled** when the rank-sum interval of the candidate's
/// time over the leader's (``RankSumInterval``) says *slower* (above 1, beyond the tie margin) or *equivalent*
/// (within it); otherwise it is still *indistinguishable*. A far row settles from a few repetitions against a
/// leader of many (every one of its times slower than every one of the leader's); a close one needs many.
///
/// **The error rate, per answer.** A relation is tested at most once at each of the ``looks`` and once more at
/// the end (the report's judgement of the final samples), each test at `alpha` = 0.05 / ((candidates − 1) ×
/// (looks + 1)): by Bonferroni over the relations and the tests, the chance that an answer holds any wrongly
/// settled relation — a settled *slower* whose true ratio is at most 1, a settled *equivalent* outside the
/// margin — is at most 5%. `RaceSimulationTests` checks it on times resampled from a committed run's rows.
public struct AnswerRule: Sendable, Equatable {
  /// The repetition counts at which a candidate's relations are tested, ascending; the last is the maximum.
  public let looks: [Int]
  public let margin: TieMargin
  /// The error an answer allows.
  public static let familyAlpha = 0.05

  /// Looks at 4, 6, 8, 11, 15 and 20 repetitions (about ×1.4 apart), those below `maximum`, and `maximum`.
  public init(maximum: Int, margin: TieMargin = .standard) {
    looks = [4, 6, 8, 11, 15, 20].filter { $0 < maximum } + [maximum]
    self.margin = margin
  }

  /// The two-sided error of each test in an answer among `candidates` strategies.
  public func alpha(candidates: Int) -> Double {
    Self.familyAlpha / Double(max(candidates - 1, 1) * (looks.count + 1))
  }

  /// The relation of `row`'s times to the `leader`'s at `alpha`.
  public func relation(_ row: [Double], to leader: [Double], alpha: Double) -> Relation {
    let interval = RankSumInterval(row, over: leader, alpha: alpha)
    return Relation(interval: interval, verdict: interval?.verdict(margin), counts: (row.count, leader.count))
  }

  /// The smallest number of leader repetitions against which a row of `n` could settle at `alpha` (every one
  /// of its times beyond every one of the leader's), or nil when none up to `limit` could.
  public func leaderRepetitionsNeeded(n: Int, alpha: Double, limit: Int) -> Int? {
    (1...max(limit, 1)).first { RankSumInterval.isPossible(n: n, m: $0, alpha: alpha) }
  }
}

/// One candidate's relation to its answer's leader.
public struct Relation: Sendable {
  /// The rank-sum interval of the ratio (nil: too few repetitions for one at the answer's level).
  public let interval: RankSumInterval?
  /// Its verdict (nil without an interval).
  public let verdict: RatioVerdict?
  /// Repetitions of the candidate and of the leader.
  public let counts: (row: Int, leader: Int)

  /// Settled: shown slower beyond the margin, or equivalent within it.
  public var isSettled: Bool { verdict == .slower || verdict == .equivalent }
}

/// The answers of one group of comparable rows (one workload, one size and data): per durability need, the leader
/// and every other candidate's relation to it.
public struct AnswerRace: Sendable {
  /// A candidate: its id (the caller's), its ok times and its durability class.
  public struct Entry: Sendable {
    public let id: Int
    public let walls: [Double]
    public let promise: DurabilityPromise
    public init(id: Int, walls: [Double], promise: DurabilityPromise) {
      (self.id, self.walls, self.promise) = (id, walls, promise)
    }
    var median: Double { Statistics.median(walls) ?? .infinity }
  }

  /// The answer for one durability need.
  public struct Answer: Sendable {
    public let need: DurabilityPromise
    public let leader: Int
    /// Every other candidate that keeps the need, by id.
    public let relations: [Int: Relation]
    /// The candidates whose relation is not settled, by id, ascending.
    public var open: [Int] { relations.filter { !$0.value.isSettled }.map(\.key).sorted() }
    public var isSettled: Bool { relations.values.allSatisfy(\.isSettled) }
    public func contains(_ id: Int) -> Bool { id == leader || relations[id] != nil }
  }

  /// The durability needs an answer is given for, weakest first.
  public static let needs: [DurabilityPromise] = [.mayLose, .survivesKill, .durable]

  public let answers: [Answer]
  /// The level every test of this group is taken at (``AnswerRule/alpha(candidates:)``).
  public let alpha: Double

  /// The answers among `entries` (the floor excluded by the caller). A leader is the lowest median among the
  /// candidates with at least `leaderMinimum` times (no answer for a need when none has); ties go to the lower id.
  public init(entries: [Entry], rule: AnswerRule, leaderMinimum: Int = 1) {
    let present = entries.filter { !$0.walls.isEmpty }
    alpha = rule.alpha(candidates: present.count)
    answers = Self.needs.compactMap { [alpha] need in
      let members = present.filter { $0.promise.keeps(atLeast: need) }
      let eligible = members.filter { $0.walls.count >= leaderMinimum }
      guard
        let leader = eligible.min(by: {
          ($0.median, $0.id) < ($1.median, $1.id)
        })
      else { return nil }
      var relations: [Int: Relation] = [:]
      for member in members where member.id != leader.id {
        relations[member.id] = rule.relation(member.walls, to: leader.walls, alpha: alpha)
      }
      return Answer(need: need, leader: leader.id, relations: relations)
    }
  }

  /// The answers `id` takes part in.
  public func answers(containing id: Int) -> [Answer] { answers.filter { $0.contains(id) } }
}
