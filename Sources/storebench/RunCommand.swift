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
        let backendRegistry = BackendRegistry.standard()
        let workloadRegistry = WorkloadRegistry.standard
        let plan: Scenario
        let output: URL
        let workURL: URL
        do {
            var parsed = try ScenarioParser(backends: backendRegistry, workloads: workloadRegistry).parse(file: scenario)
            parsed = try parsed.narrowed(backends: backends, workloads: workloads)
            if let reps { parsed.repetitions = reps }
            if let warmup { parsed.warmup = warmup }
            if let seed { parsed.seed = seed }
            plan = parsed
            workURL = try OutputLocations.workdir(workdir)
            output = try OutputLocations.prepareOutput(out)
        } catch let error as ScenarioError {
            printError("error: \(error)")
            throw ExitCodes.badInput
        } catch let error as OutputLocations.Failure {
            printError("error: \(error.message)")
            throw ExitCodes.badInput
        }

        let runner = Runner(backends: backendRegistry, workloads: workloadRegistry)
        let options = Runner.Options(workdir: workURL, output: output, commandLine: CommandLine.arguments) {
            printError($0)
        }
        let result: Runner.Result
        do {
            result = try runner.run(plan, options: options)
        } catch {
            printError("error: the run stopped and no report was written: \(error)")
            throw ExitCodes.rowFailed
        }
        print(MarkdownTable.render(result.summary))
        for warning in result.manifest.warnings { printError("WARNING: \(warning)") }
        printError("results: \(output.path)")
        if !result.allSucceeded {
            printError("error: some rows failed verification or threw; see the status and error columns")
            throw ExitCodes.rowFailed
        }
    }
}
