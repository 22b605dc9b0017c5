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
        var summary = SummaryBuilder(order: plan.cases.map(\.key), targetPrecision: scenario.policy.targetPrecision)
        let policy = scenario.policy
        var schedule = RepetitionSchedule(policy: policy, caseCount: plan.cases.count)
        options.progress("repetitions: \(policy)")
        do {
            let repetitionRunner = RepetitionRunner(plan: plan, workDirectory: workDirectory,
                                                    childExecutable: options.childExecutable)
            let clockStart = monotonicNanoseconds()
            func elapsed() -> Double { Double(monotonicNanoseconds() - clockStart) / 1_000_000_000 }
            var round = 0
            while schedule.activeCount > 0 {
                let warmup = round < policy.warmup
                let measuredRound = round - policy.warmup + 1
                let label = warmup ? "warm-up \(round + 1)/\(policy.warmup)" : "repetition \(measuredRound)"
                if round > 0 {
                    options.progress(etaLine(round: label, schedule: schedule, elapsed: elapsed()))
                }
                for caseIndex in plan.order(round: round) where schedule.isActive(caseIndex) {
                    var sample = repetitionRunner.run(caseIndex: caseIndex, round: round)
                    let counts = schedule.record(caseIndex, sample, seconds: sample.repetitionSeconds ?? 0,
                                                 warmup: warmup, runElapsed: elapsed())
                    sample.repetition = counts ? schedule.cases[caseIndex].measured : 0
                    options.progress(progressLine(label, sample))
                    if counts {
                        try samples.append(sample)
                        summary.add(sample)
                    }
                    if !schedule.isActive(caseIndex) { repetitionRunner.release(caseIndex: caseIndex) }
                }
                if !warmup {
                    schedule.applyBudget(runElapsed: elapsed())
                    for index in plan.cases.indices where !schedule.isActive(index) { repetitionRunner.release(caseIndex: index) }
                }
                round += 1
            }
            for (index, planned) in plan.cases.enumerated() {
                let state = schedule.cases[index]
                summary.conclude(planned.key, stopped: state.stop?.rawValue ?? "", caseSeconds: state.spent)
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
        manifest.repetitionPolicy = scenario.policy.description
        try AtomicFile.write(CSVFormat.encode(summary.csvRows), to: options.output.appendingPathComponent("summary.csv"))
        try AtomicFile.write(manifest.encoded(), to: options.output.appendingPathComponent("environment.json"))
        return Result(summary: summary.summary, allSucceeded: summary.allSucceeded, manifest: manifest)
    }

    private func etaLine(round: String, schedule: RepetitionSchedule, elapsed: Double) -> String {
        let left = schedule.secondsLeft(runElapsed: elapsed)
        return "[\(round)] \(schedule.activeCount) of \(schedule.cases.count) cases still running; "
            + "\(Self.clock(elapsed)) elapsed, about \(Self.clock(left)) left"
    }

    /// `4m05s`, `38s`.
    static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole >= 60 ? String(format: "%dm%02ds", whole / 60, whole % 60) : "\(whole)s"
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
