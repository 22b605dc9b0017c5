/// `insert`: N new articles, one `insert` call per article inside one unit of work — what an app's sync does — so the
/// backend's transaction policy is what gets measured. Into an empty store, or (`stored` M) into a store that already
/// holds M other articles: the latencies are then those of saving a record into a full store.
///
/// With `batch` B the N articles are N/B app operations of B articles each (B = 1: an app saving one message at a
/// time), each its own unit of work: an operation's latency then includes its commit, as the strategy commits an
/// app operation (its own transaction, autocommit, or an auto-batch whose commit falls inside the operation that
/// fills it), and the row's `ops` counts app operations, not articles.
public struct InsertWorkload: Workload {
  public init() {}
  public let name = "insert"
  public let smokeParameters = ["count": 50]
  public let summary =
    "insert N articles one call at a time into an empty store, or one holding M (the transaction policy shows)"
  public let sizeParameter = ParameterName.count
  public let requires: StoreRoles = .articles
  public let parameters =
    [
      .count(10_000, "articles inserted"),
      .stored(0, "articles already in the store (0: an empty store)", allowEmpty: true, optional: true),
      WorkloadParameter(
        .batch, default: 0, range: 0...10_000_000,
        summary:
          "articles per app operation, each its own unit of work timed with its commit (0: all N in one)",
        optional: true),
    ] + RecordShape.parameters

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    // The stored articles are the first `stored` of the generated sequence — the articles every other workload
    // stores, so the filled store is shared with them (``Repetition/fill(_:content:_:)``) — and the inserted
    // ones follow; an empty store (the default) inserts exactly the articles, and has exactly the checksum, it
    // always had.
    let count = parameters[.count]
    let stored = parameters.value(.stored) ?? 0
    let generated = generator.articles(count: stored + count)
    return Case(
      articles: Array(generated[stored...]), stored: Array(generated[..<stored]),
      batch: parameters.value(.batch).flatMap { $0 > 0 ? $0 : nil })
  }

  public func validate(_ parameters: WorkloadParameters) throws {
    try OperationBatches.validate(parameters)
  }

  final class Case: WorkloadCase {
    let articles: [Article]
    let stored: [Article]
    /// The articles of each app operation (`batch`), made before the clock; nil: all of them in one.
    let operations: [Range<Int>]?
    let expected: ArticleSnapshot
    let recordBytesWritten: Int64?

    init(articles: [Article], stored: [Article], batch: Int?) {
      self.articles = articles
      self.stored = stored
      operations = batch.map { OperationBatches.ranges(count: articles.count, size: $0) }
      expected = ArticleSnapshot(stored + articles)
      recordBytesWritten = articles.payloadBytes
    }

    var fingerprint: String { expected.hex }

    func prepare(_ run: Repetition) throws -> any ArticleStore {
      stored.isEmpty ? try run.articles : try run.storeLoaded(with: stored, as: (any ArticleStore).self)
    }

    func measure(_ store: any ArticleStore, _ run: Repetition) throws -> Measured<Void> {
      let articles = articles
      let recorder = run.latencies
      guard let operations else {
        try store.unitOfWork {
          try recorder.timeEach(articles) { try store.insert($0) }
        }
        return Measured(ops: articles.count)
      }
      try recorder.timeEach(operations) { range in
        try store.unitOfWork { for article in articles[range] { try store.insert(article) } }
      }
      return Measured(ops: operations.count)
    }

    func verify(_: Void, _: any ArticleStore, _ run: Repetition) throws -> String {
      try run.expectArticles(expected)
    }
  }
}
