import Foundation
import StoreBenchBackends
import StoreBenchCore

extension AdapterOverhead {
  /// The three sides of one backend and operation.
  struct Sides {
    let backend: String
    let descriptor: BackendDescriptor
    let variant: Variant
    let work: WorkDirectory
    let path: WorkloadPath
    let counters: CostCounters?
    /// Counts each side's instructions over its timed span (an `overhead` child under callgrind); nil: not counted.
    let instructions: InstructionCounter?
    /// Checked before every round: a signal stops the measurement (``Stopped``).
    let shouldStop: () -> Bool

    /// The order of the sides in round `round`: rotated each round, so none always runs first.
    static func order(_ round: Int) -> [Side] {
      let all = Side.allCases
      return (0..<all.count).map { all[($0 + round) % all.count] }
    }

    enum Side: CaseIterable { case c, adapter, workload }

    func insert(_ articles: [Article], repetitions: Int) throws -> Measurement {
      let baseline = try CBaseline(backend: backend, variant: variant, articles: articles)
      return try rounds(.insert, count: articles.count, repetitions: repetitions) { round, side in
        switch side {
        case .c:
          let directory = try work.subdirectory("\(backend)-insert-c\(round)")
          defer { work.retire(directory) }
          let seconds = try baseline.insert(into: directory)
          return (seconds, try contents(of: directory).description, "", try cInstructions())
        case .adapter:
          let location = StoreLocation(
            directory: try work.subdirectory("\(backend)-insert-adapter\(round)"), variant: variant)
          defer { work.retire(location.directory) }
          let store = try descriptor.open(location, as: (any ArticleStore).self)
          instructions?.start()
          let start = monotonicNanoseconds()
          try store.unitOfWork {
            for article in articles { try store.insert(article) }
          }
          try store.commitPending()
          let end = monotonicNanoseconds()
          instructions?.stop()
          try store.close()
          let counted = try instructions?.read()[.instructions]
          let found = try contents(of: location.directory)
          return (Double(end - start) / 1e9, found.description, found.checksum, counted)
        case .workload:
          let run = try path.run(round: round, in: work, counters: counters, instructions: instructions)
          return (run.seconds, run.checksum, "", run.instructions)
        }
      }
    }

    func lookup(_ uids: [String], among articles: [Article], repetitions: Int) throws -> Measurement {
      let location = StoreLocation(directory: try work.subdirectory("\(backend)-lookup"), variant: variant)
      let filling = try descriptor.open(location, as: (any ArticleStore).self)
      try filling.load(articles: articles)
      try filling.close()
      let baseline = try CBaseline(backend: backend, variant: variant, articles: [])
      return try rounds(.lookup, count: uids.count, repetitions: repetitions) { round, side in
        switch side {
        case .c:
          let (seconds, found) = try baseline.lookup(uids, in: location.directory)
          return (seconds, found, "", try cInstructions())
        case .adapter:
          let store = try descriptor.open(location, as: (any ArticleStore).self)
          var found: [Article?] = []
          found.reserveCapacity(uids.count)
          instructions?.start()
          let start = monotonicNanoseconds()
          for uid in uids { found.append(try store.article(uid: uid)) }
          let end = monotonicNanoseconds()
          instructions?.stop()
          try store.close()
          return (
            Double(end - start) / 1e9, CBaseline.describe(found),
            Checksum.articlesInOrder(found.compactMap { $0 }), try instructions?.read()[.instructions]
          )
        case .workload:
          let run = try path.run(round: round, in: work, counters: counters, instructions: instructions)
          return (run.seconds, run.checksum, "", run.instructions)
        }
      }
    }

    /// What one side did in one round: its timed seconds, its result (C and adapter: the form they share;
    /// workload: the checksum its verification returned) and, for the adapter, the checksum the workload's
    /// must equal.
    /// `instructions`: the side's instructions over its timed span, when counted.
    typealias Outcome = (seconds: Double, result: String, checksum: String, instructions: Int64?)

    /// The instructions of the C side's last timed span: the C code brackets its own clock (`SB_REGION_START`),
    /// and callgrind wrote them as its newest dump.
    private func cInstructions() throws -> Int64? { try instructions?.read()[.instructions] }

    /// The rounds of one operation: round 0 warms up; each round runs every side in ``order(_:)``, proves the work
    /// equal and keeps the times; the first round whose work differs ends the measurement with its proof.
    private func rounds(
      _ operation: Operation, count: Int, repetitions: Int, _ side: (Int, Side) throws -> Outcome
    ) throws -> Measurement {
      var times: [Side: [Double]] = [:]
      var counted: [Side: Int64] = [:]
      var proof = EqualWork(c: "", adapter: "", workload: "", adapterChecksum: "")
      for round in 0...repetitions {
        if shouldStop() { throw Stopped() }
        var outcomes: [Side: Outcome] = [:]
        for which in Self.order(round) { outcomes[which] = try side(round, which) }
        proof = EqualWork(
          c: outcomes[.c]!.result, adapter: outcomes[.adapter]!.result,
          workload: outcomes[.workload]!.result, adapterChecksum: outcomes[.adapter]!.checksum)
        guard proof.holds else { break }
        if round > 0 {
          for (which, outcome) in outcomes {
            times[which, default: []].append(outcome.seconds)
            counted[which] = outcome.instructions
          }
        }
      }
      return Measurement(
        backend: backend, variant: variant.description, operation: operation, count: count,
        cSeconds: times[.c] ?? [], adapterSeconds: times[.adapter] ?? [],
        workloadSeconds: times[.workload] ?? [], equalWork: proof,
        instructions: counted.isEmpty
          ? nil : Instructions(c: counted[.c], adapter: counted[.adapter], workload: counted[.workload]))
    }

    /// What a store holds, read through the Swift backend: the checksum of every article and the size of its
    /// files ("articles <checksum>, <bytes> bytes").
    private func contents(of directory: URL) throws -> (checksum: String, description: String) {
      let bytes = DiskUsage.of(directory).apparentBytes
      let store = try descriptor.open(
        StoreLocation(directory: directory, variant: variant), as: (any ArticleStore).self)
      defer { try? store.close() }
      let checksum = Checksum.articles(try store.allArticles()).hex
      return (checksum, "articles \(checksum), \(bytes) bytes")
    }
  }
}
