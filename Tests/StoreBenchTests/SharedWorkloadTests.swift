import Foundation
import StoreBenchAdvice
import StoreBenchAnalysis
import StoreBenchBackends
import StoreBenchCore
import StoreBenchSharing
import StoreBenchStandard
import Testing

@Suite("shared: one store, several processes")
struct SharedWorkloadTests {
  static func plan(count: Int = 30, stored: Int = 40, rate: Int = 50, pause: Int = 2_000) -> SharedPlan {
    SharedPlan(
      parameters: .init(
        count: count, stored: stored, screen: 20, rate: rate, editPercent: 20, retries: 5, extensions: 1,
        pauseMicroseconds: pause),
      generator: DatasetGenerator(seed: 11))
  }

  /// A store of `backend` with `settings` in `directory`, holding the plan's initial articles.
  static func store(
    _ backend: String, _ settings: [String: String] = [:], in directory: URL
  ) throws -> any ProcessSharingStore {
    let descriptor = try #require(BackendRegistry.standard()[backend])
    let location = StoreLocation(directory: directory, variant: try descriptor.variant(settings))
    return try descriptor.open(location).playing((any ProcessSharingStore).self)
  }

  /// A plist store in `directory` holding `articles`, closed.
  static func plist(holding articles: [Article], in directory: URL) throws {
    let loader = try store("plist", in: directory)
    try loader.load(articles: articles)
    try loader.close()
  }

  @Test(
    "the plan is the same in every process: saves newer than everything stored, edits of recent saves, a Poisson extension"
  )
  func planIsDeterministic() throws {
    let plan = Self.plan(count: 200)
    #expect(plan.app == Self.plan(count: 200).app)
    let saves = plan.appSaves
    let edits = plan.app.compactMap { if case .edit(let edit) = $0 { edit } else { nil } }
    #expect(!edits.isEmpty && saves.count + edits.count == 200)
    #expect(Set(edits.map(\.uid)).count == edits.count)
    #expect(edits.allSatisfy { edit in saves.contains { $0.uid == edit.uid } })
    let newest = plan.initial.map(\.published).max()!
    #expect(saves.allSatisfy { $0.published > newest })
    #expect(plan.extensionWork(0, number: 0).kind == "mark")
    #expect(plan.extensionWork(0, number: 1).kind == "setting")
    #expect(plan.extensionWork(0, number: 2).kind == "draft")
    #expect(plan.extensionWork(0, number: 4) == Self.plan(count: 200).extensionWork(0, number: 4))
    var arrivals = plan.arrivals(ofExtension: 0)
    var last: UInt64 = 0
    for _ in 0..<10_000 {
      let next = arrivals.next()
      #expect(next >= last)
      last = next
    }
    // 10,000 arrivals at 50 a second: 200 s, within 5%.
    #expect(abs(Double(last) / 1e9 - 200) < 10, "\(Double(last) / 1e9)")
  }

  @Test(
    "the extension's planned operations are the arrivals within the app's least span, about rate × span, whatever the seed; a plan with none is refused"
  )
  func plannedArrivalsFallWithinTheApp() throws {
    for (count, rate, pause) in [(1_000, 100, 2_000), (200, 50, 2_000), (100, 50, 2_000), (5_000, 7, 300)] {
      for seed in [1, 7, 42, 99] as [UInt64] {
        let plan = SharedPlan(
          parameters: .init(
            count: count, stored: 40, screen: 20, rate: rate, editPercent: 20, retries: 5, extensions: 2,
            pauseMicroseconds: pause),
          generator: DatasetGenerator(seed: seed))
        let span = plan.parameters.appSpanNanoseconds
        for index in 0..<2 {
          let planned = plan.plannedArrivals(ofExtension: index)
          #expect(planned.allSatisfy { $0 < span } && planned == planned.sorted())
          // A Poisson count: within 5 standard deviations of its mean (rate × span).
          let expected = plan.parameters.expectedExtensionOperations
          #expect(abs(Double(planned.count) - expected) <= 5 * expected.squareRoot() + 1, "\(planned.count)")
        }
      }
    }
    let workload = SharedWorkload()
    let defaults = workload.defaultParameters.values
    try workload.validate(workload.defaultParameters)
    for refused in [["pause_us": 0], ["count": 2, "rate": 1]] {
      let parameters = WorkloadParameters(defaults.merging(refused) { $1 })
      #expect(throws: ParameterError.self) { try workload.validate(parameters) }
    }
  }

