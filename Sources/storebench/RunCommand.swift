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

    @Option(help: "Exactly this many measured repetitions per row, no early stop (overrides the scenario).")
    var reps: Int?

    @Option(name: .customLong("min-reps"), help: "Fewest measured repetitions before a row may stop for precision.")
    var minReps: Int?

    @Option(name: .customLong("max-reps"), help: "Most measured repetitions of a row.")
    var maxReps: Int?

    @Option(name: .customLong("target-precision"),
            help: "A row stops once its median's 95% interval is within ± this fraction of the median (0.05: ±5%).")
    var targetPrecision: Double?

    @Option(name: .customLong("case-seconds"), help: "Time cap per row over all its repetitions, in seconds.")
    var caseSeconds: Double?

    @Option(name: .customLong("budget"), help: "Seconds the whole run may take before rows stop at one measured repetition.")
    var budgetSeconds: Double?

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
        if reps != nil, minReps != nil || maxReps != nil {
            throw ValidationError("--reps fixes the count; use it alone or use --min-reps/--max-reps")
        }
        for (flag, value) in [("--min-reps", minReps), ("--max-reps", maxReps)] {
            if let value, !(1...1000).contains(value) { throw ValidationError("\(flag) must be in 1...1000, got \(value)") }
        }
        if let targetPrecision, !(0.001...0.5).contains(targetPrecision) {
            throw ValidationError("--target-precision must be in 0.001...0.5 (0.05 is ±5%), got \(targetPrecision)")
        }
        for (flag, value) in [("--case-seconds", caseSeconds), ("--budget", budgetSeconds)] {
            if let value, !(value > 0 && value.isFinite) { throw ValidationError("\(flag) must be a positive number of seconds") }
        }
    }

    func run() throws {
        var invocation = RunInvocation(scenarioFile: scenario)
        invocation.narrow(backends: backends, workloads: workloads)
        invocation.override(repetitions: reps, warmup: warmup, seed: seed)
        invocation.policy.minimum = minReps
        invocation.policy.maximum = maxReps
        invocation.policy.targetPrecision = targetPrecision
        invocation.policy.caseSeconds = caseSeconds
        invocation.policy.budgetSeconds = budgetSeconds
        invocation.output = out
        invocation.workdir = workdir
        invocation.childExecutable = RunningExecutable.url
        let exit = invocation.execute(
            backendRegistry: BackendRegistry.standard(), workloadRegistry: WorkloadRegistry.standard,
            stdout: { print($0, terminator: "") }, stderr: printError)
        if exit != .ok { throw ExitCode(exit) }
    }
}
