import Foundation

/// `sync-while-reading`: a sync thread applies a sync — `count` article changes in batches of `batch`, each
/// batch one unit of work of new articles and articles marked read — while a UI thread loads the timeline
/// screen again and again. The row's latency columns are the UI thread's screen loads (the jank); `ops_per_s` is
/// the sync's throughput; `reads` counts the screens loaded; the note says how the two threads share the store
/// (``SharableStore/shareWithSecondThread()``). The harness's own thread syncs (so the runner keeps the store it
/// opened on its thread) and the UI loop runs on a second thread, which opens its view of the store there.
public struct SyncWhileReadingWorkload: Workload {
  public init() {}
  public let name = "sync-while-reading"
  /// The UI thread reloads the screen as often as it can while the sync runs.
  public let workDependsOnTiming = true

  public func missingNotes(_ notes: [SampleColumn: String]) -> String? {
    Int(notes[.reads] ?? "") ?? 0 >= 1 && notes[.note]?.hasPrefix("concurrency: ") == true
      ? nil : "no reads counted, or the row does not say how the store was shared"
  }
  public let smokeParameters = ["count": 100, "batch": 25, "stored": 100, "messages": 300, "users": 30, "screen": 50]
  public let summary = "a sync thread writes N article changes in batches while a UI thread reloads the first screen"
  public let sizeParameter = ParameterName.count
  public let requires: StoreRoles = .sharing
  public let parameters =
    [
      .count(10_000, "article changes synced"),
      WorkloadParameter(
        .batch, default: 500, range: 1...1_000_000, summary: "changes per sync batch (one unit of work)"),
      .percent(.updatePercent, 50, "share of changes that mark a stored article read (the rest insert)"),
      .stored(10_000, "articles stored before the sync", allowEmpty: true),
    ] + WorkloadParameter.timeline(messages: 20_000, users: 1_000) + RecordShape.parameters

