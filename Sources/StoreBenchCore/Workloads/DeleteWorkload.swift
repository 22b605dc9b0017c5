/// `delete`: with M articles stored, delete a given random list of D uids in one app operation (expiring old
/// articles). Verified after reopening: exactly the other M − D remain, unchanged.
public struct DeleteWorkload: Workload {
    public init() {}
    public let name = "delete"
    public let summary = "with M articles stored, delete a random list of D uids (expire old articles)"
    public let sizeParameter = "count"
    public let parameters = ArticleSelection.parameters(count: 5_000, countSummary: "articles deleted")

    public func validate(_ parameters: WorkloadParameters) throws { try ArticleSelection.validate(parameters) }

    public func makeData(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadData {
        let articles = generator.articles(count: parameters["stored"])
        let chosen = Set(generator.sample(parameters["count"], of: articles.count, salt: 0x6465_6C65))
        return Dataset(articles: articles, chosen: chosen)
    }

    final class Dataset: WorkloadData {
        let articles: [Article]
        let uids: [String]
        let expected: (count: Int, hex: String)
        let fingerprint: String

        init(articles: [Article], chosen: Set<Int>) {
            self.articles = articles
            uids = chosen.sorted().map { articles[$0].uid }
            expected = Checksum.articles(articles.enumerated().filter { !chosen.contains($0.offset) }.map(\.element))
            fingerprint = ArticleSelection.fingerprint(articles: articles, choices: uids)
        }

        func makeRepetition(opener: StoreOpener) -> any WorkloadRepetition { Repetition(data: self, opener: opener) }
    }

    final class Repetition: StoreHoldingRepetition, WorkloadRepetition {
        let data: Dataset

        init(data: Dataset, opener: StoreOpener) {
            self.data = data
            super.init(opener: opener)
        }

        func prepare() throws { try openAndLoad(data.articles) }

        func measure() throws -> Int {
            let store = store!, uids = data.uids
            try store.unitOfWork { try store.delete(uids: uids) }
            return uids.count
        }

        func verify() throws -> String {
            let found = try closeAndReadBack()
            try ArticleExpectation.match(found, count: data.expected.count, checksum: data.expected.hex)
            return found.hex
        }
    }
}
