import Foundation
import StoreBenchCore

/// advice.json, typed: what `advise` writes and what a script (or a test) reads back, one Codable value per part.
/// Keys are written sorted; an absent figure is left out, and the few keys that say "none" are written as `null`
/// (``NullOr``).
public struct AdviceRecord: Codable, Sendable, Equatable {
  public var profile: String
  public var profileFile: String
  public var need: String
  public var recommendation: NullOr<StrategyName>
  /// `recommendation`, `no-answer-yet` or `no-strategy`.
  public var answer: String
  public var strategies: [Strategy]
  public var notConsidered: [NotConsidered]
  public var measuredOn: MeasuredOn
  public var lossWindowMilliseconds: Double?
  public var growth: Growth?

  enum CodingKeys: String, CodingKey {
    case profile, need, recommendation, answer, strategies, growth
    case profileFile = "profile_file"
    case notConsidered = "not_considered"
    case measuredOn = "measured_on"
    case lossWindowMilliseconds = "loss_window_ms"
  }

  /// A strategy by its backend and settings.
  public struct StrategyName: Codable, Sendable, Equatable {
    public var backend: String
    public var variant: String
  }

  /// One candidate strategy and its judgement.
  public struct Strategy: Codable, Sendable, Equatable {
    public var backend: String
    public var variant: String
    public var verdict: String
    public var reason: String
    public var meetsBudgets: Bool
    public var meetsNeed: Bool
    public var costPerDay: Double?
    /// The 95% interval of the cost a day: low, high.
    public var costInterval: [Double]?
    /// Median, low and high of the cost over the recommendation's.
    public var costRatio: [Double]?
    public var writtenBytesPerDay: Double?
    public var syncsPerDay: Double?
    public var durability: Durability?
    public var lossWindow: LossWindowRecord?
    public var sharing: Sharing?
    public var budgets: [Budget]
    public var operations: [Operation]

    enum CodingKeys: String, CodingKey {
      case backend, variant, verdict, reason, durability, sharing, budgets, operations
      case meetsBudgets = "meets_budgets"
      case meetsNeed = "meets_need"
      case costPerDay = "cost_s_per_day"
      case costInterval = "cost_ci95_s_per_day"
      case costRatio = "cost_ratio_to_recommendation"
      case writtenBytesPerDay = "written_bytes_per_day"
      case syncsPerDay = "syncs_per_day"
      case lossWindow = "loss_window"
    }
  }

  /// The measured durability class.
  public struct Durability: Codable, Sendable, Equatable {
    public var promise: String
    public var measured: Bool
    public var evidence: String

    enum CodingKeys: String, CodingKey {
      case measured, evidence
      case promise = "class"
    }
  }

  /// The loss window on the profile's save interval.
  public struct LossWindowRecord: Codable, Sendable, Equatable {
    public var saveIntervalMilliseconds: NullOr<Double>
    /// With a bursty cadence (``SaveCadence``): saves per burst and the pause after each, in ms.
    public var savesPerBurst: Int?
    public var pauseMilliseconds: Double?
    /// `no-loss`, `bounded`, `unbounded` or `unmeasured`.
    public var outcome: String
    public var windowMilliseconds: Double?
    public var lossDepth: Int?
    public var writerWindowMilliseconds: Double?
    public var lostStates: Int?
    public var states: Int?
    public var reason: String?

    enum CodingKeys: String, CodingKey {
      case outcome, states, reason
      case saveIntervalMilliseconds = "save_interval_ms"
      case savesPerBurst = "saves_per_burst"
      case pauseMilliseconds = "pause_ms"
      case windowMilliseconds = "window_ms"
      case lossDepth = "loss_depth"
      case writerWindowMilliseconds = "writer_window_ms"
      case lostStates = "lost_states"
    }
  }

