/// An integer parameter of a workload, with its allowed range.
public struct WorkloadParameter: Sendable {
    public let name: String
    public let range: ClosedRange<Int>
    public let defaultValue: Int
    public let summary: String

    public init(_ name: String, default defaultValue: Int, range: ClosedRange<Int>, summary: String) {
        self.name = name
        self.range = range
        self.defaultValue = defaultValue
        self.summary = summary
    }
}

/// Concrete parameter values for one workload case.
public struct WorkloadParameters: Hashable, Sendable, CustomStringConvertible {
    public private(set) var values: [String: Int]

    public init(_ values: [String: Int]) { self.values = values }

    public subscript(name: String) -> Int {
        get {
            guard let value = values[name] else { preconditionFailure("no workload parameter \(name)") }
            return value
        }
        set { values[name] = newValue }
    }

    /// `count=10000 stored=20000`, keys sorted.
    public var description: String {
        values.keys.sorted().map { "\($0)=\(values[$0]!)" }.joined(separator: " ")
    }
}

/// How a repetition opens the store under test (a fresh `Store` each call, same directory and variant), and
/// how a launch workload starts a fresh process on it.
public struct StoreOpener {
    public let open: () throws -> any Store
    public let launch: LaunchTarget?
    public init(launch: LaunchTarget? = nil, open: @escaping () throws -> any Store) {
        self.open = open
        self.launch = launch
    }
}

/// A job an app does with its store, in three phases per repetition:
/// **prepare** (untimed: fill a fresh store), **measure** (timed: only the operation),
/// **verify** (untimed: prove the work happened, by counts and checksums).
///
/// Workloads generate their data once per parameter set (``makeData(_:generator:)``); every backend and
/// repetition then works on that same data.
public protocol Workload: Sendable {
    /// The name used in scenarios and reports (`insert`, `mark-read`, …).
    var name: String { get }
    /// One line for `storebench list`.
    var summary: String { get }
    var parameters: [WorkloadParameter] { get }
    /// The parameter reported as a row's `size`.
    var sizeParameter: String { get }
    /// Checks relations between parameters (each is already within its range); throws a message.
    func validate(_ parameters: WorkloadParameters) throws
    /// Generates the workload's data for one parameter set.
    func makeData(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadData
    /// False for workloads that use no store (e.g. `process-spawn`): they run once, not once per backend.
    var requiresStore: Bool { get }
}

extension Workload {
    public var requiresStore: Bool { true }

    public func validate(_ parameters: WorkloadParameters) throws {}

    /// The default parameter values.
    public var defaultParameters: WorkloadParameters {
        WorkloadParameters(Dictionary(uniqueKeysWithValues: parameters.map { ($0.name, $0.defaultValue) }))
    }
}

/// A workload's generated data, shared by all repetitions of all backends for one parameter set.
public protocol WorkloadData: AnyObject {
    /// FNV-1a fingerprint of the generated data (recorded in the report).
    var fingerprint: String { get }
    /// A fresh repetition working on a fresh store.
    func makeRepetition(opener: StoreOpener) -> any WorkloadRepetition
}

/// One repetition of a workload on one store.
public protocol WorkloadRepetition: AnyObject {
    /// Untimed: open and fill the store.
    func prepare() throws
    /// Timed: the operation alone. Returns the number of app operations done (for ops/s).
    /// No logging, formatting or harness allocation here.
    func measure() throws -> Int
    /// Untimed: check the store holds exactly what the operation should have produced.
    /// Returns the checksum of what was verified; throws ``VerificationError`` on a mismatch.
    func verify() throws -> String
    /// Closes whatever store is still open. Called once at the end, also after failures.
    func finish()
    /// Per-operation latencies of the last ``measure()``, for workloads made of many operations.
    var latencies: LatencyRecorder? { get }
    /// Extra report cells by column (``Sample/noteColumns``), e.g. `resident_pages`.
    var notes: [String: String] { get }
}

extension WorkloadRepetition {
    public var latencies: LatencyRecorder? { nil }
    public var notes: [String: String] { [:] }
}

/// The store's content after the operation is not what it should be.
public struct VerificationError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { "verification failed: \(message)" }
}

/// Closes a store, ignoring errors, for clean-up paths.
func closeQuietly(_ store: (any Store)?) {
    try? store?.close()
}

/// Workload parameters that are each in range but do not fit together.
public struct ParameterError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
