/// `query`: the query an RSS app runs on every change — unread count per feed, then the newest 50 unread of one
/// feed — `count` times over a store of `stored` articles of which `read_percent` are read. SQL backends record
/// `EXPLAIN QUERY PLAN` in the row's `query_plan` (and offer `index=on|off`); the others name their strategy.
public struct QueryWorkload: Workload {
  public init() {}
  public let name = "query"

  public func missingNotes(_ notes: [SampleColumn: String]) -> String? {
    (notes[.queryPlan] ?? "").isEmpty ? "the row records no query plan" : nil
  }
  public let smokeParameters = ["stored": 200, "count": 5]
  public let summary =
    "unread count per feed + newest 50 unread of one feed, N times over M articles (query plan recorded)"
  public let sizeParameter = ParameterName.stored
  public let requires: StoreRoles = .queries
  public let leavesStoreUnchanged = true
  public let parameters =
    [
      .stored(20_000),
      .count(200, "queries (each: counts + one feed's newest unread)", max: 1_000_000),
      .percent(.readPercent, 50, "share of the articles already read"),
      WorkloadParameter(.limit, default: 50, range: 1...10_000, summary: "unread articles listed per query"),
    ] + RecordShape.parameters

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    var articles = generator.articles(count: parameters[.stored])
    let readCount = articles.count * parameters[.readPercent] / 100
    for index in generator.sample(readCount, of: articles.count, salt: 0x7175_6572) { articles[index].read = true }
    let feeds = Array(Set(articles.map(\.feedID))).sorted()
    let feedOrder = (0..<parameters[.count]).map { feeds[$0 % feeds.count] }
    return Case(articles: articles, feeds: feedOrder, limit: parameters[.limit])
  }

  final class Case: WorkloadCase {
    let articles: [Article]
    let feeds: [Int64]
    let limit: Int
    let expectedCounts: [Int64: Int]
    let expectedNewest: [Int64: [Article]]
    let fingerprint: String

    init(articles: [Article], feeds: [Int64], limit: Int) {
      self.articles = articles
      self.feeds = feeds
      self.limit = limit
      var counts: [Int64: Int] = [:]
      var unread: [Int64: [Article]] = [:]
      for article in articles where !article.read {
        counts[article.feedID, default: 0] += 1
        unread[article.feedID, default: []].append(article)
      }
      expectedCounts = counts
      expectedNewest = unread.mapValues { Array($0.sorted(by: Article.isNewer).prefix(limit)) }
      var hash = FNV1a()
      hash.combine(Checksum.articles(articles).hex)
      for feed in feeds { hash.combine(feed) }
      hash.combine(Int64(limit))
      fingerprint = hash.hex
    }

    func prepare(_ run: Repetition) throws -> any QueryStore {
      let store = try run.storeLoaded(with: articles, as: (any QueryStore).self)
      run.note(.queryPlan, try store.queryPlans().joined(separator: " | "))
      return store
    }

    func measure(_ store: any QueryStore, _ run: Repetition) throws -> Measured<
      [(counts: [Int64: Int], newest: [Article])]
    > {
      let limit = limit
      var answers: [(counts: [Int64: Int], newest: [Article])] = []
      answers.reserveCapacity(feeds.count)
      try run.latencies.timeEach(feeds) { feed in
        answers.append((try store.unreadCounts(), try store.newestUnread(feedID: feed, limit: limit)))
      }
      return Measured(ops: feeds.count, answers)
    }

    func verify(_ answers: [(counts: [Int64: Int], newest: [Article])], _: any QueryStore, _ run: Repetition) throws
      -> String
    {
      var hash = FNV1a()
      for (index, feed) in feeds.enumerated() {
        guard answers[index].counts == expectedCounts else {
          throw VerificationError("query \(index): unread counts per feed differ from the stored data's")
        }
        let expected = expectedNewest[feed] ?? []
        guard answers[index].newest == expected else {
          throw VerificationError(
            "query \(index): newest unread of feed \(feed) returned \(answers[index].newest.count) "
              + "articles, expected \(expected.count) (or a different order or content)")
        }
        hash.combine(Checksum.articlesInOrder(answers[index].newest))
      }
      return hash.hex
    }
  }
}
