/// `lookup`: with M articles stored, look up N random uids one call at a time (each returns a model value),
/// as a detail screen or a sync merge does. Records per-lookup latency percentiles.
public struct LookupWorkload: Workload {
    public init() {}
    public let name = "lookup"
    public let summary = "with M articles stored, N random point lookups by uid, one call each (latency percentiles)"
    public let sizeParameter = "count"
    public let parameters = ArticleSelection.parameters(count: 10_000, countSummary: "lookups")

    public func validate(_ parameters: WorkloadParameters) throws { try ArticleSelection.validate(parameters) }

    public func makeData(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadData {
        let articles = generator.articles(count: parameters["stored"])
        let chosen = generator.sample(parameters["count"], of: articles.count, salt: 0x6C6F_6F6B)
        return Dataset(articles: articles, wanted: chosen.map { articles[$0] })
    }

    final class Dataset: WorkloadData {
        let articles: [Article]
        let uids: [String]
        let expected: String
        let fingerprint: String

        init(articles: [Article], wanted: [Article]) {
            self.articles = articles
            uids = wanted.map(\.uid)
            expected = Checksum.articlesInOrder(wanted)  // the i-th lookup must return the i-th article
            fingerprint = ArticleSelection.fingerprint(articles: articles, choices: uids)
        }

        func makeRepetition(opener: StoreOpener) -> any WorkloadRepetition { Repetition(data: self, opener: opener) }
    }

    final class Repetition: StoreHoldingRepetition, WorkloadRepetition {
        let data: Dataset
        let latencies: LatencyRecorder? = LatencyRecorder()
        var found: [Article?] = []

        init(data: Dataset, opener: StoreOpener) {
            self.data = data
            super.init(opener: opener)
        }

        func prepare() throws {
            try openAndLoad(data.articles)
            found.reserveCapacity(data.uids.count)
        }

        func measure() throws -> Int {
            let store = store!, recorder = latencies!
            try recorder.timeEach(data.uids) { found.append(try store.article(uid: $0)) }
            return data.uids.count
        }

        func verify() throws -> String {
            let missing = found.filter { $0 == nil }.count
            guard missing == 0 else { throw VerificationError("\(missing) of \(found.count) lookups found nothing") }
            let checksum = Checksum.articlesInOrder(found.compactMap { $0 })
            guard checksum == data.expected else {
                throw VerificationError("lookups returned different articles (checksum \(checksum), expected \(data.expected))")
            }
            return checksum
        }
    }
}
