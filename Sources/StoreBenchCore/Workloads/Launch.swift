#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What a launch workload needs to start a fresh `storebench launch` process on a store.
public struct LaunchTarget: Sendable {
    /// The storebench executable; nil when unknown (the launch workloads are then unsupported).
    public let executable: URL?
    public let backend: String
    public let variant: Variant
    public let directory: URL
    /// Whether the backend's data survives its process (the memory backend's does not).
    public let persistent: Bool

    public init(executable: URL?, backend: String, variant: Variant, directory: URL, persistent: Bool) {
        self.executable = executable
        self.backend = backend
        self.variant = variant
        self.directory = directory
        self.persistent = persistent
    }
}

/// The JSON line a `storebench launch` child prints when its first screen is in memory.
public struct LaunchReport: Codable, Sendable {
    /// Open → first screen in memory, measured by the child (ns); 0 for an empty launch.
    public var readyNanoseconds: UInt64
    /// `/proc/self/io` read_bytes of the child from before the open to ready (nil where unavailable).
    public var readBytes: Int64?
    public var checksum: String
    public var settings: String

    public init(readyNanoseconds: UInt64, readBytes: Int64?, checksum: String, settings: String) {
        self.readyNanoseconds = readyNanoseconds
        self.readBytes = readBytes
        self.checksum = checksum
        self.settings = settings
    }

    /// Runs in the child: opens the store, loads the first screen, and measures both.
    public static func loadFirstScreen(descriptor: BackendDescriptor, directory: URL, variant: Variant,
                                       screen: Int) throws -> LaunchReport {
        try measure(descriptor: descriptor, directory: directory, variant: variant,
                    { try $0.loadTimeline(limit: screen) }, checksum: Checksum.timeline)
    }

    /// Runs in the child: times open → `work` done (and the disk reads meanwhile); the checksum of what the work
    /// returned is taken after the clock stopped.
    static func measure<Result>(descriptor: BackendDescriptor, directory: URL, variant: Variant,
                                _ work: (any Store) throws -> Result, checksum: (Result) -> String) throws -> LaunchReport {
        let ioBefore = ProcessIO.now()
        let start = monotonicNanoseconds()
        let store = try descriptor.open(StoreLocation(directory: directory, variant: variant))
        defer { try? store.close() }
        let result = try work(store)
        let ready = monotonicNanoseconds()
        let io = ProcessIO.delta(ioBefore, ProcessIO.now())
        return LaunchReport(readyNanoseconds: ready - start, readBytes: io.readBytes, checksum: checksum(result),
                            settings: store.effectiveSettings)
    }
}

/// The lifecycle shared by the launch workloads: a child prepared in ``prepareChild(_:)``, launched in the timed
/// ``measure()``, and its report collected in ``collectReport()``.
class LaunchingRepetition {
    let opener: StoreOpener
    var notes: [String: String] = [:]
    private var child: ChildProcess?
    private var firstLine: String?

    init(opener: StoreOpener) { self.opener = opener }

    /// The launch target, when there is an executable to launch; otherwise the row is unsupported.
    func launchTarget() throws -> (target: LaunchTarget, executable: URL) {
        guard let target = opener.launch, let executable = target.executable else {
            throw StoreError.unsupported("no storebench executable to launch (run through the storebench binary)")
        }
        return (target, executable)
    }

    /// The launch target of a backend whose data survives its process; otherwise the row is unsupported.
    func persistentLaunchTarget(unsupported reason: String) throws -> LaunchTarget {
        guard opener.launch?.persistent ?? false else { throw StoreError.unsupported(reason) }
        return try launchTarget().target
    }

    /// Untimed: makes the child ready to spawn with `arguments`.
    func prepareChild(_ arguments: [String]) throws {
        child = try ChildProcess(executable: try launchTarget().executable, arguments: arguments)
    }

    /// Untimed: makes a `storebench launch` child on `target`'s store ready, `arguments` naming its task.
    func prepareLaunch(of target: LaunchTarget, _ arguments: [String]) throws {
        try prepareChild(["launch", "--backend", target.backend, "--settings", target.variant.description,
                          "--directory", target.directory.path] + arguments)
    }

    /// Timed: spawn → ready (the child's first line).
    func measure() throws -> Int {
        try child!.spawn()
        firstLine = child!.firstLine()
        return 1
    }

    /// Untimed: waits for the child's exit and decodes its report (its standard error explains a failure).
    func collectReport() throws -> LaunchReport {
        guard let child else { throw VerificationError("no child was launched") }
        defer { self.child = nil }
        let outcome = child.wait()
        guard !outcome.killedBySignal, outcome.exitCode == 0, let firstLine,
              let report = try? JSONDecoder().decode(LaunchReport.self, from: Data(firstLine.utf8))
        else {
            throw VerificationError("launch child \(outcome.how): \(outcome.errors)")
        }
        notes["child_ready_s"] = CSVFormat.seconds(Double(report.readyNanoseconds) / 1e9)
        notes["child_read_bytes"] = CSVFormat.integer(report.readBytes)
        return report
    }

    func finish() { child = nil }
}
