import Foundation
import StoreBenchMeasure

/// A run's `environment.json`, the one schema its writer (the runner, StoreBenchCore) encodes and every reader
/// decodes: machine, software, settings, data and scenario — everything needed to explain the numbers beside it.
///
/// Every field is optional: a run from an older storebench lacks some, and decoding is lenient (a key that is
/// missing or of another type reads as nil), so an old file stays readable. Recognising a run folder goes through
/// ``isStoreBenchRun(_:crash:)``: a JSON object with storebench's schema fields, not merely JSON. Readers use these
/// fields, never the keys' spelling. The runner adds one key of its own beside these, `invocation` (what
/// `run --resume` repeats, in Core's terms).
public struct RunEnvironment: Codable, Sendable {
  public var storebenchVersion: String?
  public var gitCommit: String?
  public var buildConfiguration: String?
  public var swiftVersion: String?
  public var host: String?
  public var cpuModel: String?
  public var cores: Int?
  public var memoryBytes: Int64?
  public var kernel: String?
  public var workdir: String?
  public var workdirFileSystem: String?
  /// Library versions and build facts per backend library (e.g. `sqlite`, `sqlite_compile_options`).
  public var libraries: [String: String]?
  public var seed: UInt64?
  public var datasets: [DatasetRecord]?
  public var scenarioName: String?
  public var scenarioFile: String?
  /// FNV-1a of the scenario file's bytes.
  public var scenarioHash: String?
  public var commandLine: [String]?
  /// How `max_rss_kib` was measured.
  public var peakMemoryMethod: String?
  /// How the summary's interval of the median is computed.
  public var medianIntervalMethod: String?
  /// What the disk under the work directory cost at the least when the run began and ended.
  public var diskFloorsAtStart: DiskFloors?
  public var diskFloorsAtEnd: DiskFloors?
  /// The block device under the work directory: readahead, scheduler, mount options; the CPU governor.
  public var storage: StorageFacts?
  /// How many repetitions each row got, and why.
  public var repetitionPolicy: String?
  /// The same policy as numbers, for `report` and `compare` (which recompute intervals at the run's level).
  public var repetitionPolicyValues: PolicyValues?
  public var warnings: [String]?
  /// Set when a signal stopped the run: which, and how many cases had finished.
  public var interrupted: String?
  /// The run directory whose interrupted run this one continued.
  public var resumedFrom: String?
  /// FNV-1a of the storebench executable's bytes.
  public var binaryHash: String?
  /// How the run counted its costs: the file system, how syncs were counted, why any cost was not (nil: a run
  /// from before counting).
  public var counters: CostCounters.Availability?
  /// Seconds the counting passes took (`run --count`), part of the run's ``duration``; nil: none ran.
  public var countingSeconds: Double?
  public var startedAt: String?
  public var finishedAt: String?

  /// One workload's generated data: its parameters and the fingerprint of what was generated.
  public struct DatasetRecord: Codable, Sendable {
    public var workload: String
    public var parameters: String
    public var fingerprint: String

    public init(workload: String, parameters: String, fingerprint: String) {
      (self.workload, self.parameters, self.fingerprint) = (workload, parameters, fingerprint)
    }
  }

  /// The repetition policy's values (the scenario's keys: `min_repetitions`, `target_precision`, …) and its look
  /// schedule (`looks`, `look_alpha`), in one flat object.
  public struct PolicyValues: Codable, Sendable {
    public var warmup: Int?
    public var minimum: Int?
    /// `max_repetitions`: the answers' last look (``SampleTable/answerRule(margin:)``).
    public var maximum: Int?
    public var targetPrecision: Double?
    public var caseSeconds: Double?
    public var budgetSeconds: Double?
    /// What ends a case early: `precision` or `answer`.
    public var stop: String?
    public var looks: [Int]?
    public var lookAlpha: Double?

    public init() {}

