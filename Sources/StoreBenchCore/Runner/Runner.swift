import Foundation

/// Drives a scenario: interleaved rounds of warm-up and measured repetitions over every case, streaming
/// samples to `samples.csv` and writing `summary.csv` and `environment.json` when done.
///
/// Reports go to `Options.output`, a private staging directory the caller publishes (``RunOutput``). A signal
/// (``Options/interrupt``) stops the run after the current repetition with every completed row written.
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
    /// Receives every repetition's progress (the CLI's progress line); nil: each repetition's line goes to
    /// ``progress``.
    public var onRepetition: ((RunProgress) -> Void)?
    /// Checked between repetitions: once set, the run stops, writes what it completed and says it was interrupted.
    public var interrupt = InterruptRequest()
    /// The samples of the interrupted run this one continues (``RunRequest/resume``).
    public var resumeFrom: SampleTable?
    /// The request the run answers; its input part is recorded in environment.json for `--resume`.
    public var request: RunRequest?
    /// FNV-1a of the storebench executable (recorded; a resumed run must use the same binary).
    public var binaryHash = ""
    /// Count each repetition's costs (``CostCounters``). Off by default here (a test process runs many runs on
    /// many threads at once, and every thread gets descriptors); `storebench run` turns it on.
    public var counters = false
    /// Where filled stores are kept past the run (``RunRequest/keptFills``); nil: in the work directory.
    public var keptFills: URL?
    /// The counting passes to run after the timed repetitions (``CountingPasses``; they need ``request`` and
    /// ``childExecutable``).
    public var countingPasses: [CountingPass] = []
    /// This run is a counting pass's child (`storebench count-pass`): its pass's counter runs in every region, and
    /// no budget or repetition bound applies (the tool slows the work down).
    public var countingChild: CountingPass?
    /// The counting pass's child runs the plan's cases at these indices (nil: every case).
    public var countingCases: [Int]?

    public init(workdir: URL, output: URL, commandLine: [String], progress: @escaping (String) -> Void) {
      self.workdir = workdir
      self.output = output
      self.commandLine = commandLine
      self.progress = progress
    }
  }

  /// What a finished (or interrupted) run produced.
  public struct Result {
    public let summary: [SummaryBuilder.Row]
    public let allSucceeded: Bool
    public let manifest: RunEnvironment
    /// A signal stopped the run before every case finished.
    public let interrupted: Bool
    public let finishedCases: Int
    public let totalCases: Int
  }

  /// Samples that cannot continue this run, or a run that cannot count as asked.
  public struct ResumeError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
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
      warnings.append(
        "work directory \(options.workdir.path) is memory-backed (tmpfs): disk costs are not measured")
    }
    let slowdown = try TestSlowdown()
    if let slowdown { warnings.append(slowdown.warning) }
    let extraSync = try TestExtraSync()
    if let extraSync { warnings.append(extraSync.warning) }
    let extraWork = try TestExtraWork()
    if let extraWork { warnings.append(extraWork.warning) }
    for warning in warnings { options.progress("WARNING: \(warning)") }

    let region = try options.countingChild.map { try $0.counter().get() }
    options.progress("generating data (seed \(scenario.seed))…")
    var plan = try RunPlan(scenario: scenario, backends: backends, workloads: workloads)
    if region != nil { plan.removeBudgets() }
    if let indices = options.countingCases { try plan.keep(indices: indices) }
    let workDirectory = try WorkDirectory(
      in: options.workdir, prefix: "storebench-", removedOnSignal: options.interrupt)
    defer { workDirectory.remove() }
    // Opened on this thread, before any repetition: later threads and children inherit the events.
    let fileSystem = WorkDirectory.fileSystemType(of: workDirectory.url.path)
    let counters = options.counters ? CostCounters.open(fileSystem: fileSystem) : nil
    defer { counters?.close() }
    let floorsAtStart = try? DiskFloors.probe(in: workDirectory.url)
    let samples = try SampleWriter(
      url: options.output.appendingPathComponent("samples.csv"), columns: workloads.columns)
    var summary = SummaryBuilder(
      order: plan.cases.map(\.key), targetPrecision: scenario.policy.targetPrecision,
      schedule: scenario.policy.schedule, columns: workloads.columns)
    let policy = scenario.policy
    var schedule = RepetitionSchedule(
      policy: policy, caseCount: plan.cases.count, race: policy.racing ? plan.raceGroups : nil,
      strategies: plan.budgetedStrategies)
    options.progress("repetitions: \(policy)")
    var interrupted = false
    var passes = CountingPasses.Outcome()
    var countingSeconds: Double?
    // The workloads' own tables (``Workload/tables``), by file: their header and the verified repetitions' rows.
    var tables: [String: (header: [String], rows: [[String]])] = [:]
    for case_ in plan.cases {
      for table in case_.workload.tables where tables[table.file] == nil {
        tables[table.file] = (table.header, [])
      }
    }
    do {
      let earlier = try resume(
        options.resumeFrom, plan: plan, schedule: &schedule, summary: &summary, samples: samples)
      let repetitionRunner = RepetitionRunner(
        plan: plan, workDirectory: workDirectory,
        childExecutable: options.childExecutable, slowdown: slowdown, extraSync: extraSync,
        counters: counters, keptFills: options.keptFills,
        bound: region == nil ? RepetitionBound(policy: policy, interrupt: options.interrupt) : nil,
        region: region, extraWork: extraWork)
      let clockStart = monotonicNanoseconds()
      func elapsed() -> Double { earlier + Double(monotonicNanoseconds() - clockStart) / 1_000_000_000 }
      var round = 0
      var done = 0
      rounds: while schedule.activeCount > 0 {
        let warmup = round < policy.warmup
        let label = warmup ? "warm-up \(round + 1)/\(policy.warmup)" : "repetition \(round - policy.warmup + 1)"
        if round > 0 && options.onRepetition == nil {
          options.progress(etaLine(round: label, schedule: schedule, elapsed: elapsed()))
        }
        // A case resumed with measured repetitions needs no warm-up.
        for caseIndex in plan.order(round: round)
        where schedule.runsThisRound(caseIndex) && !(warmup && schedule.cases[caseIndex].measured > 0) {
          if options.interrupt.signal != nil { break rounds }
          // A counting pass counts measured repetitions only: its warm-up runs every code path once, uncounted,
          // so that no count holds a one-time cost (lazy initialization, symbol binding) that whichever case ran
          // first in the process would pay.
          var sample = repetitionRunner.run(
            caseIndex: caseIndex, round: round, prior: schedule.cases[caseIndex].budgetTally, counted: !warmup)
          // A repetition the signal cut short is not a result: the resumed run repeats it.
          if options.interrupt.signal != nil && sample.status != .ok { break rounds }
          if let rule = plan.cases[caseIndex].budget {
            schedule.holdToBudget(caseIndex, &sample, rule: rule, warmup: warmup)
          }
          let counts = schedule.record(
            caseIndex, sample, seconds: sample.repetitionSeconds ?? 0,
            warmup: warmup, runElapsed: elapsed())
          sample.repetition = counts ? schedule.cases[caseIndex].measured : 0
          done += 1
          if let onRepetition = options.onRepetition {
            let left = schedule.remaining(runElapsed: elapsed())
            onRepetition(
              RunProgress(
                done: done, expectedTotal: done + left.repetitions, elapsed: elapsed(),
                secondsLeft: left.seconds, round: label, casesLeft: schedule.activeCount,
                cases: plan.cases.count, line: progressLine(nil, sample),
                failed: sample.status == .failed))
          } else {
            options.progress(progressLine(label, sample))
          }
          if counts {
            if sample.status == .ok {
              let key = WorkloadTableKey.cells(sample.key, repetition: sample.repetition)
              for (file, rows) in sample.tableRows { tables[file]?.rows += rows.map { key + $0 } }
            }
            try samples.append(sample)
            summary.add(sample)
          }
          if !schedule.isActive(caseIndex) { repetitionRunner.release(caseIndex: caseIndex) }
        }
        if !warmup {
          schedule.applyRace()
          schedule.applyBudget(runElapsed: elapsed())
          for index in plan.cases.indices where !schedule.isActive(index) {
            repetitionRunner.release(caseIndex: index)
          }
        }
        round += 1
      }
      interrupted = schedule.activeCount > 0
      for (index, planned) in plan.cases.enumerated() {
        let state = schedule.cases[index]
        summary.conclude(
          planned.key, stopped: state.stop?.rawValue ?? (interrupted ? "interrupted" : ""),
          caseSeconds: state.spent)
      }
      if !interrupted && !options.countingPasses.isEmpty {
        let passesStart = monotonicNanoseconds()
        passes = try runPasses(plan: plan, options: options, schedule: schedule)
        countingSeconds = Double(monotonicNanoseconds() - passesStart) / 1e9
        if options.interrupt.signal != nil {
          // Stopped during the passes: the timed rows are whole; `--resume` runs the passes again.
          interrupted = true
        } else {
          for sample in passes.samples {
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
    var manifest = makeManifest(
      scenario: scenario, plan: plan, options: options, warnings: warnings, started: started)
    manifest.diskFloorsAtStart = floorsAtStart
    manifest.diskFloorsAtEnd = try? DiskFloors.probe(in: workDirectory.url)
    manifest.storage = StorageFacts.of(options.workdir.path)
    manifest.repetitionPolicy = scenario.policy.description
    manifest.repetitionPolicyValues = .init(scenario.policy)
    manifest.counters = counters?.availability ?? CostCounters.Availability.off(fileSystem: fileSystem)
    manifest.countingSeconds = countingSeconds
    for (pass, reason) in passes.missing.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      manifest.counters = manifest.counters?.with(pass, missingBecause: reason)
    }
    manifest.binaryHash = options.binaryHash
    manifest.resumedFrom = options.resumeFrom.map { _ in options.output.deletingLastPathComponent().path }
    let finished = schedule.cases.count { $0.stop != nil }
    if interrupted {
      manifest.interrupted =
        "\(options.interrupt.signalName): \(finished) of \(plan.cases.count) cases finished"
        + (countingSeconds != nil ? "; the counting passes were stopped (--resume runs them again)" : "")
    }
    try AtomicFile.write(
      CSVFormat.encode(summary.csvRows), to: options.output.appendingPathComponent("summary.csv"))
    for (file, table) in tables.sorted(by: { $0.key < $1.key }) where !table.rows.isEmpty {
      try AtomicFile.write(
        CSVFormat.encode([table.header] + table.rows), to: options.output.appendingPathComponent(file))
    }
    let environment = try manifest.encoded(invocation: options.request)
    try AtomicFile.write(environment, to: options.output.appendingPathComponent("environment.json"))
    try AtomicFile.write(
      summary.json(environment: environment), to: options.output.appendingPathComponent("summary.json"))
    return Result(
      summary: summary.summary, allSucceeded: summary.allSucceeded, manifest: manifest,
      interrupted: interrupted, finishedCases: finished, totalCases: plan.cases.count)
  }

  /// Runs the counting passes (``CountingPasses``) once every case has its timed repetitions.
  private func runPasses(plan: RunPlan, options: Options, schedule: RepetitionSchedule) throws
    -> CountingPasses.Outcome
  {
    guard let request = options.request, let executable = options.childExecutable else {
      throw ResumeError(
        "counting passes need the run's request and the storebench executable (storebench run --count)")
    }
    return CountingPasses(
      passes: options.countingPasses, request: request, executable: executable, workdir: options.workdir,
      interrupt: options.interrupt, progress: options.progress
    ).run(plan: plan, costs: schedule.cases.map(\.meanCost))
  }

  /// Feeds an interrupted run's samples back in: each becomes a measured repetition of its case (written again
  /// as it was), so the run goes on where it stopped. Returns the seconds those repetitions took, which count
  /// against the run's budget.
  private func resume(
    _ table: SampleTable?, plan: RunPlan, schedule: inout RepetitionSchedule,
    summary: inout SummaryBuilder, samples: SampleWriter
  ) throws -> Double {
    guard let table else { return 0 }
    let index = Dictionary(plan.cases.enumerated().map { ($0.element.key, $0.offset) }) { first, _ in first }
    var seconds = 0.0
    for (row, sample) in zip(table.cells, table.samples()) where sample.status != .counted {
      guard let caseIndex = index[sample.key] else {
        throw ResumeError(
          "\(table.source): row \(sample.key.workload) \(sample.key.backend) [\(sample.key.variant)] "
            + "is not in this scenario; it cannot be resumed")
      }
      let cost = sample.repetitionSeconds ?? 0
      seconds += cost
      var judged = sample
      if let rule = plan.cases[caseIndex].budget {
        schedule.holdToBudget(caseIndex, &judged, rule: rule, warmup: false)
      }
      _ = schedule.record(caseIndex, judged, seconds: cost, warmup: false, runElapsed: 0)
      try samples.append(cells: row)
      summary.add(sample)
    }
    schedule.applyRace()
    return seconds
  }

  private func etaLine(round: String, schedule: RepetitionSchedule, elapsed: Double) -> String {
    let left = schedule.secondsLeft(runElapsed: elapsed)
    return "[\(round)] \(schedule.activeCount) of \(schedule.cases.count) cases still running; "
      + "\(MarkdownTable.clock(elapsed)) elapsed, about \(MarkdownTable.clock(left)) left"
  }

  private func progressLine(_ label: String?, _ sample: Sample) -> String {
    let key = sample.key
    let outcome =
      sample.status == .ok
      ? MarkdownTable.duration(sample.wallSeconds) : "\(sample.status.rawValue): \(sample.error)"
    return (label.map { "[\($0)] " } ?? "")
      + "\(key.workload) size=\(key.size) \(key.backend) [\(key.variant)]: \(outcome)"
  }

  private func makeManifest(
    scenario: Scenario, plan: RunPlan, options: Options, warnings: [String],
    started: Date
  ) -> RunEnvironment {
    var libraries: [String: String] = [:]
    for name in Set(plan.cases.map(\.backend.name)).sorted() {
      libraries.merge(backends[name]?.libraryVersions() ?? [:]) { first, _ in first }
    }
    let perRepetition = PeakMemory.reset()
    var environment = RunEnvironment()
    (environment.storebenchVersion, environment.gitCommit) = (StoreBenchVersion.current, MachineFacts.gitCommit())
    (environment.buildConfiguration, environment.swiftVersion) =
      (MachineFacts.buildConfiguration, MachineFacts.swiftVersion)
    (environment.host, environment.cpuModel, environment.kernel) =
      (MachineFacts.hostName, MachineFacts.cpuModel, MachineFacts.kernel)
    environment.cores = ProcessInfo.processInfo.activeProcessorCount
    environment.memoryBytes = Int64(clamping: ProcessInfo.processInfo.physicalMemory)
    environment.workdir = options.workdir.path
    environment.workdirFileSystem = WorkDirectory.fileSystemType(of: options.workdir.path)
    (environment.libraries, environment.seed, environment.datasets) = (libraries, scenario.seed, plan.datasets)
    (environment.scenarioName, environment.scenarioFile) = (scenario.name, scenario.file)
    (environment.scenarioHash, environment.commandLine) = (scenario.fileHash, options.commandLine)
    environment.peakMemoryMethod =
      perRepetition
      ? "VmHWM after resetting it through /proc/self/clear_refs before each measured operation"
      : "ru_maxrss (process lifetime peak; per-repetition reset unavailable)"
    environment.medianIntervalMethod = MedianInterval.method
    (environment.warnings, environment.binaryHash) = (warnings, "")
    environment.startedAt = MachineFacts.timestamp(started)
    environment.finishedAt = MachineFacts.timestamp()
    return environment
  }
}

/// Where a run stands after a repetition (for a progress line).
public struct RunProgress: Sendable {
  /// Repetitions done in this session, warm-ups included.
  public let done: Int
  /// `done` plus the repetitions the policy still expects (an estimate: it changes as rows reach precision).
  public let expectedTotal: Int
  public let elapsed: Double
  public let secondsLeft: Double
  /// "warm-up 1/1", "repetition 3".
  public let round: String
  public let casesLeft: Int
  public let cases: Int
  /// The repetition: workload, size, backend, variant and its time or error.
  public let line: String
  public let failed: Bool
}

/// The version of storebench.
public enum StoreBenchVersion {
  public static let current = "0.1.0"
}
