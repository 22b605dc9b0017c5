import Foundation

/// Everything `storebench run` does, with the registries and output streams injected so that tests can run
/// it with test doubles: parse and check all input first (exit 64, nothing written), run, write the reports,
/// print the Markdown summary, and return the exit code.
public struct RunInvocation {
    /// Exit codes of `run`: ok, failure (a row failed or the reports could not be written), badInput.
    public typealias Exit = StoreBenchExit

    public var scenarioFile: String
    public var backends: [String] = []
    public var workloads: [String] = []
    /// Replaces parts of the scenario's repetition policy.
    public var policy = RepetitionPolicy.Overrides()
    public var seed: UInt64?
    public var output: String?
    public var workdir: String?
    /// The storebench executable that launch workloads start (the CLI passes itself).
    public var childExecutable: URL?

    public init(scenarioFile: String) { self.scenarioFile = scenarioFile }

    /// Keeps only these backends and workloads of the scenario (empty: all).
    public mutating func narrow(backends: [String], workloads: [String]) {
        self.backends = backends
        self.workloads = workloads
    }

    /// Replaces the scenario's repetitions, warm-up and seed where given.
    public mutating func override(repetitions: Int?, warmup: Int?, seed: UInt64?) {
        policy.repetitions = repetitions
        policy.warmup = warmup
        self.seed = seed
    }

    public func execute(backendRegistry: BackendRegistry, workloadRegistry: WorkloadRegistry,
                        commandLine: [String] = CommandLine.arguments,
                        stdout: (String) -> Void, stderr: @escaping (String) -> Void) -> Exit {
        let scenario: Scenario
        let outputURL: URL
        let workURL: URL
        do {
            var parsed = try ScenarioParser(backends: backendRegistry, workloads: workloadRegistry).parse(file: scenarioFile)
            parsed = try parsed.narrowed(backends: backends, workloads: workloads)
            parsed.policy = try parsed.policy.applying(policy)
            if let seed { parsed.seed = seed }
            scenario = parsed
            workURL = try OutputLocations.workdir(workdir)
            outputURL = try OutputLocations.prepareOutput(output)
        } catch {
            stderr("error: \(error)")
            return .badInput
        }
        let runner = Runner(backends: backendRegistry, workloads: workloadRegistry)
        var options = Runner.Options(workdir: workURL, output: outputURL, commandLine: commandLine, progress: stderr)
        options.childExecutable = childExecutable
        let result: Runner.Result
        do {
            result = try runner.run(scenario, options: options)
        } catch {
            stderr("error: the run stopped and no report was written: \(error)")
            return .failure
        }
        stdout(MarkdownTable.render(result.summary))
        for warning in result.manifest.warnings { stderr("WARNING: \(warning)") }
        stderr("results: \(outputURL.path)")
        guard result.allSucceeded else {
            stderr("error: some rows failed; see the status and error columns of \(outputURL.path)/samples.csv")
            return .failure
        }
        return .ok
    }
}