    enum CodingKeys: String, CodingKey {
      case warmup, stop, looks
      case minimum = "min_repetitions"
      case maximum = "max_repetitions"
      case targetPrecision = "target_precision"
      case caseSeconds = "case_seconds"
      case budgetSeconds = "budget_seconds"
      case lookAlpha = "look_alpha"
    }
  }

  enum CodingKeys: String, CodingKey {
    case host, cores, kernel, workdir, libraries, seed, datasets, storage, warnings, interrupted, counters
    case storebenchVersion = "storebench_version"
    case gitCommit = "git_commit"
    case buildConfiguration = "build_configuration"
    case swiftVersion = "swift_version"
    case cpuModel = "cpu_model"
    case memoryBytes = "memory_bytes"
    case workdirFileSystem = "workdir_filesystem"
    case scenarioName = "scenario_name"
    case scenarioFile = "scenario_file"
    case scenarioHash = "scenario_hash"
    case commandLine = "command_line"
    case peakMemoryMethod = "peak_memory_method"
    case medianIntervalMethod = "median_interval_method"
    case diskFloorsAtStart = "disk_floors_at_start"
    case diskFloorsAtEnd = "disk_floors_at_end"
    case repetitionPolicy = "repetition_policy"
    case repetitionPolicyValues = "repetition_policy_values"
    case resumedFrom = "resumed_from"
    case binaryHash = "binary_hash"
    case countingSeconds = "counting_seconds"
    case startedAt = "started_at"
    case finishedAt = "finished_at"
  }

  public init() {}

  /// Lenient: a key that is missing or of another type reads as nil (an older run's file stays readable).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func value<T: Decodable>(_ key: CodingKeys) -> T? {
      (try? container.decodeIfPresent(T.self, forKey: key)) ?? nil
    }
    (storebenchVersion, gitCommit, buildConfiguration) = (
      value(.storebenchVersion), value(.gitCommit), value(.buildConfiguration)
    )
    (swiftVersion, host, cpuModel, cores) = (value(.swiftVersion), value(.host), value(.cpuModel), value(.cores))
    (memoryBytes, kernel, workdir) = (value(.memoryBytes), value(.kernel), value(.workdir))
    (workdirFileSystem, libraries, seed) = (value(.workdirFileSystem), value(.libraries), value(.seed))
    (datasets, scenarioName, scenarioFile) = (value(.datasets), value(.scenarioName), value(.scenarioFile))
    (scenarioHash, commandLine) = (value(.scenarioHash), value(.commandLine))
    (peakMemoryMethod, medianIntervalMethod) = (value(.peakMemoryMethod), value(.medianIntervalMethod))
    (diskFloorsAtStart, diskFloorsAtEnd, storage) = (
      value(.diskFloorsAtStart), value(.diskFloorsAtEnd), value(.storage)
    )
    (repetitionPolicy, repetitionPolicyValues) = (value(.repetitionPolicy), value(.repetitionPolicyValues))
    (warnings, interrupted, resumedFrom) = (value(.warnings), value(.interrupted), value(.resumedFrom))
    (binaryHash, counters, countingSeconds) = (value(.binaryHash), value(.counters), value(.countingSeconds))
    (startedAt, finishedAt) = (value(.startedAt), value(.finishedAt))
  }

  /// The file's bytes as the runner writes them: sorted keys, pretty-printed, a final newline; `extra` encodes
  /// keys of the writer's own into the same object (the runner's `invocation`).
  public func encoded(adding extra: @escaping (any Encoder) throws -> Void = { _ in }) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(Flat(environment: self, extra: extra)) + Data("\n".utf8)
  }

  /// This value and the writer's own keys in one JSON object.
  private struct Flat: Encodable {
    let environment: RunEnvironment
    let extra: (any Encoder) throws -> Void

    func encode(to encoder: any Encoder) throws {
      try environment.encode(to: encoder)
      try extra(encoder)
    }
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