  public func validate(_ parameters: WorkloadParameters) throws {
    let updates = parameters[.count] * parameters[.updatePercent] / 100
    guard updates <= parameters[.stored] else {
      throw ParameterError(
        "the sync marks \(updates) stored articles read but only \(parameters[.stored]) are stored")
    }
  }

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    let stored = parameters[.stored]
    let count = parameters[.count]
    let updates = count * parameters[.updatePercent] / 100
    let articles = generator.articles(count: stored + count - updates)
    let timeline = TimelineData(parameters, generator: generator)
    let updated = generator.sample(updates, of: stored, salt: 0x7379_6E63).map { articles[$0].uid }
    return Case(
      initial: Array(articles[..<stored]), inserted: Array(articles[stored...]), updated: updated,
      batch: parameters[.batch], timeline: timeline)
  }

  /// One sync batch: new articles and uids to mark read.
  struct Batch {
    var inserts: [Article] = []
    var reads: [String] = []
  }

  final class Case: WorkloadCase {
    let initial: [Article]
    let batches: [Batch]
    let timeline: TimelineData
    let changes: Int
    let expected: ArticleSnapshot
    let expectedScreen: String
    let fingerprint: String
    /// The inserted articles and the whole articles marked read.
    let recordBytesWritten: Int64?

    init(initial: [Article], inserted: [Article], updated: [String], batch: Int, timeline: TimelineData) {
      let marked = Set(updated)
      recordBytesWritten = inserted.payloadBytes + initial.filter { marked.contains($0.uid) }.payloadBytes
      self.initial = initial
      self.timeline = timeline
      changes = inserted.count + updated.count
      // Interleave the changes so every batch mixes inserts and updates in the requested proportion.
      var batches: [Batch] = []
      var current = Batch()
      var insertIndex = 0
      var updateIndex = 0
      for change in 0..<changes {
        let wantUpdate =
          updateIndex < updated.count
          && (insertIndex >= inserted.count || updateIndex * changes <= change * updated.count)
        if wantUpdate {
          current.reads.append(updated[updateIndex])
          updateIndex += 1
        } else {
          current.inserts.append(inserted[insertIndex])
          insertIndex += 1
        }
        if current.inserts.count + current.reads.count == batch {
          batches.append(current)
          current = Batch()
        }
      }
      if current.inserts.count + current.reads.count > 0 { batches.append(current) }
      self.batches = batches
      var after = initial + inserted
      let read = Set(updated)
      for index in after.indices where read.contains(after[index].uid) { after[index].read = true }
      expected = ArticleSnapshot(after)
      expectedScreen = Checksum.timeline(timeline.expected)
      var hash = FNV1a()
      hash.combine(Checksum.articles(initial).hex)
      for batch in batches {
        hash.combine(Checksum.articlesInOrder(batch.inserts))
        for uid in batch.reads { hash.combine(uid) }
      }
      hash.combine(timeline.fingerprint)
      fingerprint = hash.hex
    }

    /// The sync's view of the store, and the UI thread with its view already open (untimed).
    struct Sharing {
      let writer: any ArticleWriter
      let ui: SecondThread<Reads>
      /// Signalled by the UI thread as it begins its first screen load.
      let reading: DispatchSemaphore
      let syncDone: DoneFlag
    }

    func prepare(_ run: Repetition) throws -> Sharing {
      try run.fill("timeline and articles", content: fingerprint) {
        try run.sharable.load(users: timeline.users, messages: timeline.messages)
        try run.sharable.load(articles: initial)
      }
      let store = try run.sharable
      let sharing = try store.shareWithSecondThread()
      run.note(.note, "concurrency: " + sharing.concurrency)
      let screen = timeline.screen
      let syncDone = DoneFlag()
      let reading = DispatchSemaphore(value: 0)
      let ui = try SecondThread(
        open: sharing.openReader,
        run: { (opened: SharedReader) throws -> Reads in
          var reads = Reads()
          reading.signal()
          reads.latencies.reserveCapacity(4_096)
          var previous = monotonicNanoseconds()
          repeat {
            let loaded = try opened.reader.loadTimeline(limit: screen)
            let now = monotonicNanoseconds()
            reads.latencies.append(now &- previous)
            previous = now
            if loaded.messages.count != screen { reads.short += 1 }
            reads.last = loaded
          } while !syncDone.isRaised
          return reads
        }, close: { opened in try opened.close() })
      run.onFinish { try? ui.finish() }
      return Sharing(writer: sharing.writer, ui: ui, reading: reading, syncDone: syncDone)
    }

    /// The UI thread's screen loads while the sync runs.
    struct Reads: Sendable {
      /// Each screen load's latency, in nanoseconds: one per screen loaded.
      var latencies: [UInt64] = []
      var short = 0
      var last: TimelineScreen?
    }

    func measure(_ sharing: Sharing, _ run: Repetition) throws -> Measured<Reads> {
      let writer = sharing.writer
      // The screen is already loading when the sync begins, as when a sync starts under a visible UI.
      sharing.ui.go()
      sharing.reading.wait()
      do {
        defer { sharing.syncDone.raise() }
        for batch in batches {
          try writer.unitOfWork {
            for article in batch.inserts { try writer.insert(article) }
            if !batch.reads.isEmpty { try writer.markRead(uids: batch.reads) }
          }
        }
      }
      let reads = try sharing.ui.result()
      for latency in reads.latencies { run.latencies.record(nanoseconds: latency) }
      return Measured(ops: changes, reads)
    }

    func verify(_ reads: Reads, _ sharing: Sharing, _ run: Repetition) throws -> String {
      try sharing.ui.finish()
      run.note(.reads, String(reads.latencies.count))
      guard reads.short == 0 else {
        throw VerificationError("\(reads.short) of \(reads.latencies.count) screens were incomplete")
      }
      guard let last = reads.last, Checksum.timeline(last) == expectedScreen else {
        throw VerificationError("the UI thread's last screen differs from the stored timeline")
      }
      return try run.expectArticles(expected)
    }
  }
}
