import Foundation
import StoreBenchAnalysis
import StoreBenchContract

/// A finished run directory read whole for the history: its identity (commit, machine, scenario, datasets, library
/// versions, repetition policy), every summary and sample row with its own column table, and the crash results
/// beside it. Nothing is dropped, so any statistic can be recomputed from the history later.
public struct RunRecord: Sendable {
    /// Who and where: what decides which runs may be compared.
    public struct Identity: Sendable, Equatable {
        /// The commit without the `+dirty` mark.
        public var commit: String
        public var dirty: Bool
        public var branch: String?
        /// When the commit was made (seconds since 1970), when git knows the commit; nil otherwise.
        public var commitTime: Double?
        public var startedAt: String
        public var finishedAt: String?
        public var host: String
        public var cpuModel: String
        public var cores: Int
        public var memoryBytes: Int64
        public var kernel: String
        public var fileSystem: String
        public var scenarioName: String
        public var scenarioHash: String
        /// JSON objects as the run wrote them.
        public var libraries: String
        public var repetitionPolicy: String

        /// The name the user gave the machine (`history add --machine`), when one was given.
        public var machineName: String?

        /// The machine key: runs are compared only on the same host, CPU, core count, memory, kernel and file system,
        /// or — when the user named the machine — on the same name (`name:` and the name), whatever the host.
        public var machine: String {
            if let machineName { return HistoryRun.namedMachinePrefix + machineName }
            var hash = FNV1a()
            for part in [host, cpuModel, String(cores), String(memoryBytes), kernel, fileSystem] { hash.combine(part) }
            return hash.hex
        }

        /// Throws unless `name` can name a machine: 1–100 characters, no control characters.
        public static func validateMachineName(_ name: String) throws {
            guard !name.trimmingCharacters(in: .whitespaces).isEmpty, name.count <= 100,
                  !name.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
                throw HistoryError(.badArgument, "machine name \(name.debugDescription): give 1 to 100 characters, no control characters")
            }
        }
    }

    /// One CSV row: its cells by column name (the run's own column table).
    public typealias Cells = [String: String]

    public var identity: Identity
    /// A fingerprint of the run's files: the same run added twice has the same one.
    public var fingerprint: String
    public var source: String
    public var environmentJSON: String
    public var summaryColumns: [String]
    public var summary: [Cells]
    public var sampleColumns: [String]
    public var samples: [Cells]
    /// durability.csv beside the run, when a crash step wrote one.
    public var durability: [Cells]
    /// classes.csv beside the run (the report's durability classes), when present.
    public var classes: [Cells]
    /// Why the run is partial (interrupted, failed rows), or nil when it is complete.
    public var partialReason: String?

    /// Reads `directory`. `commitTime` answers when a commit was made (git, when the repository has it); `machineName`
    /// names the machine (the series key) in place of its host, CPU, cores, memory, kernel and file system.
    public init(directory: String, machineName: String? = nil, commitTime: (String) -> Double? = { _ in nil },
                branch: (String) -> String? = { _ in nil }) throws {
        if let machineName { try Identity.validateMachineName(machineName) }
        let url = URL(fileURLWithPath: directory)
        func read(_ name: String, required: Bool) throws -> Data? {
            let file = url.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: file.path) else {
                if required { throw HistoryError(.notARun, "\(file.path): missing (not a finished storebench run directory?)") }
                return nil
            }
            return data
        }
        guard let environmentData = try read("environment.json", required: true),
              let environment = (try? JSONSerialization.jsonObject(with: environmentData)) as? [String: Any]
        else { throw HistoryError(.notARun, "\(directory)/environment.json: not a JSON object") }
        func table(_ name: String, required: Bool) throws -> (header: [String], rows: [Cells]) {
            guard let data = try read(name, required: required) else { return ([], []) }
            guard let text = String(data: data, encoding: .utf8) else {
                throw HistoryError(.notARun, "\(directory)/\(name): not UTF-8 text")
            }
            do {
                let (header, rows) = try CSVFormat.decode(text)
                return (header, rows.map { Dictionary(zip(header, $0).map { ($0, $1) }) { first, _ in first } })
            } catch {
                throw HistoryError(.notARun, "\(directory)/\(name): \(error)")
            }
        }
        let summary = try table("summary.csv", required: true)
        let samples = try table("samples.csv", required: true)
        for column in ["workload", "backend", "variant", "size", "status", "n", "median_s"] where !summary.header.contains(column) {
            throw HistoryError(.notARun, "\(directory)/summary.csv: not a storebench summary (no \(column) column)")
        }
        func string(_ key: String) -> String { (environment[key] as? String) ?? "unknown" }
        func json(_ key: String) -> String {
            guard let value = environment[key], JSONSerialization.isValidJSONObject(value),
                  let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else { return "{}" }
            return String(decoding: data, as: UTF8.self)
        }
        let commitText = string("git_commit")
        let commit = commitText.hasSuffix("+dirty") ? String(commitText.dropLast(6)) : commitText
        identity = Identity(
            commit: commit, dirty: commitText.hasSuffix("+dirty"),
            branch: (environment["git_branch"] as? String) ?? branch(commit),
            commitTime: commitTime(commit), startedAt: string("started_at"),
            finishedAt: environment["finished_at"] as? String, host: string("host"), cpuModel: string("cpu_model"),
            cores: environment["cores"] as? Int ?? 0, memoryBytes: (environment["memory_bytes"] as? NSNumber)?.int64Value ?? 0,
            kernel: string("kernel"), fileSystem: string("workdir_filesystem"),
            scenarioName: string("scenario_name"), scenarioHash: string("scenario_hash"),
            libraries: json("libraries"), repetitionPolicy: json("repetition_policy_values"), machineName: machineName)
        self.source = url.standardizedFileURL.path
        environmentJSON = String(decoding: environmentData, as: UTF8.self)
        summaryColumns = summary.header
        self.summary = summary.rows
        sampleColumns = samples.header
        self.samples = samples.rows
        durability = try table("durability.csv", required: false).rows
        classes = try table("classes.csv", required: false).rows

        var fingerprint = FNV1a()
        for name in ["environment.json", "summary.csv", "samples.csv"] {
            fingerprint.combine(bytes: (try read(name, required: true)) ?? Data())
            fingerprint.combine(name)
        }
        self.fingerprint = fingerprint.hex

        var reasons: [String] = []
        if let interrupted = environment["interrupted"] as? String { reasons.append("interrupted (\(interrupted))") }
        let failed = summary.rows.filter { $0["status"] == "failed" }
        if !failed.isEmpty {
            let names = failed.prefix(3).map { "\($0["workload"] ?? "?")/\($0["backend"] ?? "?") [\($0["variant"] ?? "?")]" }
            reasons.append("\(failed.count) failed row(s): " + names.joined(separator: "; ") + (failed.count > 3 ? "; …" : ""))
        }
        if summary.rows.isEmpty { reasons.append("no rows") }
        partialReason = reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }

    /// The dataset fingerprint of each summary row (its samples' `dataset` cell, the same for every repetition), by
    /// ``rowKey(_:)``.
    public var datasets: [String: String] {
        var result: [String: String] = [:]
        for sample in samples where result[Self.rowKey(sample)] == nil { result[Self.rowKey(sample)] = sample["dataset"] ?? "" }
        return result
    }

    /// What joins a summary row to its samples: workload, backend, variant, size and parameters.
    public static func rowKey(_ cells: Cells) -> String {
        ["workload", "backend", "variant", "size", "parameters"].map { cells[$0] ?? "" }.joined(separator: "\u{1F}")
    }
}
