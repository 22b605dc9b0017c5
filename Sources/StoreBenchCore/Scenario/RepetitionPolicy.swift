import Foundation
import StoreBenchAnalysis

/// How many repetitions each case gets: warm-ups, then measured repetitions until the median is known precisely
/// enough or the time set aside for the case (or the whole run) is spent.
///
/// Rounds stay interleaved and shuffled over the cases still running. A case leaves the rotation when
/// - its count of ok repetitions is one of the schedule's looks (``schedule``, from ``minimum`` on) and both ends of
///   its median's interval (at the schedule's level, so that stopping early keeps it a 95% interval) lie within
///   ±``targetPrecision`` of the median, or
/// - it has ``maximum`` repetitions, or
/// - it has spent ``caseSeconds`` (warm-ups, preparation and verification included; the row's `prepare_share` says
///   how much of it filling the store took) and has one measured repetition, or
/// - the run has spent ``budgetSeconds`` and the case has one measured repetition, or
/// - a repetition failed or the backend declined the workload (repeating it would not change the row).
///
/// `minimum == maximum` is a fixed count: every case runs exactly that often unless a time limit ends it.
///
/// With ``stop`` = ``StopRule/answer`` (scenario key `stop: answer`) precision ends no case: the report's answers
/// decide (``AnswerRule``). A case in an answer leaves the rotation once its relation to the leaders of the
/// answers it takes part in is settled, or, as a leader, once every candidate it leads has left; a case no answer
/// depends on stops at ``minimum``; the limits above still apply.
public struct RepetitionPolicy: Sendable, Equatable, Codable, CustomStringConvertible {
  public var warmup: Int
  public var minimum: Int
  public var maximum: Int
  /// The half-width of the median's 95% interval relative to the median that ends a case early (0.05: ±5%).
  public var targetPrecision: Double
  /// The wall-clock time one case may take over all its repetitions; nil: no cap.
  public var caseSeconds: Double?
  /// The wall-clock time the whole run may take before cases stop at their first measured repetition; nil: none.
  public var budgetSeconds: Double?
  /// What ends a case early: its own precision, or the answers it takes part in.
  public var stop: StopRule = .precision

  /// What ends a case before its maximum.
  public enum StopRule: String, Sendable, Codable, CaseIterable {
    /// Its median's interval reached ``targetPrecision``.
    case precision
    /// The answers it takes part in are settled (``AnswerRule``).
    case answer
  }

  /// Whether the answers decide where repetitions go (``StopRule/answer`` with a minimum below the maximum).
  public var racing: Bool { stop == .answer && !isFixed }

  public static let defaultTargetPrecision = NoiseFlags.defaultTargetPrecision

  enum CodingKeys: String, CodingKey {
    case warmup
    case minimum = "min_repetitions"
    case maximum = "max_repetitions"
    case targetPrecision = "target_precision"
    case
      caseSeconds = "case_seconds"
    case budgetSeconds = "budget_seconds"
    case stop
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    warmup = try container.decode(Int.self, forKey: .warmup)
    minimum = try container.decode(Int.self, forKey: .minimum)
    maximum = try container.decode(Int.self, forKey: .maximum)
    targetPrecision = try container.decode(Double.self, forKey: .targetPrecision)
    caseSeconds = try container.decodeIfPresent(Double.self, forKey: .caseSeconds)
    budgetSeconds = try container.decodeIfPresent(Double.self, forKey: .budgetSeconds)
    // Runs recorded before the key existed stopped for precision.
    stop = try container.decodeIfPresent(StopRule.self, forKey: .stop) ?? .precision
  }

  public init(
    warmup: Int = 1, minimum: Int = 6, maximum: Int = 20, targetPrecision: Double = defaultTargetPrecision,
    caseSeconds: Double? = nil, budgetSeconds: Double? = nil
  ) {
    (self.warmup, self.minimum, self.maximum, self.targetPrecision) = (warmup, minimum, maximum, targetPrecision)
    (self.caseSeconds, self.budgetSeconds) = (caseSeconds, budgetSeconds)
  }

  /// Exactly `count` measured repetitions per case (no early stop for precision).
  public static func fixed(_ count: Int, warmup: Int = 1) -> RepetitionPolicy {
    RepetitionPolicy(warmup: warmup, minimum: count, maximum: count)
  }

