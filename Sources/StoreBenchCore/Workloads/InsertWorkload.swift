/// `insert`: N new articles into an empty store, one `insert` call per article inside one unit of work —
/// what an app's sync does — so the backend's transaction policy is what gets measured.
public struct InsertWorkload: Workload {
    public init() {}
    public let name = "insert"
    public let summary = "insert N articles one call at a time into an empty store (the transaction policy shows)"
    public let sizeParameter = "count"
    public let parameters = [
        WorkloadParameter("count", default: 10_000, range: 1...10_000_000, summary: "articles inserted"),
    ]

    public func makeData(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadData {
        Dataset(articles: generator.articles(count: parameters["count"]))
    }

    final class Dataset: WorkloadData {
        let articles: [Article]
        let expected: (count: Int, hex: String)
        var fingerprint: String { expected.hex }

        init(articles: [Article]) {
            self.articles = articles
            self.expected = Checksum.articles(articles)
        }

        func makeRepetition(opener: StoreOpener) -> any WorkloadRepetition { Repetition(data: self, opener: opener) }
    }

    final class Repetition: StoreHoldingRepetition, WorkloadRepetition {
        let data: Dataset
        let latencies: LatencyRecorder? = LatencyRecorder()

        init(data: Dataset, opener: StoreOpener) {
            self.data = data
            super.init(opener: opener)
        }

        func prepare() throws { store = try opener.open() }

        func measure() throws -> Int {
            let store = store!, articles = data.articles, recorder = latencies!
            try store.unitOfWork {
                try recorder.timeEach(articles) { try store.insert($0) }
            }
            return articles.count
        }

        func verify() throws -> String {
            let found = try closeAndReadBack()
            try ArticleExpectation.match(found, count: data.expected.count, checksum: data.expected.hex)
            return found.hex
        }
    }
}

/// Plumbing shared by repetitions that keep one store open between phases.
class StoreHoldingRepetition {
    let opener: StoreOpener
    var store: (any Store)?

    init(opener: StoreOpener) { self.opener = opener }

    /// Closes the store, then reads every article back through a freshly opened one.
    func closeAndReadBack() throws -> (articles: [Article], count: Int, hex: String) {
        try store?.close()
        store = nil
        return try ReopenedStore.articles(opener)
    }

    func finish() {
        closeQuietly(store)
        store = nil
    }
}

/// Reads every article through a freshly opened store (proving the data reached the files), then closes it.
enum ReopenedStore {
    static func articles(_ opener: StoreOpener) throws -> (articles: [Article], count: Int, hex: String) {
        let store = try opener.open()
        defer { closeQuietly(store) }
        let articles = try store.allArticles()
        let checksum = Checksum.articles(articles)
        return (articles, checksum.count, checksum.hex)
    }
}

enum ArticleExpectation {
    static func match(_ found: (articles: [Article], count: Int, hex: String), count: Int, checksum: String) throws {
        guard found.count == count, found.hex == checksum else {
            throw VerificationError(
                "expected \(count) articles with checksum \(checksum), found \(found.count) with checksum \(found.hex)")
        }
    }
}
