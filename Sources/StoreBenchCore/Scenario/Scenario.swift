/// A validated run plan read from a scenario file: which backends (with variants) run which workloads
/// (with parameters), how often, and from which seed.
public struct Scenario: Sendable {
    /// A backend variant to run.
    public struct BackendEntry: Sendable {
        public let backend: String
        public let variant: Variant
        /// Upper limits of workload parameters for this entry, by workload then parameter
        /// (`limits: {insert: {count: 1000}}`): for variants that would take minutes at full size, e.g. one
        /// fsync per record. A limit lowers a parameter, never raises it.
        public let limits: [String: [String: Int]]
    }

    /// A workload with one parameter set per size.
    public struct WorkloadEntry: Sendable {
        public let workload: String
        public let cases: [WorkloadParameters]
    }

    public var name: String
    public var seed: UInt64
    /// Warm-ups and how many measured repetitions each case gets.
    public var policy: RepetitionPolicy
    public var backends: [BackendEntry]
    public var workloads: [WorkloadEntry]
    /// The file it came from and the FNV-1a hash of its bytes.
    public var file: String
    public var fileHash: String

    /// Keeps only the named backends and workloads (command-line filters). Throws for names that select nothing.
    public func narrowed(backends backendNames: [String], workloads workloadNames: [String]) throws -> Scenario {
        var copy = self
        if !backendNames.isEmpty {
            for name in backendNames where !backends.contains(where: { $0.backend == name }) {
                let present = Set(backends.map(\.backend)).sorted().joined(separator: ", ")
                throw ScenarioError(file: file, path: "--backend",
                                    message: "'\(name)' is not in this scenario; it has: \(present)")
            }
            copy.backends = backends.filter { backendNames.contains($0.backend) }
        }
        if !workloadNames.isEmpty {
            for name in workloadNames where !workloads.contains(where: { $0.workload == name }) {
                let present = workloads.map(\.workload).joined(separator: ", ")
                throw ScenarioError(file: file, path: "--workload",
                                    message: "'\(name)' is not in this scenario; it has: \(present)")
            }
            copy.workloads = workloads.filter { workloadNames.contains($0.workload) }
        }
        return copy
    }
}

/// A scenario that cannot be run, with the file, the key and what is allowed.
public struct ScenarioError: Error, CustomStringConvertible, Equatable {
    public let file: String
    /// The key path, e.g. `backends[1].variants[0].txn`; empty for the whole file.
    public let path: String
    public let message: String

    public init(file: String, path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)" }
}
