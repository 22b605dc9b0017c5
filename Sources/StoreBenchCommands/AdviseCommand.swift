import ArgumentParser
import Foundation
import StoreBenchAdvice
import StoreBenchAnalysis
import StoreBenchBackends
import StoreBenchCore
import StoreBenchCrash
import StoreBenchMeasure

/// `storebench advise --profile app.yaml`: one measured answer for an app.
struct AdviseCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "advise",
    abstract:
      "Measure the strategies for an app profile and answer with one recommendation (advice.md, advice.json).",
    discussion: """
      The profile (docs/CLI.md) says what the app stores, how often it does what, the budgets some operations \
      must meet and the durability its data needs. advise leaves out the strategies that declare less than the \
      need, probes the others (two short repetitions of every row: what the run can afford, before it measures; \
      exit 7 with the run_seconds it would need when it cannot buy 8 repetitions of every operation), writes the \
      scenario that measures it (scenario.yaml; a budgeted operation is held to its budget, and a strategy that \
      misses one is stopped early, with its evidence), runs it (run/), runs short crash trials — a killed app and a power cut — on every strategy that meets the \
      budgets, with the profile's record shape (durability.csv, also in run/ so `storebench report run` shows \
      it), and answers: the cheapest strategy that meets every budget and the need, its runner-ups and why each \
      lost. Exit codes: 0 a strategy meets everything; 6 none does (the answer says which budget or need each \
      failed); 7 no answer yet (a strategy is not measured enough to be judged: the answer says what each \
      needs, or the probe found the budget too small); 1 a run or trial failed; 64 bad input; 130/143 interrupted. --report OUT renders the answer again \
      from OUT (after scripts/plot drew run/charts).
      """
  )

  @Option(help: "The app profile (YAML; profiles/ has the shipped ones).") var profile: String?
  @Flag(
    name: .customLong("dry-run"),
    help: "Print the scenario, a bound on its duration and what the probe says the budget buys; write nothing.")
  var dryRun = false
  @Flag(name: .customLong("no-crash"), help: "Skip the crash trials: the durability in the answer is then declared.")
  var noCrash = false
  @Option(help: "Render the answer again from an advise folder (its profile.yaml, run/ and durability.csv).")
  var report: String?
  @OptionGroup var outputOptions: OutputOptions
  @OptionGroup var workdir: WorkDirectoryOption

  func validate() throws {
    guard (profile == nil) != (report == nil) else {
      throw ValidationError("give --profile FILE, or --report FOLDER")
    }
  }

  func run() throws {
    if let report {
      let folder = URL(fileURLWithPath: report, isDirectory: true)
      let claim = try failing(.badInput) { try RunOutput(folder, existing: .adopt, kind: .advise) }
      defer { claim.release() }
      throw try failing(.failure) { try answer(in: claim) }
    }
    let registry = CommandEnvironment.current.registry()
    // The scenario is built (candidates resolved, parameters checked) before anything else: bad input, nothing run.
    let (profile, plan, planned) = try failing(.badInput) { () throws -> (AppProfile, AdvicePlan, Scenario) in
      let profile = try AppProfile(file: self.profile!, operations: CommandEnvironment.current.adviceOperations)
      let plan = AdvicePlan(profile, backends: registry, workloads: CommandEnvironment.current.workloads())
      return (profile, plan, try plan.scenario())
    }
    // Nothing left to measure (every candidate declares less than the need, or the size rules it out): the answer
    // is known without measuring, and says why each is out.
    guard !plan.candidates.isEmpty else {
      throw CommandFailure(
        exit: .noStrategy,
        message: "advise: no strategy meets everything, and nothing was measured: no candidate can meet the "
          + "need (\(profile.needPhrase)) of \(profile.file):\n"
          + plan.notConsidered.map { "  \($0.candidate): \($0.reason)" }.joined(separator: "\n"))
    }
    let out = URL(
      fileURLWithPath: outputOptions.out ?? OutputLocations.defaultOutput() + "-advise-\(profile.name)",
      isDirectory: true)
    // The run's budget: what the probe left of run_seconds.
    var runBudget = profile.runSeconds
    // The whole command's request, from the probe on: the runs' and the crash trials' own hand a signal on to it.
    let interrupt = InterruptRequest.install()
    defer { interrupt.uninstall() }
    // The scenario is checked (and, with --dry-run, printed) from a private directory (mkdtemp: an unpredictable
    // name, never a planted path) before the advise folder is claimed, so a profile the plan refuses (too large
    // for this machine or its budget) leaves nothing behind. It also keeps the stores the probe fills, from which
    // the run's repetitions start (a copy of a 400,000-message store instead of filling it again).
    let scratch = try failing(.badInput) {
      try WorkDirectory(in: try OutputLocations.workdir(workdir.workdir), prefix: "storebench-")
    }
    defer { scratch.remove() }
    let fills = try failing(.failure) { try scratch.subdirectory("fills") }
    do {
      let scenarioText = try failing(.failure) { try plan.text(of: planned) }
      let scenario = try written(planned, text: scenarioText, at: scratch.url.appendingPathComponent("scenario.yaml"))
      if dryRun { print(scenarioText) }
      do {
        try runScenario(scenario, into: out.appendingPathComponent("run"), dryRun: true, show: dryRun)
      } catch {
        // The message above names the scenario's private copy, gone by now: say whose it was.
        printError(
          "(that scenario is what advise makes of \(profile.file); `storebench advise --profile "
            + "\(profile.file) --dry-run` prints it)")
        throw error
      }
      // Know before measuring: the probe's rates say whether the budget buys the first look.
      let probe = try runProbe(plan, in: scratch.url, keptFills: fills)
      if interrupt.signal != nil { throw ExitCode(interrupt.exit) }
      runBudget = Int((Double(profile.runSeconds) - probe.seconds).rounded(.down))
      let fit = probe.fit(available: Double(runBudget))
      let text = Self.fitText(fit, probe: probe, profile: profile, plan: plan, registry: registry)
      if dryRun || !fit.fits { print(text) } else { printError(text) }
      if !fit.fits && !dryRun { throw ExitCode(Exit.noAnswerYet) }
    }
    if dryRun {
      print(
        "then crash trials on every strategy that meets the budgets (at most \(plan.candidates.count)): "
          + "\(profile.crashTrials) kills, and every crash state of a traced run of "
          + "\(CrashTrials.defaultEnumeratedBatches) batches on the page-cache layer (measured here, "
          + "2026-11-29: about 0.2 s a kill and 1–15 s a traced run; docs/POWER-LOSS.md, \"What it costs\")")
      if let sizes = growthSizes(profile, registry: registry) {
        print(
          "then the growth run: every strategy again at \(sizes.measured) records (the horizon: "
            + "\(sizes.horizon))\(sizes.limit.map { "; the horizon itself would be refused: \($0)" } ?? ""), "
            + "a run budget of \(profile.growth?.runSeconds ?? profile.runSeconds) s")
      }
      return
    }
    // The advise folder: new, empty, or (--force) a previous advise folder, of which only what advise wrote is
    // removed (never the profile it reads).
    let claim = try failing(.badInput) { () throws -> RunOutput in
      let claim = try RunOutput(
        out, existing: outputOptions.force ? .replace : .refuse, kind: .advise,
        inputs: [URL(fileURLWithPath: profile.file)])
      try claim.removePrevious()
      return claim
    }
    defer { claim.release() }
    interrupt.addCleanup(claim.emergencyCleanup)
    let scenario = try written(
      plan, try failing(.badInput) { try plan.scenario(budgetSeconds: runBudget) }, claim: claim, name: "scenario.yaml")
    try failing(.failure) {
      try claim.write(try Data(contentsOf: URL(fileURLWithPath: profile.file)), name: "profile.yaml")
      try claim.record(["run"])
    }
    let run = out.appendingPathComponent("run")
    try runScenario(scenario, into: run, dryRun: false, keptFills: fills)
    if interrupt.signal != nil { throw ExitCode(interrupt.exit) }
    if !noCrash {
      let table = try failing(.failure) {
        try SampleTable(path: run.path, columns: CommandEnvironment.current.columns)
      }
      let fits = Advice(plan: plan, table: table, crashes: [:], promise: registry.declaredPromise)
        .strategies.filter { $0.runs && $0.meetsBudgets }
      try crashTrials(
        fits.map { ($0.backend, $0.variant) }, profile: profile, claim: claim, registry: registry,
        interrupt: interrupt)
    }
    if let sizes = growthSizes(profile, registry: registry) {
      try growthRun(sizes, profile: profile, claim: claim, registry: registry)
      if interrupt.signal != nil { throw ExitCode(interrupt.exit) }
    }
    throw try failing(.failure) { try answer(in: claim) }
  }

  /// Runs the probe (``AdviceProbe``) in `scratch` and reads its estimates; the stores it fills are kept in
  /// `keptFills` for the run.
  private func runProbe(_ plan: AdvicePlan, in scratch: URL, keptFills: URL) throws -> AdviceProbe {
    let probeScenario = try failing(.badInput) { try AdviceProbe.scenario(plan) }
    let scenario = try written(
      probeScenario, text: try failing(.failure) { try probeScenario.yaml() },
      at: scratch.appendingPathComponent("probe.yaml"))
    printError(
      "probing: \(AdviceProbe.repetitions) repetitions of at most \(AdviceProbe.operations) operations of every "
        + "row, to know what the run can afford before it measures")
    let output = scratch.appendingPathComponent("probe")
    let started = monotonicNanoseconds()
    try runScenario(scenario, into: output, dryRun: false, keptFills: keptFills)
    let table = try failing(.failure) {
      try SampleTable(path: output.path, columns: CommandEnvironment.current.columns)
    }
    var probe = AdviceProbe(plan: plan, probe: table, fillsKept: true)
    // Its whole time (the data, the run's start and finish), not only its repetitions'.
    probe.seconds = Double(monotonicNanoseconds() - started) / 1e9
    return probe
  }

  /// What the probe says about the budget, for people.
  static func fitText(
    _ fit: AdviceProbe.Fit, probe: AdviceProbe, profile: AppProfile, plan: AdvicePlan, registry: BackendRegistry
  ) -> String {
    let out = Set(probe.rows.map(\.strategy)).subtracting(fit.contenders).count
    var text =
      "the probe (\(MarkdownTable.clock(probe.seconds)) here, now) puts the first look — "
      + "\(AdvicePlan.minimumRepetitions) repetitions of every operation — of the \(fit.contenders.count) "
      + "strategies still in contention, with stopping the \(out) that already miss a budget, at about "
      + "\(MarkdownTable.clock(fit.needed)), against the \(MarkdownTable.clock(fit.available)) left of run_seconds: "
      + "\(profile.runSeconds)"
    guard !fit.fits else { return "advise: " + text + ": it fits." }
    // The candidates' specs, by the strategy each resolves to.
    var spec: [String: String] = [:]
    for candidate in plan.candidates {
      guard let (descriptor, variant) = AdvicePlan.resolve(candidate, backends: registry) else { continue }
      spec["\(descriptor.name) [\(variant.description)]"] = candidate
    }
    let kept = plan.candidates.filter { candidate in !fit.drop.contains { spec[$0] == candidate } }
    let needed = Int((probe.seconds + fit.needed).rounded(.up))
    text =
      "advise: not measured: the budget does not buy an answer. " + text
      + ". Raise run_seconds to at least \(needed), or leave out the \(fit.drop.count) costliest contenders by "
      + "the probe's cost a day ("
      + fit.drop.map { key in
        let parts = BackendRegistry.parts(ofStrategy: key)
        return registry.label(backend: parts.backend, variant: parts.variant)
      }.joined(separator: ", ") + ") with this line in the profile:\n"
      + "candidates: [\(kept.joined(separator: ", "))]"
    return text
  }

  /// `scenario` written as `text` at `file` (a private directory's), as the run reads it: stamped with the bytes'
  /// hash, so the run records the file it can be repeated from.
  func written(_ scenario: Scenario, text: String, at file: URL) throws -> Scenario {
    let bytes = Data(text.utf8)
    try failing(.failure) { try AtomicFile.write(bytes, to: file) }
    return scenario.stamped(file: file.path, bytes: bytes)
  }

  /// `scenario` written into the advise folder as `name` through its output funnel, with `plan`'s comment.
  func written(_ plan: AdvicePlan, _ scenario: Scenario, claim: RunOutput, name: String) throws -> Scenario {
    let bytes = Data(try failing(.failure) { try plan.text(of: scenario) }.utf8)
    try failing(.failure) { try claim.write(bytes, name: name) }
    return scenario.stamped(file: claim.url.appendingPathComponent(name).path, bytes: bytes)
  }

  /// Runs `scenario` (the value advise built; its file is what the run records) into `output`. `keptFills`: where the
  /// run keeps its filled stores and finds those of an earlier run (``RunRequest/keptFills``).
  func runScenario(_ scenario: Scenario, into output: URL, dryRun: Bool, show: Bool = true, keptFills: URL? = nil)
    throws
  {
    var request = RunRequest(scenarioFile: scenario.file)
    request.output = output.path
    request.workdir = workdir.workdir
    request.keptFills = keptFills?.path
    request.dryRun = dryRun
    try RunCommand.execute(request, scenario: scenario, quiet: false) { outcome, interrupt, _ in
      switch outcome {
      case .planned(let text): if show { print(text, terminator: "") }
      case .finished(let result, _):
        // A signal during the last repetition ends no further one, but it still stops advise.
        if result.interrupted || interrupt.signal != nil {
          throw ExitCode(interrupt.signal == SIGTERM ? Exit.terminated : Exit.interrupted)
        }
      }
    }
  }

  /// Kill and power-cut trials with the profile's record shape, into durability.csv (and a copy in run/), through
  /// the one crash-trial orchestration `crash` uses; a signal stops them before the next trial (exit 130/143).
  private func crashTrials(
    _ strategies: [(backend: String, variant: String)], profile: AppProfile, claim: RunOutput,
    registry: BackendRegistry, interrupt: InterruptRequest
  ) throws {
    guard let executable = RunningExecutable.url else {
      throw CommandFailure(
        exit: .failure, message: "storebench advise: cannot find the storebench executable for crash trials")
    }
    let work = try failing(.badInput) { try OutputLocations.workdir(workdir.workdir) }
    let shape = try failing(.badInput) {
      try RecordShape.articles(
        profile.data.parameters.filter { RecordShape.parameters.map(\.name).contains($0.key) })
    }
    var campaign = CrashCampaign(executable: executable, workRoot: work, seed: 42, interrupt: interrupt)
    campaign.trials = profile.crashTrials
    campaign.shape = shape
    campaign.prefixImages = 1
    let targets = strategies.compactMap { strategy -> CrashCampaign.Target? in
      guard
        let (descriptor, variant) = try? registry.resolve(
          backend: strategy.backend, settings: strategy.variant),
        descriptor.persistent
      else { return nil }
      return CrashCampaign.Target(descriptor: descriptor, variant: variant)
    }
    let outcome = try failing(.failure) {
      try campaign.run(targets) { row in
        printError(
          "\(row.backend) [\(row.variant)] \(row.fault.rawValue) \(row.image.rawValue): \(row.summary)")
      }
    }
    guard case .finished(let rows) = outcome else {
      printError("interrupted by \(interrupt.signalName) during the crash trials; no answer was written")
      throw ExitCode(interrupt.exit)
    }
    try failing(.failure) {
      let csv = try DurabilityRow.csv(rows)
      try claim.write(csv, name: "durability.csv")
      // What was still unsynced after each acknowledgement, which the answer quotes for strategies that lost.
      if rows.contains(where: { $0.unsynced != nil }) {
        try claim.write(try UnsyncedReport.csv(rows), name: UnsyncedEvidence.fileName)
      }
      let run = try RunOutput(claim.url.appendingPathComponent("run"), existing: .adopt, kind: .crash)
      defer { run.release() }
      try run.write(csv, name: "durability.csv")
    }
  }

  /// What the answer's crash trials were, from the results themselves (an answer made with random cuts keeps
  /// saying so when it is rendered again).
  static func crashProvenance(_ crashes: [String: CrashResult], profile: AppProfile) -> String {
    guard !crashes.isEmpty else { return "none (durability declared)" }
    let traced = crashes.values.compactMap { $0.synced?.enumerated == nil ? nil : $0.synced?.acknowledged }
    let trials =
      traced.isEmpty
      ? "\(profile.crashTrials) per fault"
      : "\(profile.crashTrials) kills and every crash state of a traced run of \(traced.max()!) batches on the "
        + "page-cache layer"
    return "durability.csv, \(trials), on the strategies that met the budgets, record shape of the profile"
  }

  /// Judges the folder's run and crash results, writes advice.md and advice.json, prints the answer; returns the
  /// exit.
  private func answer(in claim: RunOutput) throws -> ExitCode {
    let out = claim.url
    let registry = CommandEnvironment.current.registry()
    let profile = try AppProfile(
      file: out.appendingPathComponent("profile.yaml").path,
      operations: CommandEnvironment.current.adviceOperations)
    let plan = AdvicePlan(profile, backends: registry, workloads: CommandEnvironment.current.workloads())
    let run = out.appendingPathComponent("run")
    let folder = try RunFolder(run.path, columns: CommandEnvironment.current.columns)
    try folder.requireComplete()
    let table = try SampleTable(folder: folder)
    let durability = out.appendingPathComponent("durability.csv")
    let crashes =
      FileManager.default.fileExists(atPath: durability.path) ? try CrashResult.read(files: [durability]) : [:]
    let advice = Advice(
      plan: plan, table: table, crashes: crashes, promise: registry.declaredPromise, label: registry.label)
    let environment = folder.environment
    let provenance = Advice.Provenance(
      host: environment.host ?? MachineFacts.hostName,
      cpu: environment.cpuModel ?? MachineFacts.cpuModel,
      cores: environment.cores ?? ProcessInfo.processInfo.activeProcessorCount,
      kernel: environment.kernel ?? MachineFacts.kernel,
      fileSystem: environment.workdirFileSystem ?? "unknown",
      date: String((environment.finishedAt ?? MachineFacts.timestamp()).prefix(10)),
      commit: environment.gitCommit ?? MachineFacts.gitCommit(),
      runDirectory: "run/",
      crashTrials: Self.crashProvenance(crashes, profile: profile))
    let chart = "run/charts/overview.png"
    let growth = try Self.growthAnswer(
      in: out, profile: profile, today: advice, crashes: crashes, registry: registry)
    let powerCut = try UnsyncedEvidence.read(in: out)?.section(
      crashes: crashes.filter { !plan.declaredShort.contains($0.key) }
    ) { key in
      let parts = BackendRegistry.parts(ofStrategy: key)
      return registry.label(backend: parts.backend, variant: parts.variant)
    }
    let markdown = advice.markdown(
      provenance,
      chart: FileManager.default.fileExists(atPath: out.appendingPathComponent(chart).path) ? chart : nil,
      growth: growth, powerCut: powerCut ?? [])
    try claim.write(Data(markdown.utf8), name: "advice.md")
    try claim.write(try advice.json(provenance, growth: growth), name: "advice.json")
    print(markdown, terminator: "")
    printError("answer: \(out.appendingPathComponent("advice.md").path)")
    return ExitCode(
      advice.recommendation != nil ? Exit.ok : advice.noAnswerYet ? Exit.noAnswerYet : Exit.noStrategy)
  }
}
