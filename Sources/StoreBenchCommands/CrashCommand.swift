import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore
import StoreBenchCrash

/// `storebench crash`: what each storage strategy loses when the app is killed.
struct CrashCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "crash",
    abstract:
      "Kill a writing child, or cut its power, at random moments; report what each backend variant lost (durability.csv).",
    discussion: """
      For every backend variant of the scenario, a child process commits batches of articles and acknowledges \
      each one after its commit returned; it is killed with SIGKILL at a seeded random moment, and a fresh \
      process reopens the store, runs the backend's integrity check and sorts the articles into complete, \
      partial and lost batches. A kill cannot show power loss: the page cache survives a killed process. \
      With --fault power-loss (the default) each persistent variant also writes on an in-memory FUSE layer that \
      models the page cache (docs/POWER-LOSS.md). With --cuts enumerate (the default) the writer commits \
      --batches batches there once, traced, and every crash state the model allows at every persistence point \
      (before and after each sync, after each acknowledgement) is checked in a fresh process: the synced state \
      and the in-order prefixes of what was still pending (--states-per-point at most, a seeded sample beyond), \
      with --tear page also writes torn at a 4 KiB page; unsynced.csv says what was still only in the page \
      cache after each acknowledgement. With --cuts random the power is cut at --trials random moments, each \
      checked through its synced image and --prefix-images prefix images. \
      Without /dev/fuse those rows say "unavailable". \
      durability.csv is rewritten after every finished variant; Ctrl-C (SIGINT) or SIGTERM stops before the \
      next kill, keeps the finished variants and exits 130 or 143.
      """
  )

  @Option(help: "The scenario whose backend variants are tested.") var scenario = "scenarios/default.yaml"
  @Option(name: .customLong("backend"), help: "Only this backend (repeatable).") var backends: [String] = []
  @Option(help: "kill, or power-loss (the kill rows are run too, as the reference the power cut is read against).")
  var fault = FaultChoice.powerLoss
  @Option(name: [.customLong("trials"), .customLong("kills")], help: "Counted trials per backend variant and fault.")
  var trials = 50
  @Option(name: .customLong("prefix-images"), help: "Prefix images checked per power cut (besides the synced one).")
  var prefixImages = CrashTrials.defaultPrefixImages
  @Option(help: "Power cuts: enumerate (every crash state of a traced run) or random (--trials random moments).")
  var cuts = CutsChoice.enumerate
  @Option(name: .customLong("batches"), help: "Batches the traced run commits after the settled first (enumerate).")
  var enumeratedBatches = CrashTrials.defaultEnumeratedBatches
  @Option(
    name: .customLong("states-per-point"),
    help: "Prefix states per persistence point at most; a seeded sample beyond (enumerate).")
  var statesPerPoint = CrashStatePlan.defaultBound
  @Option(help: "Torn writes: page (a write spanning several 4 KiB pages may reach the disk in part) or none.")
  var tear = TearChoice.none
  @Option(help: "Articles per batch (one app operation).") var batch = CrashTrials.defaultBatchSize
  @Option(name: .customLong("max-delay-ms"), help: "The kill comes 1…N ms after the first acknowledgement.")
  var maxDelay = CrashTrials.defaultMaxDelayMilliseconds
  @Option(
    name: .customLong("param"),
    help: ArgumentHelp(
      "Set the articles' record shape (repeatable): title_words, summary_bytes, summary_max_bytes, e.g. summary_bytes=2000.",
      valueName: "key=value"))
  var parameterAssignments: [ParameterAssignment] = []
  @OptionGroup var seedOption: SeedOption
  @OptionGroup var outputOptions: OutputOptions
  @OptionGroup var workdir: WorkDirectoryOption

  var seed: UInt64? { seedOption.seed }

  /// The record shape `--param` asks for.
  var shape: RecordShape {
    get throws {
      try RecordShape.articles(Dictionary(uniqueKeysWithValues: parameterAssignments.map { ($0.key, $0.value) }))
    }
  }

  func validate() throws {
    guard (1...100_000).contains(trials) else {
      throw ValidationError("--trials must be in 1...100000, got \(trials)")
    }
    guard (0...100).contains(prefixImages) else {
      throw ValidationError("--prefix-images must be in 0...100, got \(prefixImages)")
    }
    guard (1...10_000).contains(enumeratedBatches) else {
      throw ValidationError("--batches must be in 1...10000, got \(enumeratedBatches)")
    }
    guard (1...100_000).contains(statesPerPoint) else {
      throw ValidationError("--states-per-point must be in 1...100000, got \(statesPerPoint)")
    }
    if tear == .page && cuts == .random {
      throw ValidationError("--tear page needs --cuts enumerate: random cuts keep every write whole")
    }
    guard (1...100_000).contains(batch) else {
      throw ValidationError("--batch must be in 1...100000, got \(batch)")
    }
    guard (1...600_000).contains(maxDelay) else {
      throw ValidationError("--max-delay-ms must be in 1...600000, got \(maxDelay)")
    }
    if let repeated = Dictionary(grouping: parameterAssignments, by: \.key).first(where: { $0.value.count > 1 })?
      .key
    {
      throw ValidationError("--param \(repeated) is given twice")
    }
    do { _ = try shape } catch { throw ValidationError("--param \(error)") }
  }

  func run() throws {
    let registry = CommandEnvironment.current.registry()
    let scenarioFile = try failing(.badInput) { try BundledScenarios.resolve(scenario) }
    let (plan, claim, work) = try failing(.badInput) {
      if let out = outputOptions.out { try RunOutput.checkPath(out) }
      let parser = ScenarioParser(backends: registry, workloads: CommandEnvironment.current.workloads())
      let plan = try parser.parse(file: scenarioFile).narrowed(backends: backends, workloads: [])
      let work = try OutputLocations.workdir(workdir.workdir)
      // An output of its own: new or empty, a run folder (the crash results go beside its rows), or (--force) a
      // previous crash run's, of which only the crash files are replaced.
      let claim = try RunOutput(
        URL(
          fileURLWithPath: outputOptions.out ?? OutputLocations.defaultOutput() + "-crash", isDirectory: true),
        existing: outputOptions.force ? .replace : .adopt, kind: .crash,
        inputs: [URL(fileURLWithPath: scenarioFile)])
      try claim.removePrevious()
      return (plan, claim, work)
    }
    // A run that fails or is stopped before its first row leaves no empty folder it made (rmdir: only when empty).
    defer { claim.releaseRemovingIfEmpty() }
    let output = claim.url
    for path in WorkDirectory.removeAbandoned(in: work) {
      printError("removed \(path): a work directory left by a storebench command that is no longer running")
    }
    guard let executable = RunningExecutable.url else {
      throw CommandFailure(
        exit: .failure,
        message: "storebench crash: cannot find the storebench executable to start writer children")
    }
    for mountpoint in PageCacheMount.removeStale() {
      printError("unmounted a page-cache layer left by an earlier run: \(mountpoint)")
    }
    let interrupt = InterruptRequest.install()
    defer { interrupt.uninstall() }
    interrupt.addCleanup(claim.emergencyCleanup)
    let file = output.appendingPathComponent("durability.csv")
    let started = Date()
    let variants = plan.backends
    var campaign = CrashCampaign(
      executable: executable, workRoot: work, seed: seed ?? plan.seed, interrupt: interrupt)
    campaign.faults = fault.faults
    campaign.trials = trials
    campaign.batchSize = batch
    campaign.shape = try shape
    campaign.maxDelayMilliseconds = maxDelay
    campaign.prefixImages = prefixImages
    campaign.cuts = cuts.method
    campaign.enumeratedBatches = enumeratedBatches
    campaign.statesPerPoint = statesPerPoint
    campaign.tornWrites = tear == .page
    campaign.droppedSync = try failing(.badInput) { try TestDroppedSync.count() }
    if let dropped = campaign.droppedSync { printError(TestDroppedSync.warning(dropped)) }
    campaign.delayedSync = try failing(.badInput) { try TestDelayedSync.milliseconds() }
    if let delayed = campaign.delayedSync { printError(TestDelayedSync.warning(delayed)) }
    let targets = variants.map { CrashCampaign.Target(descriptor: registry[$0.backend]!, variant: $0.variant) }
    let outcome = try failing(.failure) {
      try campaign.run(
        targets,
        row: { row in
          printError(
            "\(row.backend) [\(row.variant)] \(row.fault.rawValue) \(row.image.rawValue): \(row.summary)")
        },
        finishedTarget: { rows, finished in
          try claim.write(try DurabilityRow.csv(rows), name: "durability.csv")
          if rows.contains(where: { $0.unsynced != nil }) {
            try claim.write(try UnsyncedReport.csv(rows), name: "unsynced.csv")
          }
          try claim.write(
            try environment(plan: plan, work: work, started: started, variants: finished),
            name: "durability.environment.json")
        })
    }
    guard case .finished(let rows) = outcome else {
      guard case .interrupted(_, let finished) = outcome else { return }
      printError(
        "interrupted by \(interrupt.signalName): \(finished) of \(variants.count) variants finished"
          + (finished == 0 ? "; nothing was written" : "; their rows are in \(file.path)"))
      if finished == 0 { claim.releaseRemovingIfEmpty() }
      throw ExitCode(interrupt.exit)
    }
    for line in [DurabilityRow.header, DurabilityRow.header.map { _ in "---" }] + rows.map(\.fields) {
      print("| " + line.joined(separator: " | ") + " |")
    }
    print("wrote \(file.path)")
  }
}

