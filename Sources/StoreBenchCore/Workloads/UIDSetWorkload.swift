/// `uid-set`: with M articles stored, load every uid into a `Set` — the "keep the ids in memory" trick an app
/// uses to skip known articles during sync.
public struct UIDSetWorkload: Workload {
    public init() {}
    public let name = "uid-set"
    public let summary = "with M articles stored, load all uids into a Set (keep the ids in memory)"
    public let sizeParameter = "stored"
    public let parameters = [
        WorkloadParameter("stored", default: 20_000, range: 1...10_000_000, summary: "articles in the store"),
    ]

    public func makeData(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadData {
        Dataset(articles: generator.articles(count: parameters["stored"]))
    }

    final class Dataset: WorkloadData {
        let articles: [Article]
        let expected: Set<String>
        let fingerprint: String

        init(articles: [Article]) {
            self.articles = articles
            expected = Set(articles.map(\.uid))
            fingerprint = Checksum.articles(articles).hex
        }

        func makeRepetition(opener: StoreOpener) -> any WorkloadRepetition { Repetition(data: self, opener: opener) }
    }

    final class Repetition: StoreHoldingRepetition, WorkloadRepetition {
        let data: Dataset
        var loaded: Set<String> = []

        init(data: Dataset, opener: StoreOpener) {
            self.data = data
            super.init(opener: opener)
        }

        func prepare() throws { try openAndLoad(data.articles) }

        func measure() throws -> Int {
            loaded = Set(try store!.allUIDs())
            return loaded.count
        }

        func verify() throws -> String {
            guard loaded == data.expected else {
                throw VerificationError("loaded \(loaded.count) uids, expected \(data.expected.count) "
                                        + "(\(data.expected.subtracting(loaded).count) missing)")
            }
            var hash = FNV1a()
            for uid in loaded.sorted() { hash.combine(uid) }
            return hash.hex
        }
    }
}
