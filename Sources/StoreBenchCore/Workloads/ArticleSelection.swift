/// What the workloads that act on a chosen part of a stored article collection share (mark-read, lookup,
/// delete): the `count` of `stored` parameters, their check, and the dataset fingerprint.
enum ArticleSelection {
    /// `count` (the row's size) and `stored`, with the given defaults.
    static func parameters(count: Int, countSummary: String, stored: Int = 20_000) -> [WorkloadParameter] {
        [
            WorkloadParameter("count", default: count, range: 1...10_000_000, summary: countSummary),
            WorkloadParameter("stored", default: stored, range: 1...10_000_000, summary: "articles in the store"),
        ]
    }

    /// `count` must not exceed `stored`.
    static func validate(_ parameters: WorkloadParameters) throws {
        guard parameters["count"] <= parameters["stored"] else {
            throw ParameterError("count (\(parameters["count"])) must not exceed stored (\(parameters["stored"]))")
        }
    }

    /// FNV-1a of the stored collection's checksum and what the workload chose (uids, keywords, …), in order.
    static func fingerprint(articles: [Article], choices: [String]) -> String {
        var hash = FNV1a()
        hash.combine(Checksum.articles(articles).hex)
        for choice in choices { hash.combine(choice) }
        return hash.hex
    }
}

extension StoreHoldingRepetition {
    /// Opens the store, keeps it open for the measurement, and fills it with `articles` (untimed).
    func openAndLoad(_ articles: [Article]) throws {
        let store = try opener.open()
        self.store = store
        try store.load(articles: articles)
    }
}