  /// Another process on the shared store: lost updates and refusals.
  public struct Sharing: Codable, Sendable, Equatable {
    public var lostUpdates: Int
    public var refusals: Int
    public var operations: Int
    public var refusedPercent: Double
    public var allowedRefusedPercent: Double
    public var repetitions: Int
    public var exercisedRepetitions: Int
    public var outcome: String
    public var met: Bool

    enum CodingKeys: String, CodingKey {
      case refusals, operations, repetitions, outcome, met
      case lostUpdates = "lost_updates"
      case refusedPercent = "refused_percent"
      case allowedRefusedPercent = "allowed_refused_percent"
      case exercisedRepetitions = "exercised_repetitions"
    }
  }

  /// One latency budget on one strategy.
  public struct Budget: Codable, Sendable, Equatable {
    public var operation: String
    public var percentile: Int
    public var budgetMilliseconds: Double
    public var measuredMilliseconds: Double?
    /// What the budget is held against (``BudgetJudgement/judged``): the upper end of the interval, or the figure.
    public var judgedMilliseconds: Double?
    public var met: Bool
    /// `met`, `missed` or `notMeasuredEnough`.
    public var outcome: String
    public var repetitions: Int

    enum CodingKeys: String, CodingKey {
      case operation, percentile, met, outcome, repetitions
      case budgetMilliseconds = "budget_ms"
      case measuredMilliseconds = "measured_ms"
      case judgedMilliseconds = "judged_ms"
    }
  }

  /// One operation's measurements on one strategy.
  public struct Operation: Codable, Sendable, Equatable {
    public var operation: String
    /// Seconds per app operation, one per repetition.
    public var perOperation: [Double]
    public var repetitions: Int
    public var noise: [String]
    public var unit: String?
    public var syncsPerOperation: Double?
    public var problem: String?

    enum CodingKeys: String, CodingKey {
      case operation, repetitions, noise, unit, problem
      case perOperation = "per_op_s"
      case syncsPerOperation = "syncs_per_op"
    }
  }

  /// A candidate left out before measuring, with why.
  public struct NotConsidered: Codable, Sendable, Equatable {
    public var candidate: String
    public var reason: String
  }

  /// The machine and run the answer was measured on.
  public struct MeasuredOn: Codable, Sendable, Equatable {
    public var host, cpu, kernel, date, storebench, run: String
    public var cores: Int
    public var fileSystem: String
    public var crashTrials: String

    enum CodingKeys: String, CodingKey {
      case host, cpu, kernel, date, storebench, run, cores
      case fileSystem = "file_system"
      case crashTrials = "crash_trials"
    }
  }

  /// The answer at the profile's size after its horizon (``AdviceGrowth``).
  public struct Growth: Codable, Sendable, Equatable {
    public var todayRecords, horizonRecords, measuredRecords, recordsPerDay, horizonDays: Int
    public var holds: Bool
    public var recommendationAtMeasured: NullOr<StrategyName>
    public var limit: String?

    enum CodingKeys: String, CodingKey {
      case holds, limit
      case todayRecords = "today_records"
      case horizonRecords = "horizon_records"
      case measuredRecords = "measured_records"
      case recordsPerDay = "records_per_day"
      case horizonDays = "horizon_days"
      case recommendationAtMeasured = "recommendation_at_measured"
    }
  }

  /// The record as advice.json's bytes: pretty, keys sorted, slashes unescaped, a final newline.
  public func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self) + Data("\n".utf8)
  }
}

/// A value that advice.json writes as `null` when it is absent (where an absent key would read as "not reported").
public enum NullOr<Wrapped: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
  case value(Wrapped)
  case null

  public init(_ value: Wrapped?) { self = value.map(Self.value) ?? .null }

  /// The value, nil for `null`.
  public var value: Wrapped? {
    if case .value(let wrapped) = self { return wrapped }
    return nil
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self = container.decodeNil() ? .null : .value(try container.decode(Wrapped.self))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .value(let wrapped): try container.encode(wrapped)
    case .null: try container.encodeNil()
    }
  }
}
