import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a scenario and write samples.csv, summary.csv and environment.json.",
        discussion: """
            Command-line filters narrow the scenario; overrides replace its values. --out must be new or empty \
            (--force replaces the run in it); a second run into the same directory refuses while the first runs. \
            Ctrl-C (SIGINT) or SIGTERM stops after the current repetition and writes the completed rows, marked \
            interrupted; a second Ctrl-C stops at once. Exit codes: 0 every row ok; 1 a row failed or the reports \
            could not be written; 64 bad input (nothing written); 130 interrupted by SIGINT, 143 by SIGTERM \
            (continue with --resume DIR).
            """
    )

    @Option(name: .long, help: "The scenario file (default: scenarios/default.yaml).")
    var scenario: String?

    @Option(name: .customLong("backend"), help: ArgumentHelp(
        "A backend, optionally with settings: sqlite[txn=single,journal=wal] (repeatable). With --scenario it narrows the "
            + "scenario to matching variants; without, it makes an ad-hoc run with --workload.", valueName: "spec"))
    var backends: [String] = []

    @Option(name: .customLong("workload"), help: "A workload (repeatable): narrows the scenario, or makes an ad-hoc run.")
    var workloads: [String] = []

    @Option(name: .customLong("size"), parsing: .singleValue, help: ArgumentHelp(
        "Sizes of an ad-hoc run's workloads (their size parameter), e.g. 1000,10000.", valueName: "n,n,…"),
            transform: { text in
                try text.split(separator: ",", omittingEmptySubsequences: false).map { part in
                    guard let value = Int(part.trimmingCharacters(in: .whitespaces)), value > 0 else {
                        throw ValidationError("--size: '\(part)' is not a positive whole number")
                    }
                    return value
                }
            })
    var sizeLists: [[Int]] = []

    @Option(name: .customLong("filter"), help: ArgumentHelp(
        "Keep cases whose backend[variant] or workload matches this glob (* and ?; repeatable).", valueName: "glob"))
    var filters: [String] = []

    @Flag(name: .customLong("dry-run"), help: "Print the plan and a bound on its duration; run and write nothing.")
    var dryRun = false

    var sizes: [Int] { sizeLists.flatMap { $0 } }

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

    @Option(name: .customLong("max-cases"), help: "Refuse scenarios with more cases than this.")
    var maxCases = RunPlan.Limits().cases

    @Option(name: .customLong("max-records"), help: "Refuse scenarios whose data sets hold more generated records than this.")
    var maxRecords = RunPlan.Limits().records

    @Flag(help: "No progress on stderr; only warnings, errors and where the results are.")
    var quiet = false

    @Flag(help: "Replace the run already in --out (its reports and charts are removed when the new run publishes).")
    var force = false

    @Option(help: ArgumentHelp("Continue the interrupted run in this directory (same scenario and binary).", valueName: "dir"))
    var resume: String?

    func validate() throws {
        if let repeated = Dictionary(grouping: sizes, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
            throw ValidationError("--size lists \(repeated) twice; give each size once (as scenario files must)")
        }
        if let out, out.isEmpty { throw ValidationError("--out is empty; name a directory") }
        if resume != nil {
            let conflicting = [scenario != nil, !backends.isEmpty, !workloads.isEmpty, !sizes.isEmpty, !filters.isEmpty,
                               dryRun, reps != nil, warmup != nil,
                               seed != nil, out != nil, force, minReps != nil, maxReps != nil, targetPrecision != nil,
                               caseSeconds != nil, budgetSeconds != nil]
            if conflicting.contains(true) {
                throw ValidationError("--resume repeats the interrupted run's own input; give it alone (with --workdir at most)")
            }
        }
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
        invocation.sizes = sizes
        invocation.filters = filters
        invocation.dryRun = dryRun
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
        invocation.force = force
        invocation.limits.cases = maxCases
        invocation.limits.records = maxRecords
        invocation.resume = resume
        invocation.interrupt = InterruptRequest.install()
        defer { invocation.interrupt.uninstall() }
        let printer = ProgressPrinter(quiet: quiet)
        invocation.onRepetition = printer.update
        let exit = invocation.execute(
            backendRegistry: BackendRegistry.standard(), workloadRegistry: WorkloadRegistry.standard,
            stdout: { printer.clearStatus(); print($0, terminator: "") }, stderr: printer.message)
        if exit != .ok { throw ExitCode(exit) }
    }
}
