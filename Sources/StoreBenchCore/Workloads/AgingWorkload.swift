import Foundation

/// `aging`: how much bigger and slower a store gets after weeks of use, and what the fix costs. Untimed, M articles
/// are loaded and R rounds of churn run as app operations (per round: a sync inserting `churn_percent` of M new
/// articles in one unit of work, the as many oldest deleted in one, `edit_percent` of M edited one unit each).
/// After the load and after every round the store's size, the free room its library reports and one read of the
/// launch list go to `rounds.csv`; the content after the churn is checked through the store. The timed operation
/// is the compaction, in the library's idiom (SQLite `VACUUM` or `incremental_vacuum`, LMDB a compacting copy,
/// GDBM `gdbm_reorganize`), reopen included where the library needs it. Verified through an independent handle:
/// exactly the records the churn leaves, unchanged. Stores with nothing to compact (whole-file rewrites, a file
/// per record, memory) do not play the role and get `unsupported` rows.
public struct AgingWorkload: Workload {
  public init() {}
  public let name = "aging"
  /// The store after each round: its records, bytes, free space and one launch list's time.
  public static let rounds = WorkloadTable(file: "rounds.csv", columns: AgingRound.columns)
  public var tables: [WorkloadTable] { [Self.rounds] }

  /// The store's growth, what compaction gave back and the launch list's slowdown, beside the time.
  public var figures: WorkloadFigures? {
    WorkloadFigures(
      [
        .init(.agedAllocatedBytes, "allocated after the churn"),
        .init(.reclaimedBytes, "given back by compaction"),
        .init(.listSlowdown, "launch list, aged / fresh"),
      ],
      introduction: "`aging`: the store's allocated bytes after the churn, what the timed compaction gave back, "
        + "and the launch list's time after the churn over its time on the fresh store (every round is in "
        + "rounds.csv and charts/aging.png).",
      introducedBy: [.agedAllocatedBytes, .listSlowdown])
  }

  public func missingNotes(_ notes: [SampleColumn: String]) -> String? {
    Int64(notes[.reclaimedBytes] ?? "") != nil && notes[.note]?.contains("compaction: ") == true
      ? nil : "the row does not record the bytes reclaimed and how the store compacted"
  }
  public let smokeParameters = ["stored": 200, "rounds": 3, "screen": 20]
  public let summary =
    "R rounds of churn (insert, delete the oldest, edit) on M articles, size per round, then compact (timed)"
  public let sizeParameter = ParameterName.stored
  public let requires: StoreRoles = .compacting
  public let parameters =
    [
      .stored(10_000),
      WorkloadParameter(.rounds, default: 30, range: 1...1_000, summary: "rounds of churn (days of use)"),
      .percent(.churnPercent, 10, "share of M inserted, and as many oldest deleted, per round"),
      .percent(.editPercent, 2, "share of M edited per round, one app operation each"),
      .screen("newest articles the launch list reads"),
    ] + RecordShape.parameters

  public func validate(_ parameters: WorkloadParameters) throws { try WorkloadParameter.validateScreen(parameters) }

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    Case(
      AgingPlan(
        stored: parameters[.stored], rounds: parameters[.rounds], churnPercent: parameters[.churnPercent],
        editPercent: parameters[.editPercent], screen: parameters[.screen], generator: generator))
  }

  final class Case: WorkloadCase {
    let plan: AgingPlan
    let fingerprint: String

    /// What prepare hands on: the store, and how it looked after the load and after the churn (the row's growth
    /// and slowdown are measured from them).
    struct Aged {
      let store: any CompactingStore
      let loaded: AgingRound
      let aged: AgingRound
    }

    init(_ plan: AgingPlan) {
      self.plan = plan
      fingerprint = plan.fingerprint
    }

    func prepare(_ run: Repetition) throws -> Aged {
      let store = try run.store(as: (any CompactingStore).self)
      try store.load(articles: plan.initial)
      let loaded = try observe(
        store, run, round: 0, phase: "loaded", records: plan.initial.count, list: plan.initialList)
      var aged = loaded
      for (index, round) in plan.rounds.enumerated() {
        try store.unitOfWork { for article in round.inserts { try store.insert(article) } }
        try store.unitOfWork { try store.delete(uids: round.deletes) }
        for edit in round.edits { try store.unitOfWork { try store.edit(edit) } }
        try store.commitPending()
        aged = try observe(
          store, run, round: index + 1, phase: "churned", records: round.records, list: round.list)
      }
      _ = try ArticleSnapshot(try store.allArticles()).check(against: plan.expected)
      return Aged(store: store, loaded: loaded, aged: aged)
    }

    func measure(_ prepared: Aged, _ run: Repetition) throws -> Measured<(Compaction, any CompactingStore)> {
      let compaction = try prepared.store.compact()
      let open = compaction.needsReopen ? try run.reopen(as: (any CompactingStore).self) : prepared.store
      return Measured(ops: 1, (compaction, open))
    }

    func verify(_ outcome: (Compaction, any CompactingStore), _ prepared: Aged, _ run: Repetition) throws -> String {
      let (compaction, store) = outcome
      let (loaded, aged) = (prepared.loaded, prepared.aged)
      let compacted = try observe(
        store, run, round: plan.rounds.count + 1, phase: "compacted",
        records: plan.expected.count, list: plan.rounds.last?.list ?? plan.initialList)
      run.note(.agedAllocatedBytes, String(aged.allocatedBytes))
      run.note(.reclaimedBytes, String(aged.allocatedBytes - compacted.allocatedBytes))
      run.note(.listSlowdown, CSVFormat.decimal(aged.listSeconds / max(loaded.listSeconds, 1e-9)))
      run.appendNote(
        "compaction: \(compaction.method); allocated \(loaded.allocatedBytes) B loaded → "
          + "\(aged.allocatedBytes) B after \(plan.rounds.count) rounds → \(compacted.allocatedBytes) B compacted"
      )
      return try run.expectArticles(plan.expected)
    }

    /// The store now: its size, its free room, and the launch list read three times (the median kept), checked.
    private func observe(
      _ store: any CompactingStore, _ run: Repetition, round: Int, phase: String, records: Int,
      list expected: String
    ) throws -> AgingRound {
      var times: [Double] = []
      for _ in 0..<3 {
        let start = monotonicNanoseconds()
        let list = try store.newestArticles(limit: plan.screen)
        times.append(Double(monotonicNanoseconds() - start) / 1e9)
        guard Checksum.articlesInOrder(list) == expected else {
          throw VerificationError(
            "\(phase) round \(round): the launch list differs from the expected newest \(plan.screen)")
        }
      }
      let usage = DiskUsage.of(run.launch.directory)
      let free = try store.freeSpace()
      let observed = AgingRound(
        round: round, phase: phase, records: records, storeBytes: usage.apparentBytes,
        allocatedBytes: usage.allocatedBytes, freeBytes: free.freeBytes, freeDetail: free.detail,
        listSeconds: times.sorted()[1])
      run.addRow(to: AgingWorkload.rounds, observed.cells)
      return observed
    }
  }
}
