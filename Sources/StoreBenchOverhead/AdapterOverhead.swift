import Foundation
import StoreBenchBackends
import StoreBenchCore

/// Measures what the Swift `sqlite`, `lmdb` and `gdbm` backends add over the same work written in C
/// (``CBaseline``): N article inserts in one transaction, and N point lookups by uid (each decoded into an
/// article) among M stored articles. Both sides run on the same generated data with the same settings, schema,
/// indexes and pragmas, and every repetition proves the work equal: for inserts, the checksum of every article
/// each database holds and the databases' sizes; for lookups, the checksum of what each side found in the same
/// database. The variants skip fsync (sqlite sync=off, lmdb sync=nosync, gdbm sync=none): the adapter costs CPU,
/// and fsync timing on a shared virtual disk would drown it in noise. The two sides alternate, every insert on a
/// fresh store in a private directory; the first round warms up.
public enum AdapterOverhead {
    public enum Operation: String, Sendable, CaseIterable {
        case insert, lookup

        /// The largest Swift/C ratio the project accepts for the operation.
        public var goal: Double { self == .insert ? 1.2 : 1.5 }
    }

    /// The backends compared, each with the variant both sides reproduce.
    public static let backends: [(name: String, settings: [String: String])] = [
        (
            SQLiteBackend.descriptor.name,
            SQLiteSettings().with { ($0.txn, $0.journal, $0.sync) = (.single, .wal, .off) }.requested
        ),
        (LMDBBackend.descriptor.name, LMDBBackend.Settings().with { ($0.txn, $0.sync) = (.single, .nosync) }.requested),
        (GDBMBackend.descriptor.name, GDBMBackend.Settings().with { $0.sync = .none }.requested),
    ]

    /// One backend and operation, both sides.
    public struct Measurement: Sendable {
        public let backend: String
        public let operation: Operation
        public let count: Int
        public let cSeconds: [Double]
        public let swiftSeconds: [Double]
        public let equalWork: EqualWork

        public var cMedian: Double { Statistics.median(cSeconds) ?? 0 }
        public var swiftMedian: Double { Statistics.median(swiftSeconds) ?? 0 }
        /// Swift median over C median (1.08: 8% slower than C).
        public var ratio: Double { swiftMedian / cMedian }
        public var meetsGoal: Bool { ratio <= operation.goal }
    }

    /// The proof that both sides did the same work, from the last repetition: what each side's result was.
    public struct EqualWork: Sendable, CustomStringConvertible {
        /// For inserts, "articles <checksum>, <bytes> bytes" of each database; for lookups, "found <count>,
        /// <checksum>".
        public let c: String
        public let swift: String
        public var holds: Bool { c == swift && !c.isEmpty }
        public var description: String { holds ? c : "C: \(c); Swift: \(swift)" }
    }

    /// A signal stopped the measurement before it finished.
    public struct Stopped: Error {}

    public static func measure(
        backends names: [String] = backends.map(\.name), operations: [Operation] = Operation.allCases,
        count: Int, stored: Int, repetitions: Int, seed: UInt64, workdir: URL,
        shouldStop: @escaping () -> Bool = { false }
    ) throws -> [Measurement] {
        let generator = DatasetGenerator(seed: seed)
        let articles = generator.articles(count: max(count, stored))
        var rng = SplitMix64(seed: seed ^ 0x6F76_6572)
        let uids = (0..<count).map { _ in articles[Int.random(in: 0..<stored, using: &rng)].uid }
        let work = try WorkDirectory(in: workdir, prefix: "storebench-overhead-")
        defer { work.remove() }
        var results: [Measurement] = []
        let registry = BackendRegistry.standard()
        for name in names {
            guard let entry = backends.first(where: { $0.name == name }) else {
                throw StoreError.unsupported(
                    "no C baseline for backend '\(name)'; there are: \(backends.map(\.name).joined(separator: ", "))")
            }
            let descriptor = registry[name]!
            let variant = try descriptor.variant(entry.settings)
            let side = Sides(
                backend: name, descriptor: descriptor, variant: variant, work: work, shouldStop: shouldStop)
            for operation in operations {
                switch operation {
                case .insert:
                    results.append(try side.insert(Array(articles.prefix(count)), repetitions: repetitions))
                case .lookup:
                    results.append(
                        try side.lookup(uids, among: Array(articles.prefix(stored)), repetitions: repetitions))
                }
            }
        }
        return results
    }

