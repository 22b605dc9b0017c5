import Foundation

/// Runs one repetition of one case: the store-role check, prepare (untimed), measure (timed, nothing else in the
/// region), verify (untimed), then puts the store directory aside with every sidecar file — except for workloads
/// that leave their store unchanged, whose filled store is kept for the case's next repetition until
/// ``release(caseIndex:)`` (and read into the page cache again before that repetition, as its first found it).
///
/// A store is filled once per backend variant and data set (``StoreTemplates``): the first fill is closed and
/// kept, and every later repetition that would fill the same starts from its own copy of it, proven identical by
/// digest (the copy's time counts as preparation, outside the clock).
final class RepetitionRunner {
  let plan: RunPlan
  let workDirectory: WorkDirectory
  /// The storebench executable for launch workloads (nil: they are unsupported).
  let childExecutable: URL?
  /// Directories of filled stores kept for the next repetition, by case.
  private var filled: [Int: URL] = [:]
  /// The filled, closed stores, one per variant and data set, copied for each repetition that would fill one.
  private let templates: StoreTemplates
  /// How long one repetition's library work may run (``RepetitionBound``); nil: unbounded.
  let bound: RepetitionBound?
  /// The test seam's fraction per backend (``TestSlowdown``); empty in every real run.
  let slowdown: [String: Double]
  /// The test seam's targets (``TestExtraSync``); nil in every real run.
  let extraSync: TestExtraSync?
  /// The test seam's planted instructions and allocations (``TestExtraWork``); nil in every real run.
  let extraWork: TestExtraWork?
  /// Counts each repetition's costs over its timed region (nil: not counted).
  let counters: CostCounters?
  /// A counting pass's counter (``CountingPass``), started and stopped with ``counters`` (nil: a timed run).
  let region: (any RegionCounter)?
  /// ``RegionMarks`` around each counted region (verification only).
  let markRegion = RegionMarks.enabled()

  init(
    plan: RunPlan, workDirectory: WorkDirectory, childExecutable: URL?, slowdown: TestSlowdown? = nil,
    extraSync: TestExtraSync? = nil, counters: CostCounters? = nil, keptFills: URL? = nil,
    bound: RepetitionBound? = nil, region: (any RegionCounter)? = nil, extraWork: TestExtraWork? = nil
  ) {
    self.region = region
    self.extraWork = extraWork
    self.bound = bound
    self.plan = plan
    self.workDirectory = workDirectory
    self.childExecutable = childExecutable
    self.slowdown = slowdown?.fractions ?? [:]
    self.extraSync = extraSync
    self.counters = counters
    templates = StoreTemplates(workDirectory: workDirectory, shelf: keptFills)
  }

  /// One repetition of case `caseIndex`, with the whole repetition's wall-clock time in `repetitionSeconds`.
  /// `prior`: the case's operations timed against its budget so far (``RepetitionSchedule/CaseState/budgetTally``).
  /// `counted`: whether the counting pass's counter (``region``) counts this repetition (not a warm-up's).
  func run(caseIndex: Int, round: Int, prior: BudgetTally = BudgetTally(), counted: Bool = true) -> Sample {
    let started = monotonicNanoseconds()
    var sample = runInDirectory(caseIndex: caseIndex, round: round, prior: prior, region: counted ? region : nil)
    sample.repetitionSeconds = Double(monotonicNanoseconds() - started) / 1_000_000_000
    return sample
  }

  /// Puts aside the case's kept store, if any (when the case leaves the rotation).
  func release(caseIndex: Int) {
    if let directory = filled.removeValue(forKey: caseIndex) { workDirectory.retire(directory) }
  }

  private func runInDirectory(
    caseIndex: Int, round: Int, prior: BudgetTally, region: (any RegionCounter)?
  ) -> Sample {
    let planned = plan.cases[caseIndex]
    let reusable = planned.workload.leavesStoreUnchanged
    if let kept = filled.removeValue(forKey: caseIndex) {
      // Other cases ran since this store was last used; whatever they pushed out of the page cache is read back.
      if !planned.workload.startsCold { PageCache.warm(kept) }
      let sample = Self.run(
        planned, round: round, in: kept, storeIsFilled: true, childExecutable: childExecutable,
        seams: seams(planned), counters: counters, prior: prior, bound: bound, region: region)
      keepOrRetire(kept, caseIndex: caseIndex, sample: sample, reusable: reusable)
      return sample
    }
    let directory: URL
    do {
      directory = try workDirectory.subdirectory("round\(round)-case\(caseIndex)")
    } catch {
      var sample = Sample(key: planned.key, repetition: round, dataset: planned.data.fingerprint)
      sample.error = Self.describe(planned, phase: "prepare", error)
      return sample
    }
    // A store that keeps nothing on disk (the memory floor) has no files to copy: it fills every time.
    let sharing =
      planned.backend.persistent
      ? templates.sharing(
        caseIndex: caseIndex, store: "\(planned.backend.name) [\(planned.variant)]", directory: directory)
      : nil
    let sample = Self.run(
      planned, round: round, in: directory, storeIsFilled: false, templates: sharing,
      childExecutable: childExecutable, seams: seams(planned), counters: counters,
      prior: prior, bound: bound, region: region)
    keepOrRetire(directory, caseIndex: caseIndex, sample: sample, reusable: reusable)
    return sample
  }

