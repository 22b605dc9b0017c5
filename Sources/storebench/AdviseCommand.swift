import ArgumentParser
import Foundation
import StoreBenchAdvice
import StoreBenchAnalysis
import StoreBenchBackends
import StoreBenchCore
import StoreBenchMeasure

/// `storebench advise --profile app.yaml`: one measured answer for an app.
struct AdviseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advise",
        abstract: "Measure the strategies for an app profile and answer with one recommendation (advice.md, advice.json).",
        discussion: """
            The profile (docs/CLI.md) says what the app stores, how often it does what, the budgets some operations \
            must meet and the durability its data needs. advise writes the scenario that measures it (scenario.yaml), \
            runs it (run/), runs short crash trials — a killed app and a power cut — on every strategy that meets the \
            budgets, with the profile's record shape (durability.csv, also in run/ so `storebench report run` shows \
            it), and answers: the cheapest strategy that meets every budget and the need, its runner-ups and why each \
            lost. Exit codes: 0 a strategy meets everything; 6 none does (the answer says which budget or need each \
            failed); 1 a run or trial failed; 64 bad input; 130/143 interrupted. --report OUT renders the answer again \
            from OUT (after scripts/plot drew run/charts).
            """
    )

    @Option(help: "The app profile (YAML; profiles/ has the shipped ones).") var profile: String?
    @Flag(name: .customLong("dry-run"), help: "Print the scenario and a bound on its duration; run and write nothing.")
    var dryRun = false
    @Flag(name: .customLong("no-crash"), help: "Skip the crash trials: the durability in the answer is then declared.")
    var noCrash = false
    @Option(help: "Render the answer again from an advise folder (its profile.yaml, run/ and durability.csv).")
    var report: String?
    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var workdir: WorkDirectoryOption

    func validate() throws {
        guard (profile == nil) != (report == nil) else { throw ValidationError("give --profile FILE, or --report FOLDER") }
    }

    func run() throws {
        if let report {
            throw try failing(.failure) { try answer(in: URL(fileURLWithPath: report, isDirectory: true)) }
        }
        let registry = BackendRegistry.standard()
        let (profile, plan) = try failing(.badInput) { () throws -> (AppProfile, AdvicePlan) in
            let profile = try AppProfile(file: self.profile!)
            let plan = AdvicePlan(profile)
            for candidate in plan.candidates {
                let spec = try BackendSpec(parsing: candidate)
                guard let descriptor = registry[spec.backend] else {
                    throw ScenarioError(file: profile.file, path: "candidates", message: "unknown backend '\(spec.backend)'")
                }
                _ = try descriptor.variant(spec.settings)
            }
            return (profile, plan)
        }
        let out = URL(fileURLWithPath: outputOptions.out ?? OutputLocations.defaultOutput() + "-advise-\(profile.name)", isDirectory: true)
        if dryRun {
            let scenarioFile = FileManager.default.temporaryDirectory.appendingPathComponent("advise-\(getpid()).yaml")
            try failing(.failure) { try Data(plan.scenarioText.utf8).write(to: scenarioFile) }
            defer { try? FileManager.default.removeItem(at: scenarioFile) }
            print(plan.scenarioText)
            try runScenario(scenarioFile, into: out.appendingPathComponent("run"), dryRun: true)
            print("then crash trials: a killed app and a power cut, \(profile.crashTrials) trials each, on every strategy that meets "
                  + "the budgets (at most \(plan.candidates.count); about 5 s a trial here)")
            return
        }
        try failing(.badInput) { try Self.prepare(out, force: outputOptions.force) }
        try failing(.failure) {
            try Data(plan.scenarioText.utf8).write(to: out.appendingPathComponent("scenario.yaml"))
            try FileManager.default.copyItem(atPath: profile.file, toPath: out.appendingPathComponent("profile.yaml").path)
        }
        let run = out.appendingPathComponent("run")
        try runScenario(out.appendingPathComponent("scenario.yaml"), into: run, dryRun: false)
        if !noCrash {
            let table = try failing(.failure) { try SampleTable(path: run.path) }
            let fits = Advice(plan: plan, table: table, crashes: [:], promise: registry.declaredPromise)
                .strategies.filter { $0.runs && $0.meetsBudgets }
            try crashTrials(fits.map { ($0.backend, $0.variant) }, profile: profile, out: out, registry: registry)
        }
        throw try failing(.failure) { try answer(in: out) }
    }

    /// An advise folder: new, or empty, or (--force) a previous advise folder (it has a profile.yaml and scenario.yaml).
    static func prepare(_ out: URL, force: Bool) throws {
        let manager = FileManager.default
        if manager.fileExists(atPath: out.path) {
            let contents = try manager.contentsOfDirectory(atPath: out.path)
            if !contents.isEmpty {
                guard force, contents.contains("profile.yaml"), contents.contains("scenario.yaml") else {
                    throw CommandFailure(exit: .badInput, message: "storebench advise: \(out.path) is not empty"
                                         + (force ? " and is not an advise folder (no profile.yaml and scenario.yaml)" : "; use a new folder or --force"))
                }
                try manager.removeItem(at: out)
            }
        }
        try manager.createDirectory(at: out, withIntermediateDirectories: true)
    }

    private func runScenario(_ file: URL, into output: URL, dryRun: Bool) throws {
        var request = RunRequest(scenarioFile: file.path)
        request.output = output.path
        request.workdir = workdir.workdir
        request.dryRun = dryRun
        try RunCommand.execute(request, quiet: false) { outcome, interrupt, _ in
            switch outcome {
            case .planned(let text): print(text, terminator: "")
            case let .finished(result, _):
                if result.interrupted { throw ExitCode(interrupt.signal == SIGTERM ? Exit.terminated : Exit.interrupted) }
            }
        }
    }

    /// Kill and power-cut trials with the profile's record shape, into durability.csv (and a copy in run/).
    private func crashTrials(_ strategies: [(backend: String, variant: String)], profile: AppProfile, out: URL,
                             registry: BackendRegistry) throws {
        guard let executable = RunningExecutable.url else {
            throw CommandFailure(exit: .failure, message: "storebench advise: cannot find the storebench executable for crash trials")
        }
        let work = try failing(.badInput) { try OutputLocations.workdir(workdir.workdir) }
        let shape = try failing(.badInput) {
            try RecordShape.articles(profile.data.parameters.filter { RecordShape.parameters.map(\.name).contains($0.key) })
        }
        let interrupt = InterruptRequest.install()
        defer { interrupt.uninstall() }
        var rows: [DurabilityRow] = []
        for (backend, variantText) in strategies {
            guard let resolved = try? registry.resolve(backend: backend, settings: variantText), resolved.0.persistent else { continue }
            let (descriptor, variant) = resolved
            for fault in [CrashFault.kill, .powerLoss] {
                var trials = CrashTrials(executable: executable, backend: descriptor, variant: variant, workRoot: work, seed: 42)
                trials.fault = fault
                trials.shape = shape
                trials.prefixImages = 1
                trials.shouldStop = { interrupt.signal != nil }
                do {
                    let found = try trials.run(trials: profile.crashTrials)
                    for row in found { printError("\(row.backend) [\(row.variant)] \(row.fault.rawValue) \(row.image.rawValue): \(row.summary)") }
                    rows += found
                } catch is CrashTrials.Stopped {
                    throw ExitCode(interrupt.signal == SIGTERM ? Exit.terminated : Exit.interrupted)
                } catch {
                    throw CommandFailure(exit: .failure, message: "storebench advise: crash trials of \(backend) [\(variantText)]: \(error)")
                }
            }
        }
        try failing(.failure) {
            let csv = try DurabilityRow.csv(rows)
            try AtomicFile.write(csv, to: out.appendingPathComponent("durability.csv"))
            try AtomicFile.write(csv, to: out.appendingPathComponent("run").appendingPathComponent("durability.csv"))
        }
    }

    /// Judges the folder's run and crash results, writes advice.md and advice.json, prints the answer; returns the exit.
    private func answer(in out: URL) throws -> ExitCode {
        let registry = BackendRegistry.standard()
        let profile = try AppProfile(file: out.appendingPathComponent("profile.yaml").path)
        let plan = AdvicePlan(profile)
        let run = out.appendingPathComponent("run")
        let table = try SampleTable(path: run.path)
        let durability = out.appendingPathComponent("durability.csv")
        let crashes = FileManager.default.fileExists(atPath: durability.path) ? try CrashResult.read(files: [durability]) : [:]
        let advice = Advice(plan: plan, table: table, crashes: crashes, promise: registry.declaredPromise, label: registry.label)
        let environment = table.environment ?? [:]
        let provenance = Advice.Provenance(
            host: environment["host"] as? String ?? MachineFacts.hostName,
            cpu: environment["cpu_model"] as? String ?? MachineFacts.cpuModel,
            cores: environment["cores"] as? Int ?? ProcessInfo.processInfo.activeProcessorCount,
            kernel: environment["kernel"] as? String ?? MachineFacts.kernel,
            fileSystem: environment["workdir_filesystem"] as? String ?? "unknown",
            date: String((environment["finished_at"] as? String ?? MachineFacts.timestamp()).prefix(10)),
            commit: environment["git_commit"] as? String ?? MachineFacts.gitCommit(),
            runDirectory: "run/",
            crashTrials: crashes.isEmpty ? "none (durability declared)" : "durability.csv, \(profile.crashTrials) per fault, "
                + "on the strategies that met the budgets, record shape of the profile")
        let chart = "run/charts/overview.png"
        let markdown = advice.markdown(provenance, chart: FileManager.default.fileExists(atPath: out.appendingPathComponent(chart).path) ? chart : nil)
        try AtomicFile.write(Data(markdown.utf8), to: out.appendingPathComponent("advice.md"))
        try AtomicFile.write(try advice.json(provenance), to: out.appendingPathComponent("advice.json"))
        print(markdown, terminator: "")
        printError("answer: \(out.appendingPathComponent("advice.md").path)")
        return ExitCode(advice.recommendation == nil ? Exit.noStrategy : Exit.ok)
    }
}
