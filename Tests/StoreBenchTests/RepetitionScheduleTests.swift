import Foundation
import StoreBenchBackends
import StoreBenchCore
import StoreBenchStandard
import Synchronization
import Testing

@Suite("Adaptive repetitions")
struct RepetitionScheduleTests {
  /// An ok sample of `wall` seconds.
  func sample(_ wall: Double, status: RowStatus = .ok) -> Sample {
    var sample = Sample(
      key: RowKey(scenario: "s", workload: "w", backend: "b", variant: "v", size: 1, parameters: ""),
      repetition: 0, dataset: "")
    sample.status = status
    sample.wallSeconds = wall
    return sample
  }

  /// Feeds `walls` as measured repetitions of one second each until the case stops; returns how many it took.
  func feed(_ schedule: inout RepetitionSchedule, _ walls: [Double]) -> Int {
    var used = 0
    for wall in walls where schedule.isActive(0) {
      _ = schedule.record(0, sample(wall), seconds: 1, warmup: false, runElapsed: 0)
      used += 1
    }
    return used
  }

  @Test(
    "a steady case stops at the schedule's first look once its interval is within the target, never between looks")
  func steadyStopsAtMinimum() {
    var schedule = RepetitionSchedule(policy: RepetitionPolicy(minimum: 6, maximum: 20), caseCount: 1)
    let used = feed(&schedule, (0..<20).map { 1.0 + Double($0 % 3) * 0.001 })
    #expect(used == 8 && schedule.cases[0].stop == .precise)
    #expect(schedule.precision(0).map { $0 <= 0.05 } == true)
  }

  @Test(
    "racing: the leader runs ahead, a far row settles from 4 repetitions, a twin is not called slower, others run the minimum"
  )
  func racing() {
    var policy = RepetitionPolicy(warmup: 0, minimum: 3, maximum: 20)
    policy.stop = .answer
    let race = RaceGroups(groups: [[0, 1, 2]], promise: [0: .mayLose, 1: .mayLose, 2: .mayLose])
    var schedule = RepetitionSchedule(policy: policy, caseCount: 4, race: race)
    let bases = [1.0, 3.0, 1.01, 1.0]
    var leaderAtSettlement = 0
    for _ in 0..<200 where schedule.activeCount > 0 {
      for index in 0..<4 where schedule.runsThisRound(index) {
        let k = schedule.cases[index].wall.count
        let wall = bases[index] * (1 + 0.04 * Double((k * 7 + index * 3) % 5) / 4)
        _ = schedule.record(index, sample(wall), seconds: 0.01, warmup: false, runElapsed: 0)
      }
      let wasActive = schedule.isActive(1)
      schedule.applyRace()
      if wasActive && !schedule.isActive(1) { leaderAtSettlement = schedule.cases[0].wall.count }
    }
    #expect(schedule.activeCount == 0)
    #expect(schedule.cases[1].stop == .settledSlower && schedule.cases[1].wall.count == 4)
    // Three candidates: each test at 0.05 / (2 × 7); 4 against 9 is the first pair whose most extreme ordering
    // is that rare (1/C(13, 4) = 1/715), so the far row waited for the leader's ninth repetition.
    #expect(leaderAtSettlement == 9)
    #expect([StopReason.settledEquivalent, .maximum].contains(schedule.cases[2].stop!))
    #expect([StopReason.leader, .maximum].contains(schedule.cases[0].stop!))
    #expect(schedule.cases[3].stop == .noAnswer && schedule.cases[3].wall.count == 3)
  }

  @Test("racing: a leader may spend four case caps so that far rows settle against it; every other row keeps its cap")
  func racingLeaderCap() {
    var policy = RepetitionPolicy(warmup: 0, minimum: 3, maximum: 20, caseSeconds: 2)
    policy.stop = .answer
    let race = RaceGroups(groups: [[0, 1, 2]], promise: [0: .mayLose, 1: .mayLose, 2: .mayLose])
    var schedule = RepetitionSchedule(policy: policy, caseCount: 3, race: race)
    let (bases, costs) = ([1.0, 3.0, 1.02], [0.5, 0.01, 0.5])
    for _ in 0..<60 where schedule.activeCount > 0 {
      for index in 0..<3 where schedule.runsThisRound(index) {
        let k = schedule.cases[index].wall.count
        let wall = bases[index] * (1 + 0.04 * Double((k * 7 + index * 3) % 5) / 4)
        _ = schedule.record(index, sample(wall), seconds: costs[index], warmup: false, runElapsed: 0)
      }
      schedule.applyRace()
    }
    #expect(schedule.cases[2].stop == .caseTime && schedule.cases[2].measured == 4)
    #expect(schedule.cases[1].stop == .settledSlower && schedule.cases[1].wall.count == 4)
    // The far row needed 9 of the leader's repetitions (4.5 s, beyond the 2 s cap).
    #expect(schedule.cases[0].measured >= 9 && schedule.cases[0].stop == .leader)
  }

