import Foundation
import StoreBenchCore

/// `shared`: one store, several processes — an app and its extension (a widget, a share extension, a notification
/// service) opening the same container. The runner starts the processes (`storebench child`), each opens the store
/// in the backend's idiom for sharing (``ProcessSharingStore``), and all wait at a barrier; the repetition ends when
/// every process has done its planned operations. The app does `count` operations closed loop (saves, and edits of
/// its own recent saves) with a pause of `pause_us` between two; each extension works open loop at a seeded Poisson
/// `rate` a second, its planned operations being the arrivals within the app's least span, so each arrives while the
/// app works: it reads the newest screen and writes a small change of its own (a mark, a setting, a draft) — see
/// ``SharedPlan``.
///
/// The row's time is the processes' own time in their operations (the app's pauses are not in it), so `wall_s / ops`
/// is the mean operation's; its latency columns are the app's operations; `ops` counts every process's acknowledged
/// operations. The extension's figures (`extension_ops`, its percentiles) count only its operations that arrived
/// while the app was working; a repetition whose extension did fewer than planned, or none while the app worked, was
/// **not exercised**: its extension figures stay empty and its note says so. Lock
/// waits, refusals, retries, the longest lock hold and lost updates are summed into their columns, and `processes`
/// has each process's own figures and counted costs. Verification reads the store back and requires every
/// acknowledged write (``SharedVerification``).
public struct SharedWorkload: Workload {
  public init() {}
  public let name = "shared"
  public var childJobs: [any ChildJob.Type] { [SharedWorkerJob.self, SharedCheckJob.self] }

  /// Lost updates, refusals, waits and the extension's latency, beside the time; a row whose extension never
  /// worked beside the app shows "not exercised".
  public var figures: WorkloadFigures? {
    WorkloadFigures(
      [
        .init(.lostUpdates, "lost updates"), .init(.destroyedRecords, "destroyed"),
        .init(.refusals, "refusals"), .init(.retries, "retries"), .init(.lockWaits, "lock waits"),
        .init(.lockWaitSeconds, "waiting for locks"), .init(.lockHoldSeconds, "longest lock hold"),
        .init(.extensionOps, "extension operations with the app working"),
        .init(.extensionP50, "extension p50"), .init(.extensionP99, "extension p99"),
      ],
      counting: "app operations",
      introduction: "`shared`: the app and its extension as two processes on one store, summed over both: "
        + "acknowledged writes lost to the other process's later whole-file rewrite, attempts the library "
        + "refused (SQLITE_BUSY, GDBM_CANT_BE_WRITER) and their retries, lock waits (busy-handler calls) and "
        + "the time spent waiting, the longest write lock held, the extension's operations that arrived while "
        + "the app worked and their latency from arrival (\"not exercised\": none did, so the row's counts "
        + "rest on nothing; each process's own figures are in samples.csv's `processes`).",
      introducedBy: [.lockWaits], exercisedBy: .extensionOps)
  }

  public func missingNotes(_ notes: [SampleColumn: String]) -> String? {
    notes[.processes]?.hasPrefix("app: ") == true && notes[.note]?.hasPrefix("sharing: ") == true
      && Int(notes[.lostUpdates] ?? "") != nil && Int(notes[.refusals] ?? "") != nil
      ? nil : "the row does not record each process, how the store was shared, lost updates and refusals"
  }
  public let summary =
    "an app saves N articles while its extension (another process) reads the newest screen and writes marks, "
    + "settings and drafts at a Poisson rate: waits, refusals, lost updates"
  public let sizeParameter = ParameterName.count
  public let requires: StoreRoles = [.processes, .persistence]
  /// The store ends with whatever each process managed to do before the app finished.
  public let resultDependsOnTiming = true
  public let smokeParameters = [
    "count": 100, "stored": 100, "screen": 20, "rate": 50, "edit_percent": 20, "retries": 5, "extensions": 1,
    "pause_us": 2_000,
  ]
  public let parameters =
    [
      .count(1_000, "the app's operations (saves, and edits of its recent saves)", max: 1_000_000),
      .stored(1_000, "articles stored before the processes start"),
      WorkloadParameter(.screen, default: 20, range: 1...10_000, summary: "newest articles an extension reads"),
      WorkloadParameter(
        .rate, default: 50, range: 1...10_000,
        summary: "each extension's operations a second (Poisson arrivals)"),
      .percent(.editPercent, 20, "share of the app's operations that edit one of its own recent saves"),
      WorkloadParameter(
        .retries, default: 5, range: 0...20, summary: "retries of a refused attempt (1, 2, 4, … ms apart)"),
      WorkloadParameter(.extensions, default: 1, range: 1...8, summary: "extension processes beside the app"),
      WorkloadParameter(
        .pauseMicroseconds, default: 2_000, range: 0...1_000_000,
        summary: "the app's pause between two operations (a user's time between saves; untimed), µs"),
    ] + RecordShape.parameters

  public func validate(_ parameters: WorkloadParameters) throws {
    try WorkloadParameter.validateScreen(parameters)
    let plan = Self.parameters(parameters)
    guard plan.expectedExtensionOperations >= 1 else {
      throw ParameterError(
        "the extension would plan no operation: its arrivals must fall within the app's (count − 1) × pause_us "
          + "= \(plan.appSpanNanoseconds / 1_000) µs, and rate (\(plan.rate) a second) × that span is "
          + String(format: "%.2f", plan.expectedExtensionOperations) + "; raise count, pause_us or rate")
    }
  }

