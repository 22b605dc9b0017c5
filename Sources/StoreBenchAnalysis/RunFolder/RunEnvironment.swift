import Foundation
import StoreBenchMeasure

/// What readers take from a run's `environment.json`, typed: the keys `EnvironmentManifest` (StoreBenchCore, the
/// writer) encodes under the same names — a test encodes a manifest and decodes it as this type. Every field is
/// optional (a run from an older storebench lacks some; `compare` also reads folders of bare samples), so decoding
/// never fails on a missing key; recognising a run folder goes through ``isStoreBenchRun(_:crash:)``: a JSON object
/// with storebench's schema fields, not merely JSON. Readers use these fields, never the keys' spelling.
public struct RunEnvironment: Decodable, Sendable {
  public var storebenchVersion: String?
  public var gitCommit: String?
  public var buildConfiguration: String?
  public var host: String?
  public var cpuModel: String?
  public var cores: Int?
  public var memoryBytes: Int64?
  public var kernel: String?
  public var workdirFileSystem: String?
  public var scenarioName: String?
  public var scenarioHash: String?
  public var startedAt: String?
  public var finishedAt: String?
  public var warnings: [String]?
  /// Set when a signal stopped the run.
  public var interrupted: String?
  /// How the run counted its costs (nil: a run from before counting, or not recorded).
  public var counters: CostCounters.Availability?
  /// The repetition policy's values the readers recompute intervals with.
  public var repetitionPolicyValues: PolicyValues?

  /// The repetition policy's look schedule and target (the writer's `repetition_policy_values`).
  public struct PolicyValues: Decodable, Sendable {
    public var looks: [Int]?
    public var lookAlpha: Double?
    public var targetPrecision: Double?
    /// `max_repetitions`: the answers' last look (``SampleTable/answerRule(margin:)``).
    public var maximum: Int?

    enum CodingKeys: String, CodingKey {
      case looks
      case lookAlpha = "look_alpha"
      case targetPrecision = "target_precision"
      case maximum = "max_repetitions"
    }
  }

  enum CodingKeys: String, CodingKey {
    case storebenchVersion = "storebench_version"
    case gitCommit = "git_commit"
    case buildConfiguration = "build_configuration"
    case
      host
    case cpuModel = "cpu_model"
    case cores
    case memoryBytes = "memory_bytes"
    case kernel
    case
      workdirFileSystem = "workdir_filesystem"
    case scenarioName = "scenario_name"
    case scenarioHash = "scenario_hash"
    case
      startedAt = "started_at"
    case finishedAt = "finished_at"
    case warnings, interrupted, counters
    case
      repetitionPolicyValues = "repetition_policy_values"
  }

  public init() {}

  /// Lenient: a key that is missing or of another type reads as nil (an older run's file stays readable).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func value<T: Decodable>(_ key: CodingKeys) -> T? {
      (try? container.decodeIfPresent(T.self, forKey: key)) ?? nil
    }
    storebenchVersion = value(.storebenchVersion)
    gitCommit = value(.gitCommit)
    buildConfiguration = value(.buildConfiguration)
    host = value(.host)
    cpuModel = value(.cpuModel)
    cores = value(.cores)
    memoryBytes = value(.memoryBytes)
    kernel = value(.kernel)
    workdirFileSystem = value(.workdirFileSystem)
    scenarioName = value(.scenarioName)
    scenarioHash = value(.scenarioHash)
    startedAt = value(.startedAt)
    finishedAt = value(.finishedAt)
    warnings = value(.warnings)
    interrupted = value(.interrupted)
    counters = value(.counters)
    repetitionPolicyValues = value(.repetitionPolicyValues)
  }

  /// Seconds from start to finish (nil without both, or when they do not parse as ISO 8601 times).
  public var duration: Double? {
    let parser = ISO8601DateFormatter()
    guard let start = startedAt.flatMap(parser.date(from:)), let end = finishedAt.flatMap(parser.date(from:)) else {
      return nil
    }
    return end.timeIntervalSince(start)
  }

  /// Reads a run folder's environment.json (nil when it has none, or not a JSON object).
  public static func read(_ folder: URL) -> RunEnvironment? {
    read(FileManager.default.contents(atPath: folder.appendingPathComponent("environment.json").path))
  }

  /// Reads `data` (nil when it is not a JSON object).
  public static func read(_ data: Data?) -> RunEnvironment? {
    guard let data, (try? JSONSerialization.jsonObject(with: data)) is [String: Any] else { return nil }
    return try? JSONDecoder().decode(RunEnvironment.self, from: data)
  }

  /// The fields that make a JSON object a storebench run's environment.json (or a crash run's
  /// durability.environment.json: ``crashSchemaKeys``).
  public static let schemaKeys = ["storebench_version", "scenario_name", "scenario_hash", "started_at"]
  public static let crashSchemaKeys = ["storebench_version", "scenario_name", "fault", "trials", "started_at"]

  /// Whether `data` is a storebench run's environment.json: a JSON object whose ``schemaKeys`` are strings
  /// (`crash`: a crash run's durability.environment.json, ``crashSchemaKeys``). `{}` or another program's JSON is
  /// not.
  public static func isStoreBenchRun(_ data: Data, crash: Bool = false) -> Bool {
    guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return false }
    let keys = crash ? crashSchemaKeys : schemaKeys
    guard keys.allSatisfy({ object[$0] != nil }), let version = object["storebench_version"] as? String else {
      return false
    }
    return !version.isEmpty && (crash || keys.allSatisfy { object[$0] is String })
  }
}

/// Marks storebench puts in what it writes, by which its output funnel recognises its own files.
public enum OutputMarks {
  /// In a trend page's head: `history html --force` replaces a folder's index.html only when it carries this.
  public static let pageGenerator = "<meta name=generator content=storebench>"
  /// The head every trend page had before the mark: such a folder is recognised as storebench's too.
  public static let legacyPageHead = "<head><meta charset=utf-8><title>storebench history</title>"
  /// The output manifest's file name (``OutputManifest``): a folder holding one is a folder storebench recorded.
  public static let manifestFileName = ".storebench-manifest.json"
}
