import Foundation

/// What readers take from a run's `environment.json`, typed: the keys `EnvironmentManifest` (StoreBenchCore, the
/// writer) encodes under the same names — a test encodes a manifest and decodes it as this type. Recognising a run
/// folder goes through ``isStoreBenchRun(_:)``: a JSON object with storebench's schema fields, not merely JSON.
public struct RunEnvironment: Decodable, Sendable {
    public var storebenchVersion: String
    public var gitCommit: String?
    public var buildConfiguration: String?
    public var host: String?
    public var cpuModel: String?
    public var cores: Int?
    public var memoryBytes: Int64?
    public var kernel: String?
    public var workdirFileSystem: String?
    public var scenarioName: String
    public var scenarioHash: String
    public var startedAt: String
    public var finishedAt: String?
    public var warnings: [String]?
    /// Set when a signal stopped the run.
    public var interrupted: String?

    enum CodingKeys: String, CodingKey {
        case storebenchVersion = "storebench_version", gitCommit = "git_commit", buildConfiguration = "build_configuration",
             host, cpuModel = "cpu_model", cores, memoryBytes = "memory_bytes", kernel,
             workdirFileSystem = "workdir_filesystem", scenarioName = "scenario_name", scenarioHash = "scenario_hash",
             startedAt = "started_at", finishedAt = "finished_at", warnings, interrupted
    }

    /// The fields that make a JSON object a storebench run's environment.json (or a crash run's
    /// durability.environment.json: ``crashSchemaKeys``).
    public static let schemaKeys = ["storebench_version", "scenario_name", "scenario_hash", "started_at"]
    public static let crashSchemaKeys = ["storebench_version", "scenario_name", "fault", "trials", "started_at"]

    /// Whether `data` is a storebench run's environment.json: a JSON object whose ``schemaKeys`` are strings
    /// (`crash`: a crash run's durability.environment.json, ``crashSchemaKeys``). `{}` or another program's JSON is not.
    public static func isStoreBenchRun(_ data: Data, crash: Bool = false) -> Bool {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return false }
        let keys = crash ? crashSchemaKeys : schemaKeys
        guard keys.allSatisfy({ object[$0] != nil }), let version = object["storebench_version"] as? String else { return false }
        return !version.isEmpty && (crash || keys.allSatisfy { object[$0] is String })
    }
}

/// Marks storebench puts in what it writes, by which its output funnel recognises its own files.
public enum OutputMarks {
    /// In a trend page's head: `history html --force` replaces a folder's index.html only when it carries this.
    public static let pageGenerator = "<meta name=generator content=storebench>"
    /// The head every trend page had before the mark: such a folder is recognised as storebench's too.
    public static let legacyPageHead = "<head><meta charset=utf-8><title>storebench history</title>"
}
