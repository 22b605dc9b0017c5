/// `insert`: N new articles into an empty store, one `insert` call per article inside one unit of work —
/// what an app's sync does — so the backend's transaction policy is what gets measured.
public struct InsertWorkload: Workload {
    public init() {}
    public let name = "insert"
    public let smokeParameters = ["count": 50]
    public let summary = "insert N articles one call at a time into an empty store (the transaction policy shows)"
    public let sizeParameter = "count"
    public let requires: StoreRoles = .articles
    public let parameters = [
        .count(10_000, "articles inserted"),
    ] + ArticleShape.parameters

    public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
        Case(articles: generator.articles(count: parameters["count"]))
    }

    final class Case: WorkloadCase {
        let articles: [Article]
        let expected: ArticleSnapshot

        init(articles: [Article]) {
            self.articles = articles
            expected = ArticleSnapshot(articles)
        }

        var fingerprint: String { expected.hex }
        var recordBytesWritten: Int64? { articles.payloadBytes }

        func prepare(_ run: Repetition) throws -> any ArticleStore { try run.articles }

        func measure(_ store: any ArticleStore, _ run: Repetition) throws -> Measured<Void> {
            let articles = articles, recorder = run.latencies
            try store.unitOfWork {
                try recorder.timeEach(articles) { try store.insert($0) }
            }
            return Measured(ops: articles.count)
        }

        func verify(_: Void, _: any ArticleStore, _ run: Repetition) throws -> String {
            try run.expectArticles(expected)
        }
    }
}