    /// The two sides of one backend.
    struct Sides {
        let backend: String
        let descriptor: BackendDescriptor
        let variant: Variant
        let work: WorkDirectory
        /// Checked before every repetition: a signal stops the measurement (``Stopped``).
        let shouldStop: () -> Bool

        func insert(_ articles: [Article], repetitions: Int) throws -> Measurement {
            let baseline = try CBaseline(backend: backend, variant: variant, articles: articles)
            var cTimes: [Double] = []
            var swiftTimes: [Double] = []
            var proof = EqualWork(c: "", swift: "")
            for repetition in 0...repetitions {
                if shouldStop() { throw Stopped() }
                let cDirectory = try work.subdirectory("\(backend)-insert-c\(repetition)")
                let cSeconds = try baseline.insert(into: cDirectory)
                let location = StoreLocation(
                    directory: try work.subdirectory("\(backend)-insert-swift\(repetition)"), variant: variant)
                let store = try descriptor.open(location, as: (any ArticleStore).self)
                let start = monotonicNanoseconds()
                try store.unitOfWork {
                    for article in articles { try store.insert(article) }
                }
                try store.commitPending()
                let end = monotonicNanoseconds()
                try store.close()
                proof = EqualWork(c: try contents(of: cDirectory), swift: try contents(of: location.directory))
                guard proof.holds else { break }
                if repetition > 0 {
                    cTimes.append(cSeconds)
                    swiftTimes.append(Double(end - start) / 1e9)
                }
                work.retire(cDirectory)
                work.retire(location.directory)
            }
            return Measurement(
                backend: backend, operation: .insert, count: articles.count, cSeconds: cTimes,
                swiftSeconds: swiftTimes, equalWork: proof)
        }

        func lookup(_ uids: [String], among articles: [Article], repetitions: Int) throws -> Measurement {
            let location = StoreLocation(directory: try work.subdirectory("\(backend)-lookup"), variant: variant)
            let filling = try descriptor.open(location, as: (any ArticleStore).self)
            try filling.load(articles: articles)
            try filling.close()
            let baseline = try CBaseline(backend: backend, variant: variant, articles: [])
            var cTimes: [Double] = []
            var swiftTimes: [Double] = []
            var proof = EqualWork(c: "", swift: "")
            for repetition in 0...repetitions {
                if shouldStop() { throw Stopped() }
                let (cSeconds, cFound) = try baseline.lookup(uids, in: location.directory)
                let store = try descriptor.open(location, as: (any ArticleStore).self)
                var found: [Article?] = []
                found.reserveCapacity(uids.count)
                let start = monotonicNanoseconds()
                for uid in uids { found.append(try store.article(uid: uid)) }
                let end = monotonicNanoseconds()
                try store.close()
                proof = EqualWork(c: cFound, swift: CBaseline.describe(found))
                guard proof.holds else { break }
                if repetition > 0 {
                    cTimes.append(cSeconds)
                    swiftTimes.append(Double(end - start) / 1e9)
                }
            }
            return Measurement(
                backend: backend, operation: .lookup, count: uids.count, cSeconds: cTimes,
                swiftSeconds: swiftTimes, equalWork: proof)
        }

        /// The checksum of every article in the store in `directory`, read through the Swift backend, and the size
        /// of its files.
        private func contents(of directory: URL) throws -> String {
            let bytes = DiskUsage.of(directory).apparentBytes
            let store = try descriptor.open(
                StoreLocation(directory: directory, variant: variant), as: (any ArticleStore).self)
            defer { try? store.close() }
            return "articles \(Checksum.articles(try store.allArticles()).hex), \(bytes) bytes"
        }
    }
}