  @Test("a noisy case runs to the maximum")
  func noisyRunsToMaximum() {
    var schedule = RepetitionSchedule(policy: RepetitionPolicy(minimum: 6, maximum: 10), caseCount: 1)
    let used = feed(&schedule, (0..<30).map { $0 % 2 == 0 ? 1.0 : 2.0 })
    #expect(used == 10 && schedule.cases[0].stop == .maximum)
  }

  @Test("the case's time cap stops it before the repetition that would overrun, after one measured repetition")
  func caseTimeCap() {
    var schedule = RepetitionSchedule(
      policy: RepetitionPolicy(warmup: 1, minimum: 6, maximum: 20, caseSeconds: 4.5),
      caseCount: 1)
    let warmupWritten = schedule.record(0, sample(1), seconds: 1, warmup: true, runElapsed: 0)
    #expect(!warmupWritten)
    let used = feed(&schedule, (0..<20).map { 1.0 + Double($0) })
    #expect(used == 3 && schedule.cases[0].stop == .caseTime && schedule.cases[0].spent == 4)
    var slow = RepetitionSchedule(
      policy: RepetitionPolicy(warmup: 1, minimum: 6, maximum: 20, caseSeconds: 1), caseCount: 1)
    _ = slow.record(0, sample(1), seconds: 30, warmup: true, runElapsed: 0)
    #expect(slow.isActive(0), "a case always gets one measured repetition")
    _ = slow.record(0, sample(1), seconds: 30, warmup: false, runElapsed: 0)
    #expect(slow.cases[0].stop == .caseTime && slow.cases[0].measured == 1)
  }

  @Test("failed and declined cases stop at once; a declined warm-up is the row's measured repetition")
  func failuresStop() {
    var schedule = RepetitionSchedule(policy: RepetitionPolicy(warmup: 1), caseCount: 2)
    let declinedWritten = schedule.record(
      0, sample(0, status: .unsupported), seconds: 0, warmup: true, runElapsed: 0)
    #expect(declinedWritten)
    #expect(schedule.cases[0].stop == .unsupported && schedule.cases[0].measured == 1)
    _ = schedule.record(1, sample(1), seconds: 1, warmup: true, runElapsed: 0)
    let failedWritten = schedule.record(1, sample(0, status: .failed), seconds: 1, warmup: false, runElapsed: 0)
    #expect(failedWritten)
    #expect(schedule.cases[1].stop == .failed && schedule.activeCount == 0)
  }

  @Test("a spent budget stops every case that has a measured repetition")
  func budget() {
    var schedule = RepetitionSchedule(policy: RepetitionPolicy(warmup: 0, budgetSeconds: 10), caseCount: 2)
    _ = schedule.record(0, sample(1), seconds: 1, warmup: false, runElapsed: 5)
    schedule.applyBudget(runElapsed: 11)
    #expect(schedule.cases[0].stop == .budget && schedule.isActive(1))
  }

  @Test("the time left counts each case's repetitions to its minimum at its mean cost")
  func secondsLeft() {
    var schedule = RepetitionSchedule(policy: RepetitionPolicy(warmup: 0, minimum: 6, maximum: 20), caseCount: 2)
    _ = schedule.record(0, sample(1), seconds: 2, warmup: false, runElapsed: 0)
    _ = schedule.record(1, sample(1), seconds: 0.5, warmup: false, runElapsed: 0)
    #expect(abs(schedule.secondsLeft(runElapsed: 0) - (5 * 2 + 5 * 0.5)) < 1e-9)
  }
}

/// A memory store that counts how often it is filled with articles.
final class FillCounter: Sendable {
  private let fills = Mutex(0)
  func increment() { fills.withLock { $0 += 1 } }
  var count: Int { fills.withLock { $0 } }

  /// `persistent`: over a SQLite store (whose filled files a run can keep and copy); otherwise over memory.
  func descriptor(persistent: Bool = false) -> BackendDescriptor {
    let wrapped = persistent ? SQLiteBackend.descriptor : MemoryBackend.descriptor()
    return BackendDescriptor(
      name: persistent ? "counting-sqlite" : "counting", summary: "counts fills (test double)",
      persistent: persistent
    ) { location in
      CountingStore(wrapped: try wrapped.open(location, as: (any AppStore).self), counter: self)
    }
  }

