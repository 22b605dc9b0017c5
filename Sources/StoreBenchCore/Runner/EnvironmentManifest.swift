import Foundation
import StoreBenchContract
import StoreBenchMeasure

#if canImport(Glibc)
  import Glibc
#endif

/// `environment.json`: everything needed to explain the numbers next to them — machine, software, settings,
/// data and scenario.
public struct EnvironmentManifest: Codable, Sendable {
  public struct DatasetRecord: Codable, Sendable {
    public var workload: String
    public var parameters: String
    public var fingerprint: String
  }

  public var storebenchVersion: String
  public var gitCommit: String
  public var buildConfiguration: String
  public var swiftVersion: String
  public var host: String
  public var cpuModel: String
  public var cores: Int
  public var memoryBytes: UInt64
  public var kernel: String
  public var workdir: String
  public var workdirFileSystem: String
  /// Library versions and build facts per backend library (e.g. `sqlite`, `sqlite_compile_options`).
  public var libraries: [String: String]
  public var seed: UInt64
  public var datasets: [DatasetRecord]
  public var scenarioName: String
  public var scenarioFile: String
  /// FNV-1a of the scenario file's bytes.
  public var scenarioHash: String
  public var commandLine: [String]
  /// How `max_rss_kib` was measured.
  public var peakMemoryMethod: String
  /// How the summary's interval of the median is computed.
  public var medianIntervalMethod = MedianInterval.method
  /// What the disk under the work directory cost at the least when the run began and ended.
  public var diskFloorsAtStart: DiskFloors?
  public var diskFloorsAtEnd: DiskFloors?
  /// The block device under the work directory: readahead, scheduler, mount options; the CPU governor.
  public var storage: StorageFacts?
  /// How many repetitions each row got, and why.
  public var repetitionPolicy = ""
  /// The same policy as numbers, for `report` and `compare` (which recompute intervals at the run's level).
  public var repetitionPolicyValues: PolicyValues?

  /// A repetition policy's values (its own coding keys: `min_repetitions`, `target_precision`, …) and its look
  /// schedule (`looks`, `look_alpha`), in one flat object.
  public struct PolicyValues: Codable, Sendable {
    public var policy: RepetitionPolicy
    public var looks: [Int]
    public var lookAlpha: Double

    public init(_ policy: RepetitionPolicy) {
      self.policy = policy
      looks = policy.schedule.looks
      lookAlpha = policy.schedule.alpha
    }

    enum CodingKeys: String, CodingKey {
      case looks
      case lookAlpha = "look_alpha"
    }

    public init(from decoder: any Decoder) throws {
      policy = try RepetitionPolicy(from: decoder)
      let container = try decoder.container(keyedBy: CodingKeys.self)
      looks = try container.decode([Int].self, forKey: .looks)
      lookAlpha = try container.decode(Double.self, forKey: .lookAlpha)
    }

    public func encode(to encoder: any Encoder) throws {
      try policy.encode(to: encoder)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(looks, forKey: .looks)
      try container.encode(lookAlpha, forKey: .lookAlpha)
    }
  }
  public var warnings: [String]
  /// Set when a signal stopped the run: which, and how many cases had finished.
  public var interrupted: String?
  /// The run directory whose interrupted run this one continued.
  public var resumedFrom: String?
  /// What `storebench run --resume` repeats.
  public var invocation: RunRequest?
  /// FNV-1a of the storebench executable's bytes.
  public var binaryHash = ""
  /// The counted costs: the file system they were counted on, how syncs were counted, and why any cost was not
  /// (its cells are empty). Nil in runs from before counting.
  public var counters: CostCounters.Availability?
  public var startedAt: String
  public var finishedAt: String

  enum CodingKeys: String, CodingKey {
    case storebenchVersion = "storebench_version"
    case gitCommit = "git_commit"
    case
      buildConfiguration = "build_configuration"
    case swiftVersion = "swift_version"
    case host
    case cpuModel = "cpu_model"
    case
      cores
    case memoryBytes = "memory_bytes"
    case kernel, workdir
    case workdirFileSystem = "workdir_filesystem"
    case
      libraries, seed, datasets
    case scenarioName = "scenario_name"
    case scenarioFile = "scenario_file"
    case
      scenarioHash = "scenario_hash"
    case commandLine = "command_line"
    case peakMemoryMethod = "peak_memory_method"
    case
      medianIntervalMethod = "median_interval_method"
    case diskFloorsAtStart = "disk_floors_at_start"
    case
      diskFloorsAtEnd = "disk_floors_at_end"
    case storage
    case repetitionPolicy = "repetition_policy"
    case
      repetitionPolicyValues = "repetition_policy_values"
    case
      warnings, interrupted
    case resumedFrom = "resumed_from"
    case invocation
    case binaryHash = "binary_hash"
    case counters
    case
      startedAt = "started_at"
    case finishedAt = "finished_at"
  }

  public func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self) + Data("\n".utf8)
  }
}
