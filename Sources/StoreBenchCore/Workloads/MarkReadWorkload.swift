/// `mark-read`: with M articles stored, mark a given random list of N uids read in one app operation
/// ("mark these 10,000 articles read").
public struct MarkReadWorkload: Workload {
    public init() {}
    public let name = "mark-read"
    public let summary = "with M articles stored, mark a random list of N uids read (bulk flag update)"
    public let sizeParameter = "count"
    public let parameters = ArticleSelection.parameters(count: 10_000, countSummary: "articles marked read")

    public func validate(_ parameters: WorkloadParameters) throws { try ArticleSelection.validate(parameters) }

    public func makeData(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadData {
        let articles = generator.articles(count: parameters["stored"])
        let chosen = generator.sample(parameters["count"], of: articles.count, salt: 0x6D61_726B)
        return Dataset(articles: articles, chosen: chosen)
    }

    final class Dataset: WorkloadData {
        let articles: [Article]
        let uids: [String]
        let expected: (count: Int, hex: String)
        let fingerprint: String

        init(articles: [Article], chosen: [Int]) {
            self.articles = articles
            uids = chosen.map { articles[$0].uid }
            var after = articles
            for index in chosen { after[index].read = true }
            expected = Checksum.articles(after)
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
            try store.unitOfWork { try store.markRead(uids: uids) }
            return uids.count
        }

        func verify() throws -> String {
            let found = try closeAndReadBack()
            let read = Set(found.articles.lazy.filter(\.read).map(\.uid))
            let wanted = Set(data.uids)
            guard read == wanted else {
                throw VerificationError(
                    "expected exactly \(wanted.count) articles read, found \(read.count) read "
                        + "(\(wanted.subtracting(read).count) missed, \(read.subtracting(wanted).count) extra)")
            }
            try ArticleExpectation.match(found, count: data.expected.count, checksum: data.expected.hex)
            return found.hex
        }
    }
}
