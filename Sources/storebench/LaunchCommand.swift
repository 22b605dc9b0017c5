import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore

/// The child side of the launch workloads (hidden): opens a store, loads the first screen, prints one JSON
/// line (`LaunchReport`) and exits. `--task settings` reads settings back instead. `--empty` answers at once, for `process-spawn`.
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
    @Option(help: "timeline: load the first screen; settings: read back --count settings of --seed.") var task = "timeline"
    @Option var seed: UInt64 = 0
    @Option var count = 0
    @Flag var empty = false

    func run() throws {
        let report: LaunchReport
        if empty {
            report = LaunchReport(readyNanoseconds: 0, readBytes: nil, checksum: "empty", settings: "")
        } else {
            guard let backend, let directory else { throw ValidationError("launch needs --backend and --directory") }
            let (descriptor, variant) = try StoreChoice.resolve(backend: backend, settings: settings)
            let url = URL(fileURLWithPath: directory)
            switch task {
            case "timeline":
                report = try LaunchReport.loadFirstScreen(descriptor: descriptor, directory: url, variant: variant, screen: screen)
            case "settings":
                report = try LaunchReport.readSettings(descriptor: descriptor, directory: url, variant: variant, seed: seed,
                                                       count: count)
            default:
                throw ValidationError("unknown launch task '\(task)' (timeline, settings)")
            }
        }
        try StoreChoice.answer(report)
    }
}