  /// The test seams for a case: the stretch of its backend and workload, else of its backend; the extra sync.
  private func seams(_ planned: RunPlan.Case) -> TestSeams {
    let (backend, workload) = (planned.backend.name, planned.workload.name)
    return TestSeams(
      slowdown: slowdown["\(backend)/\(workload)"] ?? slowdown[backend] ?? 0,
      extraSyncRate: extraSync?.rate(backend: backend, workload: workload) ?? 0,
      extraWork: extraWork?.work(backend: backend, workload: workload),
      markRegion: markRegion)
  }

  private func keepOrRetire(_ directory: URL, caseIndex: Int, sample: Sample, reusable: Bool) {
    if reusable && sample.status == .ok {
      filled[caseIndex] = directory
    } else {
      workDirectory.retire(directory)
    }
  }

  /// One repetition of `planned` with its store in `directory` (which the caller removes).
  static func run(
    _ planned: RunPlan.Case, round: Int, in directory: URL, storeIsFilled: Bool = false,
    templates: FillSharing? = nil, childExecutable: URL?, seams: TestSeams = TestSeams(),
    counters: CostCounters? = nil, prior: BudgetTally = BudgetTally(), bound: RepetitionBound? = nil,
    region: (any RegionCounter)? = nil
  ) -> Sample {
    var sample = Sample(key: planned.key, repetition: round, dataset: planned.data.fingerprint)
    if planned.workload.requiresStore { sample.durability = planned.backend.promise(planned.variant).rawValue }
    let missing = planned.workload.requires.subtracting(planned.backend.roles)
    guard missing.isEmpty else {
      sample.status = .unsupported
      sample.error = describe(
        planned, phase: "plan",
        StoreError.unsupported(
          "the \(planned.backend.name) store does not play the role \(missing) that \(planned.workload.name) needs"
        ))
      return sample
    }
    var settings = ""
    let backend = planned.backend
    let target = LaunchTarget(
      executable: childExecutable, backend: backend.name, variant: planned.variant,
      directory: directory, persistent: backend.persistent, countingOn: counters?.availability.fileSystem)
    let location = StoreLocation(directory: directory, variant: planned.variant)
    let repetition = Repetition(
      launch: target, readBack: backend.readBack, storeIsFilled: storeIsFilled, templates: templates,
      bound: bound, declared: planned.workload.columns
    ) {
      let store = try backend.open(location)
      settings = store.effectiveSettings
      return store
    }
    if let rule = planned.budget, !rule.budget.perRepetition { repetition.latencies.hold(to: rule, prior: prior) }
    var phase = "prepare"
    do {
      try measure(
        planned.data, repetition, requiresStore: planned.workload.requiresStore, into: &sample,
        phase: &phase, directory: directory, seams: seams, counters: counters, region: region,
        budget: planned.budget?.budget)
      sample.status = .ok
    } catch let error as StoreError {
      if case .unsupported = error { sample.status = .unsupported }
      sample.error = describe(planned, phase: phase, error)
    } catch {
      sample.error = describe(planned, phase: phase, error)
    }
    repetition.finish()
    sample.settings = settings
    sample.notes = repetition.notes
    sample.tableRows = repetition.tableRows
    return sample
  }

