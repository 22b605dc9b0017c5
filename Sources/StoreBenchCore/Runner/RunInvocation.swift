import Foundation

/// Everything `storebench run` does, with the registries and output streams injected so that tests can run
/// it with test doubles: parse and check all input first (exit 64, nothing written), claim the output directory,
/// run into a private staging directory, publish the reports together, print the Markdown summary, and return the
/// exit code. A signal (``interrupt``) publishes the completed rows marked interrupted and returns 130 or 143;
/// ``resume`` continues such a run.
public struct RunInvocation {
    /// Exit codes of `run`: ok, failure (a row failed or the reports could not be written), badInput, interrupted.
    public typealias Exit = StoreBenchExit

    /// The input of a run, as recorded in environment.json for `--resume`.
    public struct Recorded: Codable, Sendable, Equatable {
        /// Empty for an ad-hoc run (backends × workloads × sizes from the command line).
        public var scenarioFile: String
        public var backends: [String] = []
        public var workloads: [String] = []
        public var sizes: [Int] = []
        public var filters: [String] = []
        public var policy = RepetitionPolicy.Overrides()
        public var seed: UInt64?

        enum CodingKeys: String, CodingKey {
            case scenarioFile = "scenario_file", backends, workloads, sizes, filters, policy, seed
        }
    }

    /// The scenario file; nil: an ad-hoc run when backends and workloads are given, else the bundled default.
    public var scenarioFile: String?
    public var backends: [String] = []
    public var workloads: [String] = []
    /// Sizes of an ad-hoc run (`--size 1000,10000`).
    public var sizes: [Int] = []
    /// Shell-style patterns over `backend[variant]` and workload names (`--filter`).
    public var filters: [String] = []
    /// Print the plan and its time bound, write nothing (`--dry-run`).
    public var dryRun = false
    /// Replaces parts of the scenario's repetition policy.
    public var policy = RepetitionPolicy.Overrides()
    public var seed: UInt64?
    public var output: String?
    public var workdir: String?
    /// Replace the run already in `output` (`--force`).
    public var force = false
    /// The directory of an interrupted run to continue (`--resume`): its scenario, filters and overrides are used.
    public var resume: String?
    /// The storebench executable that launch workloads start (the CLI passes itself).
    public var childExecutable: URL?
    /// Set by SIGINT/SIGTERM in the CLI; tests may set it themselves.
    public var interrupt = InterruptRequest()
    /// Receives each repetition's progress (the CLI's progress line); nil: one stderr line per repetition.
    public var onRepetition: ((RunProgress) -> Void)?
    /// Caps on cases and generated data (`--max-cases`, `--max-records`).
    public var limits = RunPlan.Limits()

    public init(scenarioFile: String?) { self.scenarioFile = scenarioFile }

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

    var recorded: Recorded {
        Recorded(scenarioFile: scenarioFile ?? "", backends: backends, workloads: workloads, sizes: sizes,
                 filters: filters, policy: policy, seed: seed)
    }

    mutating func adopt(_ recorded: Recorded) {
        scenarioFile = recorded.scenarioFile.isEmpty ? nil : recorded.scenarioFile
        narrow(backends: recorded.backends, workloads: recorded.workloads)
        sizes = recorded.sizes
        filters = recorded.filters
        policy = recorded.policy
        seed = recorded.seed
    }

    /// The scenario this invocation runs: the file (narrowed by backends and workloads), an ad-hoc one, or the
    /// bundled default.
    func scenario(backendRegistry: BackendRegistry, workloadRegistry: WorkloadRegistry) throws -> Scenario {
        let parser = ScenarioParser(backends: backendRegistry, workloads: workloadRegistry)
        if let scenarioFile {
            guard sizes.isEmpty else {
                throw ScenarioError(file: scenarioFile, path: "--size", message: "--size makes an ad-hoc run; with a "
                                    + "scenario file, list sizes in it (sizes: [...])")
            }
            return try parser.parse(file: scenarioFile).narrowed(backends: backends, workloads: workloads)
        }
        if !backends.isEmpty && !workloads.isEmpty {
            return try Scenario.adHoc(backends: backends, workloads: workloads, sizes: sizes,
                                      backendRegistry: backendRegistry, workloadRegistry: workloadRegistry)
        }
        guard sizes.isEmpty else {
            throw ScenarioError(file: "command line", path: "--size", message: "an ad-hoc run needs --backend and --workload")
        }
        return try parser.parse(file: try BundledScenarios.path("default.yaml"))
            .narrowed(backends: backends, workloads: workloads)
    }

