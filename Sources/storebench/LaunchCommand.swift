import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore

/// The child side of the launch workloads (hidden): opens a store, loads the first screen, prints one JSON
/// line (`LaunchReport`) and exits. `--empty` answers at once, for `process-spawn`.
struct LaunchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "launch",
        abstract: "Internal: open a store in a fresh process and load the first screen.",
        shouldDisplay: false
    )

    @Option var backend: String?
    @Option(help: "The variant's settings, e.g. \"txn=single journal=wal\" (\"default\" for none).") var settings = "default"
    @Option var directory: String?
    @Option var screen = 200
    @Flag var empty = false

    func run() throws {
        let report: LaunchReport
        if empty {
            report = LaunchReport(readyNanoseconds: 0, readBytes: nil, checksum: "empty", settings: "")
        } else {
            guard let backend, let directory, let descriptor = BackendRegistry.standard()[backend] else {
                throw ValidationError("launch needs --backend (a known backend) and --directory")
            }
            var requested: [String: String] = [:]
            for pair in settings.split(separator: " ") where pair != "default" {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { throw ValidationError("bad setting '\(pair)'") }
                requested[parts[0]] = parts[1]
            }
            report = try LaunchReport.loadFirstScreen(descriptor: descriptor, directory: URL(fileURLWithPath: directory),
                                                      variant: try descriptor.variant(requested), screen: screen)
        }
        let line = try JSONEncoder().encode(report) + Data("\n".utf8)
        FileHandle.standardOutput.write(line)
    }
}
