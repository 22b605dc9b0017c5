import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore
import StoreBenchOverhead

struct OverheadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "overhead",
        abstract: "Compare the sqlite, lmdb and gdbm backends with the same inserts and lookups written in C.",
        discussion: """
            For each backend: --count inserts in one transaction into a fresh store, and --count point lookups by \
            uid among --stored articles, through the Swift backend and through C on the same data, schema and \
            settings (no fsync: it would hide the CPU cost in disk noise), alternating. Every repetition proves \
            the work equal by checksums (and store sizes for inserts). Prints the medians and Swift/C ratios. \
            Exits 1 when the work differs, 2 when a ratio exceeds its goal (inserts \
            \(AdapterOverhead.Operation.insert.goal)×, lookups \(AdapterOverhead.Operation.lookup.goal)×).
            """
    )

    @Option(help: "Articles per insert, and lookups per repetition.") var count = 10_000
    @Option(help: "Articles stored for the lookups.") var stored = 20_000
    @Option(help: "Measured repetitions per side.") var reps = 9
    @OptionGroup var seed: SeedOption
    @Option(name: .customLong("backend"), help: "Only this backend (repeatable): sqlite, lmdb, gdbm.")
    var backends: [String] = []
    @OptionGroup var workdir: WorkDirectoryOption

    func validate() throws {
        guard (1...10_000_000).contains(count) else { throw ValidationError("--count must be in 1...10000000") }
        guard (1...10_000_000).contains(stored) else { throw ValidationError("--stored must be in 1...10000000") }
        guard (1...1000).contains(reps) else { throw ValidationError("--reps must be in 1...1000") }
        let known = AdapterOverhead.backends.map(\.name)
        for name in backends where !known.contains(name) {
            throw ValidationError("--backend \(name): no C baseline; there are \(known.joined(separator: ", "))")
        }
    }

    func run() throws {
        let workURL = try failing(.badInput) { try OutputLocations.workdir(workdir.workdir) }
        if MachineFacts.buildConfiguration == "debug" {
            printError("WARNING: DEBUG BUILD: the Swift side is not optimized; build with -c release")
        }
        let chosen = backends.isEmpty ? AdapterOverhead.backends.map(\.name) : backends
        let interrupt = InterruptRequest.install()
        defer { interrupt.uninstall() }
        let results: [AdapterOverhead.Measurement]
        do {
            results = try AdapterOverhead.measure(
                backends: chosen, count: count, stored: stored, repetitions: reps,
                seed: seed.seed ?? 42, workdir: workURL
            ) { interrupt.signal != nil }
        } catch is AdapterOverhead.Stopped {
            printError("interrupted by \(interrupt.signalName): nothing was measured to the end")
            throw ExitCode(interrupt.exit)
        }
        print("| backend | operation | C median | Swift median | Swift/C | goal | equal work |")
        print("|---|---|---:|---:|---:|---:|---|")
        for result in results {
            print(
                "| \(result.backend) | \(result.operation.rawValue) \(result.count) | \(MarkdownTable.duration(result.cMedian)) | "
                    + "\(MarkdownTable.duration(result.swiftMedian)) | \(String(format: "%.2f×", result.ratio)) | "
                    + "≤ \(result.operation.goal)× \(result.meetsGoal ? "" : "✗") | \(result.equalWork) |")
        }
        if let unequal = results.first(where: { !$0.equalWork.holds }) {
            throw CommandFailure(
                exit: .failure,
                message: "storebench overhead: \(unequal.backend) \(unequal.operation.rawValue): "
                    + "the two sides did not do the same work (\(unequal.equalWork))")
        }
        let missed = results.filter { !$0.meetsGoal }
        if !missed.isEmpty {
            printError(
                "over the goal: "
                    + missed.map { "\($0.backend) \($0.operation.rawValue) \(String(format: "%.2f×", $0.ratio))" }
                    .joined(separator: ", "))
            throw ExitCode(.regression)
        }
    }
}
