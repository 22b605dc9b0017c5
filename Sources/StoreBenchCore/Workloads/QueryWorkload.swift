/// `query`: the query an RSS app runs on every change — unread count per feed, then the newest 50 unread of one
/// feed — `count` times over a store of `stored` articles of which `read_percent` are read. SQL backends record
/// `EXPLAIN QUERY PLAN` in the row's `query_plan` (and offer `index=on|off`); the others name their strategy.
public struct QueryWorkload: Workload {
    public init() {}
    public let name = "query"
    public let summary = "unread count per feed + newest 50 unread of one feed, N times over M articles (query plan recorded)"
    public let sizeParameter = "stored"
    public let parameters = [
        WorkloadParameter("stored", default: 20_000, range: 1...10_000_000, summary: "articles in the store"),
        WorkloadParameter("count", default: 200, range: 1...1_000_000, summary: "queries (each: counts + one feed's newest unread)"),
        WorkloadParameter("read_percent", default: 50, range: 0...100, summary: "share of the articles already read"),
        WorkloadParameter("limit", default: 50, range: 1...10_000, summary: "unread articles listed per query"),
    ]

    public func makeData(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadData {
        var articles = generator.articles(count: parameters["stored"])
        let readCount = articles.count * parameters["read_percent"] / 100
        for index in generator.sample(readCount, of: articles.count, salt: 0x7175_6572) { articles[index].read = true }
        let feeds = Array(Set(articles.map(\.feedID))).sorted()
        let feedOrder = (0..<parameters["count"]).map { feeds[$0 % feeds.count] }
        return Dataset(articles: articles, feeds: feedOrder, limit: parameters["limit"])
    }

    final class Dataset: WorkloadData {
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

        func makeRepetition(opener: StoreOpener) -> any WorkloadRepetition { Repetition(data: self, opener: opener) }
    }

    final class Repetition: StoreHoldingRepetition, WorkloadRepetition {
        let data: Dataset
        let latencies: LatencyRecorder? = LatencyRecorder()
        var notes: [String: String] = [:]
        var counts: [[Int64: Int]] = []
        var newest: [[Article]] = []

        init(data: Dataset, opener: StoreOpener) {
            self.data = data
            super.init(opener: opener)
        }

        func prepare() throws {
            try openAndLoad(data.articles)
            notes["query_plan"] = try store!.queryPlans().joined(separator: " | ")
            counts.reserveCapacity(data.feeds.count)
            newest.reserveCapacity(data.feeds.count)
        }

        func measure() throws -> Int {
            let store = store!, recorder = latencies!, limit = data.limit
            try recorder.timeEach(data.feeds) { feed in
                counts.append(try store.unreadCounts())
                newest.append(try store.newestUnread(feedID: feed, limit: limit))
            }
            return data.feeds.count
        }

        func verify() throws -> String {
            var hash = FNV1a()
            for (index, feed) in data.feeds.enumerated() {
                guard counts[index] == data.expectedCounts else {
                    throw VerificationError("query \(index): unread counts per feed differ from the stored data's")
                }
                let expected = data.expectedNewest[feed] ?? []
                guard newest[index] == expected else {
                    throw VerificationError("query \(index): newest unread of feed \(feed) returned \(newest[index].count) articles, "
                                            + "expected \(expected.count) (or a different order or content)")
                }
                hash.combine(Checksum.articlesInOrder(newest[index]))
            }
            return hash.hex
        }
    }
}
