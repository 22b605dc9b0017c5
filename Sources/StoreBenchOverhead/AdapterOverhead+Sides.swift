import Foundation
import StoreBenchBackends
import StoreBenchCore

extension AdapterOverhead {
    /// The three sides of one backend and operation.
    struct Sides {
        let backend: String
        let descriptor: BackendDescriptor
        let variant: Variant
        let work: WorkDirectory
        let path: WorkloadPath
        let counters: CostCounters?
        /// Checked before every round: a signal stops the measurement (``Stopped``).
        let shouldStop: () -> Bool

        /// The order of the sides in round `round`: rotated each round, so none always runs first.
        static func order(_ round: Int) -> [Side] {
            let all = Side.allCases
            return (0..<all.count).map { all[($0 + round) % all.count] }
        }

        enum Side: CaseIterable { case c, adapter, workload }

        func insert(_ articles: [Article], repetitions: Int) throws -> Measurement {
            let baseline = try CBaseline(backend: backend, variant: variant, articles: articles)
            var times: [Side: [Double]] = [:]
            var proof = EqualWork(c: "", adapter: "", workload: "", adapterChecksum: "")
            for round in 0...repetitions {
                if shouldStop() { throw Stopped() }
                var seconds: [Side: Double] = [:]
                var (cResult, adapterResult, workloadChecksum) = ("", "", "")
                var adapterChecksum = ""
                for side in Self.order(round) {
                    switch side {
                    case .c:
                        let directory = try work.subdirectory("\(backend)-insert-c\(round)")
                        seconds[.c] = try baseline.insert(into: directory)
                        cResult = try contents(of: directory).description
                        work.retire(directory)
                    case .adapter:
                        let location = StoreLocation(
                            directory: try work.subdirectory("\(backend)-insert-adapter\(round)"), variant: variant)
                        let store = try descriptor.open(location, as: (any ArticleStore).self)
                        let start = monotonicNanoseconds()
                        try store.unitOfWork {
                            for article in articles { try store.insert(article) }
                        }
                        try store.commitPending()
                        let end = monotonicNanoseconds()
                        try store.close()
                        seconds[.adapter] = Double(end - start) / 1e9
                        let found = try contents(of: location.directory)
                        (adapterResult, adapterChecksum) = (found.description, found.checksum)
                        work.retire(location.directory)
                    case .workload:
                        (seconds[.workload], workloadChecksum) = try path.run(
                            round: round, in: work, counters: counters)
                    }
                }
                proof = EqualWork(
                    c: cResult, adapter: adapterResult, workload: workloadChecksum, adapterChecksum: adapterChecksum)
                guard proof.holds else { break }
                if round > 0 { for (side, value) in seconds { times[side, default: []].append(value) } }
            }
            return measurement(.insert, count: articles.count, times, proof)
        }

        func lookup(_ uids: [String], among articles: [Article], repetitions: Int) throws -> Measurement {
            let location = StoreLocation(directory: try work.subdirectory("\(backend)-lookup"), variant: variant)
            let filling = try descriptor.open(location, as: (any ArticleStore).self)
            try filling.load(articles: articles)
            try filling.close()
            let baseline = try CBaseline(backend: backend, variant: variant, articles: [])
            var times: [Side: [Double]] = [:]
            var proof = EqualWork(c: "", adapter: "", workload: "", adapterChecksum: "")
            for round in 0...repetitions {
                if shouldStop() { throw Stopped() }
                var seconds: [Side: Double] = [:]
                var (cFound, adapterFound, workloadChecksum, adapterChecksum) = ("", "", "", "")
                for side in Self.order(round) {
                    switch side {
                    case .c:
                        (seconds[.c], cFound) = try baseline.lookup(uids, in: location.directory)
                    case .adapter:
                        let store = try descriptor.open(location, as: (any ArticleStore).self)
                        var found: [Article?] = []
                        found.reserveCapacity(uids.count)
                        let start = monotonicNanoseconds()
                        for uid in uids { found.append(try store.article(uid: uid)) }
                        let end = monotonicNanoseconds()
                        try store.close()
                        seconds[.adapter] = Double(end - start) / 1e9
                        adapterFound = CBaseline.describe(found)
                        adapterChecksum = Checksum.articlesInOrder(found.compactMap { $0 })
                    case .workload:
                        (seconds[.workload], workloadChecksum) = try path.run(
                            round: round, in: work, counters: counters)
                    }
                }
                proof = EqualWork(
                    c: cFound, adapter: adapterFound, workload: workloadChecksum, adapterChecksum: adapterChecksum)
                guard proof.holds else { break }
                if round > 0 { for (side, value) in seconds { times[side, default: []].append(value) } }
            }
            return measurement(.lookup, count: uids.count, times, proof)
        }

        private func measurement(_ operation: Operation, count: Int, _ times: [Side: [Double]], _ proof: EqualWork)
            -> Measurement
        {
            Measurement(
                backend: backend, variant: variant.description, operation: operation, count: count,
                cSeconds: times[.c] ?? [], adapterSeconds: times[.adapter] ?? [],
                workloadSeconds: times[.workload] ?? [], equalWork: proof)
        }

        /// What a store holds, read through the Swift backend: the checksum of every article and the size of its
        /// files ("articles <checksum>, <bytes> bytes").
        private func contents(of directory: URL) throws -> (checksum: String, description: String) {
            let bytes = DiskUsage.of(directory).apparentBytes
            let store = try descriptor.open(
                StoreLocation(directory: directory, variant: variant), as: (any ArticleStore).self)
            defer { try? store.close() }
            let checksum = Checksum.articles(try store.allArticles()).hex
            return (checksum, "articles \(checksum), \(bytes) bytes")
        }
    }
}