    public func execute(backendRegistry: BackendRegistry, workloadRegistry: WorkloadRegistry,
                        commandLine: [String] = CommandLine.arguments,
                        stdout: (String) -> Void, stderr: @escaping (String) -> Void) -> Exit {
        var invocation = self
        let scenario: Scenario
        let output: RunOutput
        let workURL: URL
        let previous: InterruptedRun?
        let binaryHash = childExecutable.map(InterruptedRun.hash(of:)) ?? ""
        do {
            if let resume {
                let found = try InterruptedRun(directory: resume, binaryHash: binaryHash)
                invocation.adopt(found.recorded)
                invocation.output = resume
                previous = found
            } else {
                previous = nil
            }
            if let file = invocation.scenarioFile { invocation.scenarioFile = try BundledScenarios.resolve(file) }
            var parsed = try invocation.scenario(backendRegistry: backendRegistry, workloadRegistry: workloadRegistry)
            parsed = try parsed.filtered(invocation.filters)
            parsed.policy = try parsed.policy.applying(invocation.policy)
            if let seed = invocation.seed { parsed.seed = seed }
            if let previous { try previous.check(scenario: parsed) }
            let cases = try RunPlan.check(parsed, workloads: workloadRegistry, limits: limits)
            if dryRun {
                stdout(DryRun.describe(parsed, cases: cases, workloads: workloadRegistry))
                return .ok
            }
            scenario = parsed
            workURL = try OutputLocations.workdir(workdir)
            if let requested = invocation.output { try RunOutput.checkPath(requested) }
            let outputURL = URL(fileURLWithPath: invocation.output ?? OutputLocations.defaultOutput(), isDirectory: true)
            output = try RunOutput(outputURL, existing: resume != nil ? .resume : (force ? .replace : .refuse),
                                   inputs: invocation.scenarioFile.map { [URL(fileURLWithPath: $0)] } ?? [])
        } catch {
            stderr("error: \(error)")
            return .badInput
        }
        defer { output.release() }
        for path in WorkDirectory.removeAbandoned(in: workURL) {
            stderr("removed \(path): a work directory left by a storebench run that is no longer running")
        }
        let runner = Runner(backends: backendRegistry, workloads: workloadRegistry)
        let result: Runner.Result
        let staging: URL
        do {
            staging = try output.stage()
            let stagingPath = staging
            interrupt.addCleanup { try? FileManager.default.removeItem(at: stagingPath) }
            interrupt.addCleanup(output.emergencyCleanup)
        } catch {
            stderr("error: \(error)")
            return .failure
        }
        do {
            var options = Runner.Options(workdir: workURL, output: staging, commandLine: commandLine, progress: stderr)
            options.childExecutable = childExecutable
            options.interrupt = interrupt
            options.onRepetition = onRepetition
            options.resumeFrom = previous?.samples
            options.invocation = invocation.recorded
            options.binaryHash = binaryHash
            result = try runner.run(scenario, options: options)
            try output.publish(staging)
        } catch {
            output.discard(staging)
            stderr("error: the run stopped and no report was written (\(output.url.path) is as it was): \(error)")
            return .failure
        }
        stdout(MarkdownTable.render(result.summary))
        for warning in result.manifest.warnings { stderr("WARNING: \(warning)") }
        stderr("results: \(output.url.path)")
        if result.interrupted {
            let repetitions = result.summary.reduce(0) { $0 + ($1.statistics?.n ?? 0) + $1.failed }
            stderr("interrupted by \(interrupt.signalName): \(repetitions) repetitions done (\(result.finishedCases) of "
                   + "\(result.totalCases) cases finished) are in \(output.url.path); continue with: storebench run --resume "
                   + output.url.path)
            return interrupt.signal == SIGTERM ? .terminated : .interrupted
        }
        guard result.allSucceeded else {
            stderr("error: some rows failed; see the status and error columns of \(output.url.path)/samples.csv")
            return .failure
        }
        return .ok
    }
}