  @Test(
    "a planted lost update: two handles rewrite one plist; the overwritten save is counted, proven by the later rewrite"
  )
  func plantedLostUpdate() throws {
    let temp = try TemporaryDirectory()
    let plan = Self.plan()
    try Self.plist(holding: plan.initial, in: temp.url)
    // Two processes' copies: each decodes the file before either writes.
    let app = try Self.store("plist", in: temp.url)
    let widget = try Self.store("plist", in: temp.url)
    _ = try app.newestArticles(limit: 5)
    _ = try widget.newestArticles(limit: 5)
    guard case .save(let saved) = plan.app[0], case .draft(let draft) = plan.extensionWork(0, number: 2) else {
      Issue.record("the plan's first app operation is a save and the extension's third a draft")
      return
    }
    let saving = monotonicNanoseconds()
    try app.unitOfWork { try app.insert(saved) }
    let savedAt = monotonicNanoseconds()
    let drafting = monotonicNanoseconds()
    try widget.unitOfWork { try widget.insert(draft) }
    let draftedAt = monotonicNanoseconds()
    let sharing = app.processSharing
    try app.close()
    try widget.close()
    var appReport = SharedProcessReport(name: "app")
    appReport.acks = [.init(operation: 0, started: saving, nanoseconds: savedAt, uid: nil)]
    var widgetReport = SharedProcessReport(name: "extension")
    widgetReport.acks = [.init(operation: 2, started: drafting, nanoseconds: draftedAt, uid: nil)]
    let reader = try Self.store("plist", in: temp.url)
    defer { try? reader.close() }
    let result = try SharedVerification(plan: plan, reports: [appReport, widgetReport]).check(
      reader, sharing: sharing)
    #expect(result.lostUpdates == 1 && result.lostByKind == ["save": 1])
    // The same missing save with no rewrite by the other process ending after it began is no lost update: the
    // row fails.
    widgetReport.acks[0].nanoseconds = saving - 1
    #expect(throws: VerificationError.self) {
      try SharedVerification(plan: plan, reports: [appReport, widgetReport]).check(reader, sharing: sharing)
    }
  }

  @Test(
    "destroyed data: a stored article nobody wrote, gone after a rewrite of its file read in part, is counted as destroyed; gone without any rewrite, the row fails"
  )
  func plantedDestroyedData() throws {
    let temp = try TemporaryDirectory()
    let plan = Self.plan()
    try Self.plist(holding: plan.initial, in: temp.url)
    // A process that read the collection file while another rewrote it in place, and took the part it read for
    // the whole (as Foundation's defaults take a half-written suite): its copy holds one of the stored articles,
    // and its save rewrites the file whole from that copy.
    let empty = try TemporaryDirectory()
    try Self.plist(holding: [plan.initial[0]], in: empty.url)
    let file = temp.url.appendingPathComponent("articles.plist")
    try FileManager.default.removeItem(at: file)
    try FileManager.default.copyItem(at: empty.url.appendingPathComponent("articles.plist"), to: file)
    let app = try Self.store("plist", in: temp.url)
    guard case .save(let saved) = plan.app[0] else {
      Issue.record("the plan's first app operation is a save")
      return
    }
    let saving = monotonicNanoseconds()
    try app.unitOfWork { try app.insert(saved) }
    let savedAt = monotonicNanoseconds()
    let sharing = app.processSharing
    try app.close()
    var appReport = SharedProcessReport(name: "app")
    appReport.acks = [.init(operation: 0, started: saving, nanoseconds: savedAt, uid: nil)]
    let reader = try Self.store("plist", in: temp.url)
    defer { try? reader.close() }
    let result = try SharedVerification(plan: plan, reports: [appReport, SharedProcessReport(name: "extension")])
      .check(reader, sharing: sharing)
    #expect(result.destroyed == plan.initial.count - 1 && result.lostUpdates == 0, "\(result.destroyed)")
    // No acknowledged rewrite of that file: nothing proves how the articles went, so the row fails.
    #expect(throws: VerificationError.self) {
      try SharedVerification(
        plan: plan, reports: [SharedProcessReport(name: "app"), SharedProcessReport(name: "extension")]
      ).check(reader, sharing: sharing)
    }
  }

  @Test(
    "a planted refusal: a rollback journal without a busy timeout refuses a second writer at once with SQLITE_BUSY; with one, it waits and counts the waits"
  )
  func plantedRefusal() throws {
    for (timeout, waits) in [("0", false), ("150", true)] {
      let temp = try TemporaryDirectory()
      let settings = ["txn": "single", "journal": "delete", "sync": "normal", "busy_timeout": timeout]
      let plan = Self.plan()
      let holder = try Self.store("sqlite", settings, in: temp.url)
      try holder.load(articles: plan.initial)
      let other = try Self.store("sqlite", settings, in: temp.url)
      let started = monotonicNanoseconds()
      var refusal: String?
      try holder.unitOfWork {
        try holder.insert(plan.appSaves[0])
        do {
          try other.unitOfWork { try other.insert(plan.appSaves[1]) }
        } catch {
          refusal = other.refusal(in: error)
        }
      }
      let waited = Double(monotonicNanoseconds() - started) / 1e6
      #expect(refusal == "SQLITE_BUSY", "busy_timeout=\(timeout)")
      #expect((other.lockWaits.waits > 0) == waits, "busy_timeout=\(timeout): \(other.lockWaits)")
      if waits {
        #expect(other.lockWaits.nanoseconds >= 100_000_000 && waited >= 140, "\(other.lockWaits) \(waited) ms")
      }
      // The refused writer did nothing; the holder's save is there.
      try other.unitOfWork { try other.insert(plan.appSaves[1]) }
      #expect(try other.allUIDs().count == plan.initial.count + 2)
      try holder.close()
      try other.close()
    }
  }

  @Test(
    "end to end: two processes rewriting one plist lose updates, counted; sqlite's rollback journal without a busy timeout refuses, counted; both rows verified ok"
  )
  func endToEnd() throws {
    let workload = SharedWorkload()
    let plist = try AppDataWorkloadTests.sample(
      workload, ["count": 200, "stored": 50, "rate": 400], "plist")
    #expect(plist.status == .ok, "\(plist.error)")
    #expect(Int(plist.notes[.extensionOps] ?? "") ?? 0 > 0, "\(plist.notes)")
    #expect(Int(plist.notes[.lostUpdates] ?? "") ?? 0 > 0, "\(plist.notes)")
    #expect(plist.notes[.note]?.contains("lost updates (last writer wins)") == true)
    #expect(plist.notes[.processes]?.hasPrefix("app: ") == true)
    let sqlite = try AppDataWorkloadTests.sample(
      workload, ["count": 200, "stored": 50, "rate": 400], "sqlite",
      ["txn": "single", "journal": "delete", "sync": "full", "busy_timeout": "0"])
    #expect(sqlite.status == .ok, "\(sqlite.error)")
    #expect(Int(sqlite.notes[.refusals] ?? "") ?? 0 > 0, "\(sqlite.notes)")
    #expect(sqlite.notes[.lostUpdates] == "0")
    #expect(sqlite.notes[.processes]?.contains("SQLITE_BUSY") == true)
    // The fastest strategy's extension still works beside the app: every planned operation arrives within the
    // app's pauses, so the row is exercised (a repetition once ended with the app before the first arrival).
    let fast = try AppDataWorkloadTests.sample(
      workload, ["count": 100, "stored": 50, "rate": 100], "sqlite", ["journal": "wal", "sync": "normal"])
    #expect(fast.status == .ok, "\(fast.error)")
    let exercised = try #require(Int(fast.notes[.extensionOps] ?? ""), "\(fast.notes)")
    #expect(exercised > 0 && fast.notes[.note]?.contains("not exercised") != true, "\(fast.notes)")
    #expect(fast.notes[.processes]?.contains("of \(exercised) planned attempted") == true, "\(fast.notes)")
    // The row's time is the processes' work: far less than the app's 99 pauses of 2 ms.
    #expect(fast.wallSeconds < 0.198, "\(fast.wallSeconds)")
    let memory = try AppDataWorkloadTests.sample(workload, ["count": 10, "stored": 30, "rate": 400], "memory")
    #expect(memory.status == .unsupported)
  }

  @Test(
    "a profile's extension: processes.extension.per_day makes advise measure shared; lost updates or too many refusals fail the need"
  )
  func profileProcesses() throws {
    let text = """
      name: widget
      data: {records: 500}
      per_day: {launch: 10, save: 50}
      processes: {extension: {per_day: 200, refused_percent: 1}}
      durability: kill
      """
    let profile = try AppProfile(data: Data(text.utf8), file: "w.yaml")
    #expect(profile.processes == AppProfile.Processes(extensionPerDay: 200, refusedPercent: 1))
    #expect(profile.perDay[.extensionWork] == 200)
    let plan = AdvicePlan(profile, backends: .standard(), workloads: .standard)
    let measure = try #require(plan.operation(of: .extensionWork))
    #expect(measure.workload == "shared" && measure.parameters["stored"] == 500)
    #expect(try plan.scenarioText().contains("workload: shared"))
    #expect(throws: (any Error).self) {
      try AppProfile(data: Data(text.replacingOccurrences(of: "save: 50", with: "extension: 5").utf8), file: "w")
    }
    #expect(throws: (any Error).self) {
      try AppProfile(
        data: Data(text.replacingOccurrences(of: "per_day: 200, ", with: "").utf8), file: "w")
    }
    let budgeted = try AppProfile(data: Data((text + "\nbudgets: {extension: {ms: 50}}").utf8), file: "w")
    #expect(
      budgeted.budgets[.extensionWork]?.milliseconds == 50
        && budgeted.budgets[.extensionWork]?.percentile == 99)
    // The extension's budget is judged on the extension's own latency, not the app's.
    let latencies = try SampleTable(
      text:
        "scenario,workload,backend,variant,size,repetition,status,wall_s,ops,p99_us,extension_ops,extension_p99_us\n"
        + "a,shared,sqlite,x,200,1,ok,0.5,300,800,20,42000\na,shared,sqlite,x,200,2,ok,0.5,200,800,,\n"
        + "a,shared,plist,y,200,1,ok,0.5,200,800,,\n", source: "t")
    let judged = Advice(
      plan: AdvicePlan(budgeted, backends: .standard(), workloads: .standard), table: latencies, crashes: [:],
      promise: { _, _ in .durable }, resamples: 200)
    let extensionResult = try #require(
      judged.strategies.first?.operations.first { $0.operation == .extensionWork })
    #expect(
      extensionResult.atPercentile == 0.042 && extensionResult.evidenceRepetitions == 1
        && extensionResult.percentileBasis.hasSuffix(
          "median of the 1 of 2 repetitions in which it was exercised")
    )
    // One exercised repetition is a figure, not a verdict: the budget is not measured enough.
    let check = try #require(judged.strategies.first?.budgets.first { $0.operation == .extensionWork })
    #expect(check.outcome == .notMeasuredEnough && !check.met)
    // A repetition without extension operations is no evidence: never the app's time per operation instead.
    let idle = try #require(
      judged.strategies.first { $0.backend == "plist" }?.operations.first { $0.operation == .extensionWork })
    #expect(idle.atPercentile == nil && idle.percentileBasis == "the extension was not exercised in 1 repetition")
    let header =
      "scenario,workload,backend,variant,size,repetition,status,wall_s,ops,lost_updates,refusals,extension_ops"
    let rows =
      (1...8).map { "a,shared,sqlite,x,200,\($0),ok,0.5,300,0,\($0 == 1 ? 1 : 0),20" } + [
        "a,shared,plist,y,200,1,ok,0.5,300,7,0,", "a,shared,lmdb,z,200,1,ok,0.5,300,0,0,20",
      ]
    let table = try SampleTable(text: ([header] + rows).joined(separator: "\n") + "\n", source: "t")
    let sqlite = try #require(
      SharingCheck(rows: table.rows.filter { $0.key.backend == "sqlite" }, profile: profile, workload: "shared"))
    #expect(sqlite.met && sqlite.refusals == 1 && sqlite.operations == 2_400 && sqlite.exercised == 8)
    // "None lost" from one exercised repetition is not measured enough; a lost update is a proof from one.
    let lmdb = try #require(
      SharingCheck(rows: table.rows.filter { $0.key.backend == "lmdb" }, profile: profile, workload: "shared"))
    #expect(lmdb.outcome == .notMeasuredEnough && lmdb.missing.contains("in 1 of 1 repetition; 8 needed"))
    let plist = try #require(
      SharingCheck(rows: table.rows.filter { $0.key.backend == "plist" }, profile: profile, workload: "shared"))
    #expect(
      plist.outcome == .fails && plist.phrase.hasPrefix("7 lost updates and 0 refused attempts in 300 operations")
    )
  }

  @Test(
    "compare: a shared row's counts are never judged as deterministic, even with identical repetitions on each side"
  )
  func countsAreTimingDependent() throws {
    func table(_ bytes: Int) throws -> SampleTable {
      let header = "scenario,workload,backend,variant,size,repetition,status,wall_s,ops,store_bytes"
      let rows = (1...3).map { "s,shared,sqlite,x,100,\($0),ok,0.5,100,\(bytes)" }
      return try SampleTable(text: ([header] + rows).joined(separator: "\n") + "\n", source: "t")
    }
    var options = Comparison.Options()
    options.metrics = [.of(.storeBytes)]
    let exact = Comparison(baseline: try table(1_000_000), current: try table(1_200_000), options: options)
    #expect(exact.findings.first?.method == "identical repetitions" && exact.hasRegression)
    options.timingDependentWorkloads = ["shared"]
    let judged = Comparison(baseline: try table(1_000_000), current: try table(1_200_000), options: options)
    #expect(judged.findings.first?.method != "identical repetitions" && !judged.hasRegression)
    #expect(WorkloadRegistry.standard.workloads.filter(\.resultDependsOnTiming).map(\.name) == ["shared"])
  }
}
