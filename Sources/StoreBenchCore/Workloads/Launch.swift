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

/// Starts a child process and measures spawn → its first output line ("ready").
enum ChildProcess {
    struct Outcome {
        let readyNanoseconds: UInt64
        let report: LaunchReport
    }

    static func launch(_ executable: URL, arguments: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let start = monotonicNanoseconds()
        try process.run()
        let line = readLine(output.fileHandleForReading.fileDescriptor)
        let ready = monotonicNanoseconds()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let line,
              let report = try? JSONDecoder().decode(LaunchReport.self, from: Data(line.utf8))
        else {
            throw StoreError.inconsistent("launch child exited \(process.terminationStatus): "
                                          + errorText.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return Outcome(readyNanoseconds: ready - start, report: report)
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
