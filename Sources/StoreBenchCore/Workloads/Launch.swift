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
        let ioBefore = ProcessIO.now()
        let start = monotonicNanoseconds()
        let store = try descriptor.open(StoreLocation(directory: directory, variant: variant))
        let loaded = try store.loadTimeline(limit: screen)
        let ready = monotonicNanoseconds()
        let io = ProcessIO.delta(ioBefore, ProcessIO.now())
        defer { try? store.close() }
        return LaunchReport(readyNanoseconds: ready - start, readBytes: io.readBytes,
                            checksum: Checksum.timeline(loaded), settings: store.effectiveSettings)
    }
}

/// A child process prepared for a timed launch: pipes, arguments and environment are made beforehand
/// (untimed); ``spawnUntilReady()`` is the timed part (spawn → the child's first output line, its "ready");
/// ``finish()`` (untimed) reads its errors, waits for its exit and decodes its report.
///
/// Started with `posix_spawn`, not Foundation's `Process`: on this platform that added ≈50 ms to some launches
/// (bimodal 13 / 63 ms for the same child), which would be measured as the store's launch cost.
final class ChildProcess {
    private let path: String
    private let argv: [UnsafeMutablePointer<CChar>?]
    private let environment: [UnsafeMutablePointer<CChar>?]
    private let actions = UnsafeMutablePointer<posix_spawn_file_actions_t>.allocate(capacity: 1)
    private var output: [Int32] = [-1, -1]
    private var errors: [Int32] = [-1, -1]
    private var pid: pid_t = 0
    private var line: String?

    init(executable: URL, arguments: [String]) throws {
        path = executable.path
        argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        posix_spawn_file_actions_init(actions)
        guard pipe(&output) == 0, pipe(&errors) == 0 else {
            throw StoreError.inconsistent("pipe failed: \(String(cString: strerror(errno)))")
        }
        posix_spawn_file_actions_adddup2(actions, output[1], 1)
        posix_spawn_file_actions_adddup2(actions, errors[1], 2)
        for fd in output + errors { posix_spawn_file_actions_addclose(actions, fd) }
    }

    deinit {
        for fd in output + errors where fd >= 0 { close(fd) }
        if pid > 0 { waitpid(pid, nil, 0) }
        posix_spawn_file_actions_destroy(actions)
        actions.deallocate()
        (argv + environment).forEach { free($0) }
    }

    /// Timed: spawns the child and returns when its first line has arrived.
    func spawnUntilReady() throws {
        let rc = posix_spawn(&pid, path, actions, nil, argv, environment)
        guard rc == 0 else {
            pid = 0
            throw StoreError.inconsistent("posix_spawn \(path) failed: \(String(cString: strerror(rc)))")
        }
        close(output[1])
        close(errors[1])
        output[1] = -1
        errors[1] = -1
        line = Self.readLine(output[0])
    }

    /// Untimed: waits for the child's exit and decodes its report (its standard error explains a failure).
    func finish() throws -> LaunchReport {
        let errorText = Self.readAll(errors[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        pid = 0
        let exited = status & 0x7F == 0, exitCode = (status >> 8) & 0xFF
        guard exited, exitCode == 0, let line,
              let report = try? JSONDecoder().decode(LaunchReport.self, from: Data(line.utf8))
        else {
            let how = exited ? "exited \(exitCode)" : "was killed by signal \(status & 0x7F)"
            throw VerificationError("launch child \(how): " + errorText.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return report
    }

    /// Reads everything until end of file.
    static func readAll(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads up to the first newline (or end of file).
    static func readLine(_ fd: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}

/// The lifecycle shared by the launch workloads: a child prepared in ``prepareChild(_:)``, launched in the timed
/// ``measure()``, and its report collected in ``collectReport()``.
class LaunchingRepetition {
    let opener: StoreOpener
    var notes: [String: String] = [:]
    private var child: ChildProcess?

    init(opener: StoreOpener) { self.opener = opener }

    /// The launch target, when there is an executable to launch; otherwise the row is unsupported.
    func launchTarget() throws -> (target: LaunchTarget, executable: URL) {
        guard let target = opener.launch, let executable = target.executable else {
            throw StoreError.unsupported("no storebench executable to launch (run through the storebench binary)")
        }
        return (target, executable)
    }

    /// Untimed: makes the child ready to spawn with `arguments`.
    func prepareChild(_ arguments: [String]) throws {
        child = try ChildProcess(executable: try launchTarget().executable, arguments: arguments)
    }

    /// Timed: spawn → ready.
    func measure() throws -> Int {
        try child!.spawnUntilReady()
        return 1
    }

    /// Untimed: the child's report (after its exit).
    func collectReport() throws -> LaunchReport {
        guard let child else { throw VerificationError("no child was launched") }
        defer { self.child = nil }
        let report = try child.finish()
        notes["child_ready_s"] = CSVFormat.seconds(Double(report.readyNanoseconds) / 1e9)
        notes["child_read_bytes"] = CSVFormat.integer(report.readBytes)
        return report
    }

    func finish() { child = nil }
}