  final class CountingStore: ArticleStore {
    let wrapped: any AppStore
    let counter: FillCounter
    init(wrapped: any AppStore, counter: FillCounter) {
      self.wrapped = wrapped
      self.counter = counter
    }
    var effectiveSettings: String { "" }
    func unitOfWork(_ body: () throws -> Void) throws { try body() }
    func insert(_ article: Article) throws { try wrapped.insert(article) }
    func markRead(uids: [String]) throws { try wrapped.markRead(uids: uids) }
    func delete(uids: [String]) throws { try wrapped.delete(uids: uids) }
    func edit(_ edit: ArticleEdit) throws { try wrapped.edit(edit) }
    func article(uid: String) throws -> Article? { try wrapped.article(uid: uid) }
    func allUIDs() throws -> [String] { try wrapped.allUIDs() }
    func load(articles: [Article]) throws {
      counter.increment()
      try wrapped.load(articles: articles)
    }
    func allArticles() throws -> [Article] { try wrapped.allArticles() }
    func close() throws { try wrapped.close() }
  }
}

@Suite("Adaptive runs")
struct AdaptiveRunTests {
  func run(_ yaml: String, registry: BackendRegistry) throws -> Runner.Result {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let scenario = try ScenarioParser(backends: registry, workloads: .standard).parse(
      data: Data(yaml.utf8), file: "t.yaml")
    let out = temp.url.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let options = Runner.Options(workdir: temp.url, output: out, commandLine: [], progress: { _ in })
    return try Runner(backends: registry, workloads: .standard).run(scenario, options: options)
  }

  @Test(
    "a store is filled once per variant and data set: a reading workload keeps it, a writing one fills it once, and every other repetition, of any workload that stores the same articles, starts from a copy"
  )
  func readOnlyWorkloadsFillOnce() throws {
    let counter = FillCounter()
    var registry = BackendRegistry.standard()
    registry.register(counter.descriptor())
    _ = try run(
      """
      name: t
      warmup: 1
      repetitions: 4
      backends: [{backend: counting}]
      workloads: [{workload: lookup, parameters: {stored: 200, count: 50}}]
      """, registry: registry)
    #expect(counter.count == 1)
    _ = try run(
      """
      name: t
      warmup: 1
      repetitions: 4
      backends: [{backend: counting}]
      workloads: [{workload: mark-read, parameters: {stored: 200, count: 50}}]
      """, registry: registry)
    // The memory floor keeps nothing on disk to copy: a writing workload fills it every repetition.
    #expect(counter.count == 1 + 5)
    // A persistent store: four workloads that store the same 200 articles, 5 repetitions each, one fill for all.
    let persistent = FillCounter()
    registry.register(persistent.descriptor(persistent: true))
    let result = try run(
      """
      name: t
      warmup: 1
      repetitions: 4
      backends: [{backend: counting-sqlite}]
      workloads:
        - {workload: lookup, parameters: {stored: 200, count: 50}}
        - {workload: mark-read, parameters: {stored: 200, count: 50}}
        - {workload: edit, parameters: {stored: 200, count: 20}}
        - {workload: insert, parameters: {stored: 200, count: 20}}
      """, registry: registry)
    #expect(persistent.count == 1)
    #expect(result.allSucceeded && result.summary.count == 4)
  }

  @Test("every summary row records n, the precision reached, the target and why it stopped")
  func rowsRecordThePolicy() throws {
    let result = try run(
      """
      name: t
      warmup: 0
      repetitions: {min: 6, max: 9}
      target_precision: 0.2
      backends: [{backend: memory}, {backend: sqlite}]
      workloads: [{workload: insert, parameters: {count: 200}}, {workload: uid-set, parameters: {stored: 300}}]
      """, registry: .standard())
    for row in result.summary {
      let n = row.statistics?.n ?? 0
      #expect((6...9).contains(n), "\(row.key): n=\(n)")
      #expect(["precise", "max-repetitions"].contains(row.stopped))
      #expect(row.stopped == "precise" ? row.reach! <= 0.2 : n == 9)
      #expect(row.targetPrecision == 0.2 && (row.caseSeconds ?? 0) > 0)
    }
    #expect(result.manifest.repetitionPolicy?.contains("6–9 measured repetitions") == true)
  }
}