  static func parameters(_ parameters: WorkloadParameters) -> SharedPlan.Parameters {
    SharedPlan.Parameters(
      count: parameters[.count], stored: parameters[.stored], screen: parameters[.screen],
      rate: parameters[.rate], editPercent: parameters[.editPercent], retries: parameters[.retries],
      extensions: parameters[.extensions], pauseMicroseconds: parameters[.pauseMicroseconds])
  }

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    let plan = SharedPlan(parameters: Self.parameters(parameters), generator: generator)
    return Case(plan: plan)
  }

  final class Case: WorkloadCase {
    let plan: SharedPlan
    let fingerprint: String

    init(plan: SharedPlan) {
      self.plan = plan
      var hash = FNV1a()
      hash.combine(Checksum.articles(plan.initial).hex)
      hash.combine(Checksum.articlesInOrder(plan.appSaves))
      hash.combine("\(plan.seed) \(plan.parameters)")
      fingerprint = hash.hex
    }

    /// The processes, started and waiting at the barrier, and the executable that checks their work.
    struct Prepared {
      let processes: SharedProcesses
      let executable: URL
    }

    func prepare(_ run: Repetition) throws -> Prepared {
      guard let executable = run.launch.executable else {
        throw StoreError.unsupported("no storebench executable to start the processes with")
      }
      let store = try run.storeLoaded(with: plan.initial, as: (any ProcessSharingStore).self)
      let sharing = store.processSharing
      run.appendNote("sharing: " + sharing.how)
      try run.closeStore()
      let processes = try SharedProcesses(
        executable: executable, plan: plan, store: run.launch.store, countingOn: run.launch.countingOn)
      run.onFinish { processes.kill() }
      processes.limit(run.bound)
      return Prepared(processes: processes, executable: executable)
    }

    func measure(_ prepared: Prepared, _ run: Repetition) throws -> Measured<[SharedProcessReport]> {
      try prepared.processes.go()
      run.stopClock()
      let reports = try prepared.processes.reports()
      // The processes' own time in their operations: the app's pauses between saves are no work of the store.
      run.timeWork(nanoseconds: reports.reduce(0) { $0 + $1.busyNanoseconds })
      for latency in reports[0].latencies { run.latencies.record(nanoseconds: latency) }
      for report in reports {
        run.addChildBytes(
          Dictionary(
            uniqueKeysWithValues: report.costs.compactMap { name, value in
              CountedCost(rawValue: name).map { ($0, value) }
            }))
      }
      return Measured(ops: reports.reduce(0) { $0 + $1.acks.count }, reports)
    }

    func verify(_ reports: [SharedProcessReport], _ prepared: Prepared, _ run: Repetition) throws -> String {
      try prepared.processes.finish()
      // In a fresh process: a library that caches the store per process (Foundation's defaults) shows there
      // what the next launch reads, not what this process loaded before the processes wrote.
      let result = try SharedProcesses.check(
        reports, executable: prepared.executable, plan: plan, store: run.launch.store)
      let waits = reports.reduce(LockWaits()) { $0 + $1.lockWaits }
      run.note(.lostUpdates, String(result.lostUpdates))
      run.note(.destroyedRecords, String(result.destroyed))
      if result.destroyed > 0 {
        run.appendNote(
          "data destroyed: \(result.destroyed) stored articles nobody wrote are gone, their file rewritten "
            + "whole from a copy read in part")
      }
      run.note(.refusals, String(reports.reduce(0) { $0 + $1.refusals }))
      run.note(.retries, String(reports.reduce(0) { $0 + $1.retries }))
      run.note(.lockWaits, String(waits.waits))
      run.note(
        .lockWaitSeconds, CSVFormat.seconds(Double(reports.reduce(0) { $0 + $1.waitNanoseconds }) / 1e9))
      run.note(
        .lockHoldSeconds,
        CSVFormat.seconds(Double(reports.map(\.longestHoldNanoseconds).max() ?? 0) / 1e9))
      run.note(.processes, reports.map(SharedSummary.line).joined(separator: "; "))
      let appEnd = reports[0].end
      let competing = reports.dropFirst().flatMap { $0.latencies(arrivingBefore: appEnd) }
      let planned = reports.dropFirst().reduce(0) { $0 + $1.planned }
      let attempted = reports.dropFirst().reduce(0) { $0 + $1.attempted }
      if planned == 0 || attempted < planned || competing.isEmpty {
        // Not exercised: nothing of the extension's figures rests on work beside the app.
        run.appendNote(
          "not exercised: the extension ran \(competing.count) of its \(planned) planned operations while "
            + "the app worked (\(attempted) attempted)")
      } else if let extensions = SharedSummary.percentiles(competing) {
        run.note(.extensionOps, String(competing.count))
        for (column, value) in [
          (SampleColumn.extensionP50, extensions.p50), (.extensionP90, extensions.p90),
          (.extensionP99, extensions.p99),
        ] {
          run.note(column, CSVFormat.number(value, unit: .microseconds))
        }
      }
      if result.lostUpdates > 0 {
        let kinds = result.lostByKind.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        run.appendNote("lost updates (last writer wins): " + kinds.joined(separator: ", "))
      }
      if let failed = reports.first(where: { $0.firstError != nil }), let message = failed.firstError {
        run.appendNote("\(failed.name)'s first failed operation: \(message)")
      }
      return result.checksum
    }
  }
}
