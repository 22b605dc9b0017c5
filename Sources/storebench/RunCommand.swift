import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a scenario and write samples.csv, summary.csv and environment.json.",
        discussion: "Command-line filters narrow the scenario; overrides replace its values."
    )

    @Option(name: .long, help: "The scenario file.")
    var scenario = "scenarios/default.yaml"

    @Option(name: .customLong("backend"), help: "Run only this backend (repeatable).")
    var backends: [String] = []

    @Option(name: .customLong("workload"), help: "Run only this workload (repeatable).")
    var workloads: [String] = []

    @Option(help: "Measured repetitions per row (overrides the scenario).")
    var reps: Int?

    @Option(help: "Warm-up repetitions per row (overrides the scenario).")
    var warmup: Int?

    @Option(help: "Seed for the data and the run order (overrides the scenario).")
    var seed: UInt64?

    @Option(help: "Output directory (default: results/<UTC timestamp>-<host>/).")
    var out: String?

    @Option(help: "Where private work directories are made; must be a real disk (default: $TMPDIR or /var/tmp).")
    var workdir: String?

    func validate() throws {
        if let reps, !(1...1000).contains(reps) { throw ValidationError("--reps must be in 1...1000, got \(reps)") }
        if let warmup, !(0...100).contains(warmup) { throw ValidationError("--warmup must be in 0...100, got \(warmup)") }
    }

    func run() throws {
        var invocation = RunInvocation(scenarioFile: scenario)
        invocation.narrow(backends: backends, workloads: workloads)
        invocation.override(repetitions: reps, warmup: warmup, seed: seed)
        invocation.output = out
        invocation.workdir = workdir
        invocation.childExecutable = RunningExecutable.url
        let exit = invocation.execute(
            backendRegistry: BackendRegistry.standard(), workloadRegistry: WorkloadRegistry.standard,
            stdout: { print($0, terminator: "") }, stderr: printError)
        if exit != .ok { throw ExitCode(exit) }
    }
}
