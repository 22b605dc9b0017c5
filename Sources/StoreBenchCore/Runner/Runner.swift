import Foundation

/// Drives a scenario: interleaved rounds of warm-up and measured repetitions over every case, streaming
/// samples to `samples.csv` and writing `summary.csv` and `environment.json` when done.
///
/// Reports are all-or-nothing: files are written as `.partial` and renamed only after the run completes.
public struct Runner {
    public struct Options {
        /// Parent of the private work directory (a real disk; a tmpfs gets a warning).
        public var workdir: URL
        /// Where the three report files go (must exist and be writable).
        public var output: URL
        public var commandLine: [String]
        /// The storebench executable, for workloads that launch a fresh process (nil: they are unsupported).
        public var childExecutable: URL?
        /// Receives progress lines (stderr in the CLI); never called inside a timed region.
        public var progress: (String) -> Void

        public init(workdir: URL, output: URL, commandLine: [String], progress: @escaping (String) -> Void) {
            self.workdir = workdir
            self.output = output
            self.commandLine = commandLine
            self.progress = progress
        }
    }

    /// What a finished run produced.
    public struct Result {
        public let summary: [SummaryBuilder.Row]
        public let allSucceeded: Bool
        public let manifest: EnvironmentManifest
    }

    public let backends: BackendRegistry
    public let workloads: WorkloadRegistry

    public init(backends: BackendRegistry, workloads: WorkloadRegistry) {
        self.backends = backends
        self.workloads = workloads
    }

    public func run(_ scenario: Scenario, options: Options) throws -> Result {
        let started = Date()
        var warnings: [String] = []
        if MachineFacts.buildConfiguration == "debug" {
            warnings.append("DEBUG BUILD: timings are not representative; build with -c release")
        }
        if WorkDirectory.isMemoryBacked(options.workdir.path) {
            warnings.append("work directory \(options.workdir.path) is memory-backed (tmpfs): disk costs are not measured")
        }
        for warning in warnings { options.progress("WARNING: \(warning)") }

        options.progress("generating data (seed \(scenario.seed))…")
        let plan = try RunPlan(scenario: scenario, backends: backends, workloads: workloads)
        let workDirectory = try WorkDirectory(in: options.workdir, prefix: "storebench-")
        defer { workDirectory.remove() }
        let floorsAtStart = try? DiskFloors.probe(in: workDirectory.url)
        let samples = try SampleWriter(url: options.output.appendingPathComponent("samples.csv"))
        var summary = SummaryBuilder(order: plan.cases.map(\.key))
        do {
            let repetitionRunner = RepetitionRunner(plan: plan, workDirectory: workDirectory,
                                                    childExecutable: options.childExecutable)
            let rounds = scenario.warmup + scenario.repetitions
            for round in 0..<rounds {
                let warmup = round < scenario.warmup
                let label = warmup ? "warm-up \(round + 1)/\(scenario.warmup)"
                    : "repetition \(round - scenario.warmup + 1)/\(scenario.repetitions)"
                for caseIndex in plan.order(round: round) {
                    var sample = repetitionRunner.run(caseIndex: caseIndex, round: round)
                    sample.repetition = warmup ? 0 : round - scenario.warmup + 1
                    options.progress(progressLine(label, sample))
                    if !warmup {
                        try samples.append(sample)
                        summary.add(sample)
                    }
                }
            }
            try samples.finish()
        } catch {
            samples.discard()
            throw error
        }
        var manifest = makeManifest(scenario: scenario, plan: plan, options: options, warnings: warnings, started: started)
        manifest.diskFloorsAtStart = floorsAtStart
        manifest.diskFloorsAtEnd = try? DiskFloors.probe(in: workDirectory.url)
        manifest.storage = StorageFacts.of(options.workdir.path)
        manifest.repetitionPolicy = "fixed: \(scenario.warmup) warm-up and \(scenario.repetitions) measured repetitions per row, "
            + "interleaved in a seeded shuffle per round; rows whose median's 95% interval is wider than "
            + "±\(Int(NoiseFlags.targetPrecision * 100))% are flagged imprecise, not repeated"
        try AtomicFile.write(CSVFormat.encode(summary.csvRows), to: options.output.appendingPathComponent("summary.csv"))
        try AtomicFile.write(manifest.encoded(), to: options.output.appendingPathComponent("environment.json"))
        return Result(summary: summary.summary, allSucceeded: summary.allSucceeded, manifest: manifest)
    }

    private func progressLine(_ label: String, _ sample: Sample) -> String {
        let key = sample.key
        let outcome = sample.status == .ok
            ? MarkdownTable.duration(sample.wallSeconds) : "\(sample.status.rawValue): \(sample.error)"
        return "[\(label)] \(key.workload) size=\(key.size) \(key.backend) [\(key.variant)]: \(outcome)"
    }

    private func makeManifest(scenario: Scenario, plan: RunPlan, options: Options, warnings: [String],
                              started: Date) -> EnvironmentManifest {
        var libraries: [String: String] = [:]
        for name in Set(plan.cases.map(\.backend.name)).sorted() {
            libraries.merge(backends[name]?.libraryVersions() ?? [:]) { first, _ in first }
        }
        let perRepetition = PeakMemory.reset()
        return EnvironmentManifest(
            storebenchVersion: StoreBenchVersion.current, gitCommit: MachineFacts.gitCommit(),
            buildConfiguration: MachineFacts.buildConfiguration, swiftVersion: MachineFacts.swiftVersion,
            host: MachineFacts.hostName, cpuModel: MachineFacts.cpuModel,
            cores: ProcessInfo.processInfo.activeProcessorCount, memoryBytes: ProcessInfo.processInfo.physicalMemory,
            kernel: MachineFacts.kernel, workdir: options.workdir.path,
            workdirFileSystem: WorkDirectory.fileSystemType(of: options.workdir.path), libraries: libraries,
            seed: scenario.seed, datasets: plan.datasets, scenarioName: scenario.name, scenarioFile: scenario.file,
            scenarioHash: scenario.fileHash, commandLine: options.commandLine,
            peakMemoryMethod: perRepetition
                ? "VmHWM after resetting it through /proc/self/clear_refs before each measured operation"
                : "ru_maxrss (process lifetime peak; per-repetition reset unavailable)",
            warnings: warnings, startedAt: MachineFacts.timestamp(started), finishedAt: MachineFacts.timestamp())
    }
}

/// The version of storebench.
public enum StoreBenchVersion {
    public static let current = "0.1.0"
}
