import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore

/// `storebench crash`: what each storage strategy loses when the app is killed.
struct CrashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash",
        abstract: "Kill a writing child at random moments; report what each backend variant lost (durability.csv).",
        discussion: """
            For every backend variant of the scenario, a child process commits batches of articles and acknowledges \
            each one after its commit returned; it is killed with SIGKILL at a seeded random moment, and a fresh \
            process reopens the store, runs the backend's integrity check and sorts the articles into complete, \
            partial and lost batches. A kill test cannot show power loss: the page cache survives a killed process. \
            durability.csv is rewritten after every finished variant; Ctrl-C (SIGINT) or SIGTERM stops before the \
            next kill, keeps the finished variants and exits 130 or 143.
            """
    )

    @Option(help: "The scenario whose backend variants are tested.") var scenario = "scenarios/default.yaml"
    @Option(name: .customLong("backend"), help: "Only this backend (repeatable).") var backends: [String] = []
    @Option(help: "Counted kills per backend variant.") var kills = 50
    @Option(help: "Articles per batch (one app operation).") var batch = CrashTrials.defaultBatchSize
    @Option(name: .customLong("max-delay-ms"), help: "The kill comes 1…N ms after the first acknowledgement.") var maxDelay = CrashTrials.defaultMaxDelayMilliseconds
    @Option(help: "Seed for the data and the kill moments (default: the scenario's).") var seed: UInt64?
    @Option(help: "Output directory for durability.csv (default: results/<UTC timestamp>-<host>-crash/).") var out: String?
    @Option(help: "Where private work directories are made (default: $TMPDIR or /var/tmp).") var workdir: String?

    func validate() throws {
        guard (1...100_000).contains(kills) else { throw ValidationError("--kills must be in 1...100000, got \(kills)") }
        guard (1...100_000).contains(batch) else { throw ValidationError("--batch must be in 1...100000, got \(batch)") }
        guard (1...600_000).contains(maxDelay) else { throw ValidationError("--max-delay-ms must be in 1...600000, got \(maxDelay)") }
    }

    func run() throws {
        let registry = BackendRegistry.standard()
        let (plan, output, work) = try failing(.badInput) {
            (try ScenarioParser(backends: registry, workloads: .standard).parse(file: scenario)
                .narrowed(backends: backends, workloads: []),
             try OutputLocations.prepareOutput(out ?? OutputLocations.defaultOutput() + "-crash"),
             try OutputLocations.workdir(workdir))
        }
        guard let executable = RunningExecutable.url else {
            throw CommandFailure(exit: .failure, message: "storebench crash: cannot find the storebench executable to start writer children")
        }
        let interrupt = InterruptRequest.install()
        defer { interrupt.uninstall() }
        let file = output.appendingPathComponent("durability.csv")
        var rows: [DurabilityRow] = []
        for entry in plan.backends {
            let descriptor = registry[entry.backend]!
            var trials = CrashTrials(executable: executable, backend: descriptor, variant: entry.variant, workRoot: work,
                                     seed: seed ?? plan.seed)
            trials.batchSize = batch
            trials.maxDelayMilliseconds = maxDelay
            trials.shouldStop = { interrupt.signal != nil }
            let row: DurabilityRow
            do {
                row = try trials.run(kills: kills)
            } catch is CrashTrials.Stopped {
                break
            } catch {
                throw CommandFailure(exit: .failure, message: "storebench crash: \(error)")
            }
            printError("\(row.backend) [\(row.variant)]: \(row.kills) kills, \(row.ackedBatches) acknowledged, \(row.lostBatches) lost, \(row.partialBatches) partial, \(row.corruptOpens) corrupt")
            rows.append(row)
            try failing(.failure) { try AtomicFile.write(try CSVFormat.encode([DurabilityRow.header] + rows.map(\.fields)), to: file) }
        }
        if interrupt.signal != nil {
            printError("interrupted by \(interrupt.signalName): \(rows.count) of \(plan.backends.count) variants finished"
                       + (rows.isEmpty ? "; nothing was written" : "; their rows are in \(file.path)"))
            throw ExitCode(interrupt.exitCode)
        }
        for line in [DurabilityRow.header, DurabilityRow.header.map { _ in "---" }] + rows.map(\.fields) {
            print("| " + line.joined(separator: " | ") + " |")
        }
        print("wrote \(file.path)")
    }
}
