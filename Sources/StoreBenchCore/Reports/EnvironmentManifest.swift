#if canImport(Glibc)
import Glibc
#endif
import Foundation

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
    public var warnings: [String]
    public var startedAt: String
    public var finishedAt: String

    enum CodingKeys: String, CodingKey {
        case storebenchVersion = "storebench_version", gitCommit = "git_commit",
             buildConfiguration = "build_configuration", swiftVersion = "swift_version", host, cpuModel = "cpu_model",
             cores, memoryBytes = "memory_bytes", kernel, workdir, workdirFileSystem = "workdir_filesystem",
             libraries, seed, datasets, scenarioName = "scenario_name", scenarioFile = "scenario_file",
             scenarioHash = "scenario_hash", commandLine = "command_line", peakMemoryMethod = "peak_memory_method",
             warnings, startedAt = "started_at", finishedAt = "finished_at"
    }

    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}

/// Facts about this machine and build.
public enum MachineFacts {
    public static var buildConfiguration: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    public static var hostName: String { ProcessInfo.processInfo.hostName }

    public static var kernel: String {
        var info = utsname()
        uname(&info)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return "\(field(info.sysname)) \(field(info.release)) \(field(info.machine))"
    }

    /// The compiler that built this binary, to the minor version (the language has no finer compile-time test),
    /// plus `swift --version` of the toolchain on PATH when there is one.
    public static var swiftVersion: String {
        #if compiler(>=6.4)
        let compiled = "6.4 or later"
        #elseif compiler(>=6.3)
        let compiled = "6.3"
        #elseif compiler(>=6.2)
        let compiled = "6.2"
        #else
        let compiled = "6.0–6.1"
        #endif
        let toolchain = run(["swift", "--version"])?.split(separator: "\n").first.map(String.init)
        return "compiler \(compiled)" + (toolchain.map { "; toolchain on PATH: \($0)" } ?? "")
    }

    /// The git commit of the source tree this binary was built from ("+dirty" when it has local changes).
    public static func gitCommit(sourceFile: String = #filePath) -> String {
        let directory = URL(fileURLWithPath: sourceFile).deletingLastPathComponent().path
        guard let commit = run(["git", "-C", directory, "rev-parse", "HEAD"])?
            .trimmingCharacters(in: .whitespacesAndNewlines), !commit.isEmpty
        else { return "unknown" }
        let dirty = run(["git", "-C", directory, "status", "--porcelain", "--untracked-files=no"]) ?? ""
        return dirty.isEmpty ? commit : commit + "+dirty"
    }

    /// Runs a tool found on PATH and returns its standard output, or nil when it is missing or fails.
    static func run(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// An ISO 8601 UTC timestamp.
    public static func timestamp(_ date: Date = Date()) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