extension CrashCommand {
  /// `durability.environment.json`: what produced the crash results (machine, build, scenario, trial settings).
  func environment(plan: Scenario, work: URL, started: Date, variants: Int) throws -> Data {
    let record: [String: Any] = [
      "storebench_version": StoreBenchVersion.current, "git_commit": MachineFacts.gitCommit(),
      "build_configuration": MachineFacts.buildConfiguration, "host": MachineFacts.hostName,
      "cpu_model": MachineFacts.cpuModel, "cores": ProcessInfo.processInfo.activeProcessorCount,
      "kernel": MachineFacts.kernel, "workdir_filesystem": WorkDirectory.fileSystemType(of: work.path),
      "scenario_name": plan.name, "scenario_file": plan.file, "scenario_hash": plan.fileHash,
      "seed": seed ?? plan.seed, "fault": fault.rawValue, "trials": trials, "prefix_images": prefixImages,
      "cuts": cuts.rawValue, "batches": enumeratedBatches, "states_per_point": statesPerPoint,
      "tear": tear.rawValue,
      "warnings": ((try? TestDroppedSync.count()).flatMap { $0 }.map { [TestDroppedSync.warning($0)] } ?? [])
        + ((try? TestDelayedSync.milliseconds()).flatMap { $0 }.map { [TestDelayedSync.warning($0)] } ?? []),
      "batch": batch, "max_delay_ms": maxDelay, "variants_finished": variants,
      "record_shape": Dictionary(uniqueKeysWithValues: parameterAssignments.map { ($0.key, $0.value) }),
      "command_line": CommandLine.arguments,
      "started_at": MachineFacts.timestamp(started), "finished_at": MachineFacts.timestamp(),
    ]
    return try JSONSerialization.data(
      withJSONObject: record, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
      + Data("\n".utf8)
  }
}

/// `--fault`: which faults `storebench crash` produces.
enum FaultChoice: String, ExpressibleByArgument, CaseIterable {
  case kill
  case powerLoss = "power-loss"

  /// A power-loss run also kills: the kill rows are the reference its rows are read against.
  var faults: [CrashFault] { self == .kill ? [.kill] : [.kill, .powerLoss] }
}

/// `--cuts`: how power cuts are chosen.
enum CutsChoice: String, ExpressibleByArgument, CaseIterable {
  case enumerate, random

  var method: DurabilityRow.Method { self == .enumerate ? .enumerated : .random }
}

/// `--tear`: whether a write may reach the disk in part.
enum TearChoice: String, ExpressibleByArgument, CaseIterable {
  case none, page
}