  /// The three phases of one case, with the timed region around measure alone.
  private static func measure<Case: WorkloadCase>(
    _ workloadCase: Case, _ run: Repetition, requiresStore: Bool,
    into sample: inout Sample, phase: inout String, directory: URL,
    seams: TestSeams, counters: CostCounters?, region: (any RegionCounter)?, budget: LatencyBudget?
  ) throws {
    let prepareStart = monotonicNanoseconds()
    if requiresStore { try run.openInitialStore() }
    let prepared = try workloadCase.prepare(run)
    sample.prepareSeconds = Double(monotonicNanoseconds() - prepareStart) / 1_000_000_000
    phase = "measure"
    let resetWorked = PeakMemory.reset()
    let residentBefore = PeakMemory.residentKiB()
    sample.loadAverage = LoadAverage.oneMinute()
    let machineBefore = MachineCPU.now()
    let childrenBefore = CPUTime.children()
    let ioBefore = ProcessIO.now()
    let cpuBefore = CPUTime.now()
    if seams.markRegion { RegionMarks.mark() }
    let launchedBefore = region == nil ? 0 : ChildProcess.started
    counters?.start()
    region?.start()
    let start = monotonicNanoseconds()
    var measured: Measured<Case.Outcome>?
    do {
      measured = try workloadCase.measure(prepared, run)
      try run.commitPending()
      if seams.extraSyncRate > 0 {
        try TestExtraSync.sync(directory, times: Int((seams.extraSyncRate * Double(measured!.ops)).rounded()))
      }
      if let work = seams.extraWork { work.plant(times: measured!.ops) }
    } catch is BudgetStopped {
      // Cut short by its budget: what was timed is the evidence; nothing is left to verify.
      measured = nil
    } catch {
      region?.stop()
      counters?.stop()
      throw error
    }
    TestSlowdown.stretch(since: start, by: seams.slowdown)
    let end = run.clockStopped ?? monotonicNanoseconds()
    region?.stop()
    counters?.stop()
    if seams.markRegion { RegionMarks.mark() }
    let cpuAfter = CPUTime.now()
    let ioAfter = ProcessIO.now()
    let machineAfter = MachineCPU.now()
    sample.maxRSSKiB = PeakMemory.highWaterKiB()
    sample.memoryGrowthKiB = PeakMemory.growthKiB(since: residentBefore, resetWorked: resetWorked)
    blackHole(measured?.ops ?? 0)
    sample.latency = run.latencies.percentiles
    let io = ProcessIO.delta(ioBefore, ioAfter)
    let usage = DiskUsage.of(directory)
    sample.wallSeconds = Double(run.workNanoseconds ?? (end - start)) / 1_000_000_000
    sample.cpuUserSeconds = cpuAfter.user - cpuBefore.user
    sample.cpuSystemSeconds = cpuAfter.system - cpuBefore.system

    sample.readBytes = io.readBytes
    sample.writeBytes = io.writeBytes
    sample.storeBytes = usage.apparentBytes
    sample.storeAllocatedBytes = usage.allocatedBytes
    sample.ops = measured?.ops ?? run.latencies.recorded
    if let budget, !budget.perRepetition {
      run.note(.overBudget, String(run.latencies.over))
      if let stop = run.latencies.stop { run.note(.budgetStop, stop.rawValue) }
    }
    sample.costs = counters?.read() ?? [:]
    if let region {
      let counts = try region.read()
      if ChildProcess.started == launchedBefore {
        sample.costs.merge(counts) { _, counted in counted }
      } else {
        // The operation's work ran in a child process: this process's counts are its waiting, which depends on
        // timing; a counting pass counts one process.
        run.appendNote(
          "\(region.pass.rawValue) not counted: the operation's work runs in a child process it launched (a "
            + "counting pass counts this process only)")
      }
    }
    // A child's kernel events count in this process's inherited counters; its bytes (from its own /proc/self/io)
    // reach this process's only when it is reaped, so the workload adds what its children counted.
    for (cost, bytes) in run.childBytes where sample.costs[cost] != nil { sample.costs[cost]! += bytes }
    sample.recordBytes = workloadCase.recordBytesWritten
    phase = "verify"
    if let measured {
      sample.checksum = try workloadCase.verify(measured.outcome, prepared, run)
    } else {
      run.appendNote(
        "cut short by its budget after \(sample.ops) operations, \(run.latencies.over) of them over "
          + "\(budget.map { "\($0)" } ?? "its budget"); not verified")
    }
    if let machineBefore, let machineAfter {
      // This process and the children it launched (reaped by verify) are the work, not contention.
      let own = sample.cpuUserSeconds + sample.cpuSystemSeconds + CPUTime.children().total - childrenBefore.total
      sample.otherCPUSeconds = max(0, machineAfter.busySeconds - machineBefore.busySeconds - own)
    }
  }

  /// An error message naming backend, variant, workload and phase, followed by the library's own text.
  private static func describe(_ planned: RunPlan.Case, phase: String, _ error: any Error) -> String {
    "\(planned.backend.name) [\(planned.variant)] \(planned.workload.name) \(phase): \(error)"
  }
}

extension Runner {
  /// Runs one repetition of `workload` with `parameters` (data from `seed`) on a backend variant, with the store in
  /// `directory`, exactly as a run does: role check, prepare, the timed measure, verify. The contract suites use it.
  public static func runOnce(
    _ workload: any Workload, parameters: WorkloadParameters, seed: UInt64,
    backend: BackendDescriptor, variant: Variant, in directory: URL,
    childExecutable: URL?
  ) -> Sample {
    var shaped = DatasetGenerator(seed: seed)
    shaped.shape = RecordShape(parameters)
    let key = RowKey(
      scenario: "once", workload: workload.name, backend: backend.name, variant: variant.description,
      size: parameters[workload.sizeParameter], parameters: parameters.description)
    let planned = RunPlan.Case(
      key: key, workload: workload, parameters: parameters, backend: backend, variant: variant,
      data: workload.makeCase(parameters, generator: shaped))
    return RepetitionRunner.run(planned, round: 1, in: directory, childExecutable: childExecutable)
  }
}
