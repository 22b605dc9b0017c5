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

/// Starts a child process with `posix_spawn` and measures spawn → its first output line ("ready").
///
/// Not Foundation's `Process`: on this platform it added ≈50 ms to some launches (bimodal 13 / 63 ms for the
/// same child), which would be measured as the store's launch cost.
enum ChildProcess {
    struct Outcome {
        let readyNanoseconds: UInt64
        let report: LaunchReport
    }

    static func launch(_ executable: URL, arguments: [String]) throws -> Outcome {
        var output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard pipe(&output) == 0, pipe(&errors) == 0 else {
            throw StoreError.inconsistent("pipe failed: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        for fd in output + errors { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = ([executable.path] + arguments).map { strdup($0) }
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") }
        defer { (argv + environment).forEach { free($0) } }

        var pid: pid_t = 0
        let start = monotonicNanoseconds()
        let rc = posix_spawn(&pid, executable.path, &actions, nil, argv + [nil], environment + [nil])
        close(output[1])
        close(errors[1])
        defer {
            close(output[0])
            close(errors[0])
        }
        guard rc == 0 else {
            throw StoreError.inconsistent("posix_spawn \(executable.path) failed: \(String(cString: strerror(rc)))")
        }
        let line = readLine(output[0])
        let ready = monotonicNanoseconds()
        let errorText = readAll(errors[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0, exitCode = (status >> 8) & 0xFF
        guard exited, exitCode == 0, let line,
              let report = try? JSONDecoder().decode(LaunchReport.self, from: Data(line.utf8))
        else {
            let how = exited ? "exited \(exitCode)" : "was killed by signal \(status & 0x7F)"
            throw StoreError.inconsistent("launch child \(how): " + errorText.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return Outcome(readyNanoseconds: ready - start, report: report)
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