  /// Command-line values that replace the scenario's (nil: keep).
  public struct Overrides: Sendable, Codable, Equatable {
    public var warmup: Int?
    /// Exactly this many measured repetitions (sets minimum and maximum).
    public var repetitions: Int?
    public var minimum: Int?
    public var maximum: Int?
    public var targetPrecision: Double?
    public var caseSeconds: Double?
    public var budgetSeconds: Double?
    public init() {}

    enum CodingKeys: String, CodingKey {
      case warmup, repetitions
      case minimum = "min_repetitions"
      case maximum = "max_repetitions"
      case
        targetPrecision = "target_precision"
      case caseSeconds = "case_seconds"
      case budgetSeconds = "budget_seconds"
    }
  }

  /// This policy with `overrides` applied; throws when the result does not fit together.
  public func applying(_ overrides: Overrides) throws -> RepetitionPolicy {
    var policy = self
    if let warmup = overrides.warmup { policy.warmup = warmup }
    if let count = overrides.repetitions {
      // "Exactly this many": the scenario's per-case time cap would end a case sooner, so it is lifted (a cap
      // given with the count still applies, and so does a run budget).
      (policy.minimum, policy.maximum) = (count, count)
      policy.caseSeconds = nil
    }
    if let minimum = overrides.minimum {
      policy.minimum = minimum
      if overrides.maximum == nil { policy.maximum = max(policy.maximum, minimum) }
    }
    if let maximum = overrides.maximum {
      policy.maximum = maximum
      if overrides.minimum == nil { policy.minimum = min(policy.minimum, maximum) }
    }
    if let target = overrides.targetPrecision { policy.targetPrecision = target }
    if let seconds = overrides.caseSeconds { policy.caseSeconds = seconds }
    if let seconds = overrides.budgetSeconds { policy.budgetSeconds = seconds }
    try policy.validate()
    return policy
  }

  public var isFixed: Bool { minimum == maximum }

  /// When a case may stop for precision, and the level of its interval (``LookSchedule``).
  public var schedule: LookSchedule { LookSchedule(minimum: minimum, maximum: maximum) }

  /// Throws a message naming the offending key when the values do not fit together.
  public func validate() throws {
    guard minimum >= 1, maximum >= minimum else {
      throw PolicyError("repetitions: min (\(minimum)) must be at least 1 and at most max (\(maximum))")
    }
    guard targetPrecision > 0, targetPrecision < 1 else {
      throw PolicyError("target_precision: \(targetPrecision) must be between 0 and 1 (0.05 is ±5%)")
    }
    if let caseSeconds, caseSeconds <= 0 { throw PolicyError("case_seconds: must be positive, got \(caseSeconds)") }
    if let budgetSeconds, budgetSeconds <= 0 {
      throw PolicyError("budget_seconds: must be positive, got \(budgetSeconds)")
    }
  }

  /// One line for environment.json and the run's first progress line.
  public var description: String {
    var parts = ["\(warmup) warm-up"]
    if isFixed {
      parts.append("\(minimum) measured repetitions per case")
    } else if racing {
      let rule = AnswerRule(maximum: maximum)
      parts.append(
        "up to \(maximum) measured repetitions per case, raced by the answers: a case stops once its relation "
          + "to each answer's leader is settled (slower beyond or equivalent within the \(rule.margin) "
          + "margin, by the rank-sum interval of the ratio; tested at n = "
          + rule.looks.map(String.init).joined(separator: ", ")
          + " and at the end, each test at 5% over the answer's relations and tests, Bonferroni), a leader "
          + "once every candidate it leads has stopped, a case no answer depends on at \(minimum)")
    } else {
      parts.append(
        "\(minimum)–\(maximum) measured repetitions per case, stopping at a look once both ends of the "
          + "median's interval are within ±\(Self.percent(targetPrecision)) (\(schedule))")
    }
    if let caseSeconds { parts.append("at most \(Self.seconds(caseSeconds)) per case") }
    if let budgetSeconds { parts.append("a run budget of \(Self.seconds(budgetSeconds))") }
    return parts.joined(separator: ", ")
      + "; rounds interleaved in a seeded shuffle; a case that failed or was declined stops at once"
  }

  static func percent(_ value: Double) -> String {
    let scaled = value * 100
    return scaled == scaled.rounded() ? "\(Int(scaled))%" : String(format: "%.1f%%", scaled)
  }

  static func seconds(_ value: Double) -> String {
    value >= 60
      ? String(
        format: "%.0f min %02.0f s", (value / 60).rounded(.down), value.truncatingRemainder(dividingBy: 60))
      : String(format: "%.0f s", value)
  }
}

/// A repetition policy whose values do not fit together.
public struct PolicyError: Error, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}
