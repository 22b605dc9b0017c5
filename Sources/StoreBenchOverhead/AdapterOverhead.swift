import CSQLiteBaseline
import Foundation
import StoreBenchBackends
import StoreBenchCore

/// Measures what the Swift `sqlite` backend adds over the same work written in C: N article inserts in one
/// transaction with a reused prepared statement, on the same generated data, into the same schema (the backend's
/// default variant's query index included), proven equal by the checksum and size of both databases. Both sides use journal=wal and
/// sync=off: the adapter costs CPU, and fsync timing on a shared virtual disk would drown it in noise.
/// The two sides alternate, each repetition on a fresh database in a private directory.
public enum AdapterOverhead {
    public struct Result: Sendable {
        public let count: Int
        public let cSeconds: [Double]
        public let swiftSeconds: [Double]

        public var cMedian: Double { Statistics.median(cSeconds) ?? 0 }
        public var swiftMedian: Double { Statistics.median(swiftSeconds) ?? 0 }
        /// Swift median over C median, minus one (0.05 = 5% slower than C).
        public var overhead: Double { swiftMedian / cMedian - 1 }
        /// The proof that both sides did the same work: the checksum of every article each database holds, and
        /// the databases' sizes, from the last repetition.
        public let equalWork: EqualWork
    }

    /// What each side's database holds after its inserts.
    public struct EqualWork: Sendable {
        public let cChecksum: String
        public let swiftChecksum: String
        public let cBytes: Int64
        public let swiftBytes: Int64
        public var holds: Bool { cChecksum == swiftChecksum && cBytes == swiftBytes }
    }

    public static func measure(count: Int, repetitions: Int, seed: UInt64, workdir: URL) throws -> Result {
        let articles = DatasetGenerator(seed: seed).articles(count: count)
        let work = try WorkDirectory(in: workdir, prefix: "storebench-overhead-")
        defer { work.remove() }
        let descriptor = SQLiteBackend.descriptor
        let variant = try descriptor.variant(["txn": "single", "journal": "wal", "sync": "off"])
        var cTimes: [Double] = [], swiftTimes: [Double] = []
        var equalWork = EqualWork(cChecksum: "", swiftChecksum: "", cBytes: 0, swiftBytes: 0)
        for repetition in 0..<(repetitions + 1) {  // the first round warms up
            let cDirectory = try work.subdirectory("c\(repetition)")
            let cSeconds = try measureC(articles, path: cDirectory.appendingPathComponent(SQLiteBackend.fileName).path,
                                        schema: SQLiteBackend.schema(for: variant))
            let location = StoreLocation(directory: try work.subdirectory("swift\(repetition)"), variant: variant)
            let store = try descriptor.open(location, as: (any ArticleStore).self)
            let start = monotonicNanoseconds()
            try store.unitOfWork {
                for article in articles { try store.insert(article) }
            }
            let end = monotonicNanoseconds()
            try store.close()
            let cBytes = DiskUsage.of(cDirectory).apparentBytes, swiftBytes = DiskUsage.of(location.directory).apparentBytes
            equalWork = EqualWork(
                cChecksum: try checksum(of: StoreLocation(directory: cDirectory, variant: variant), descriptor),
                swiftChecksum: try checksum(of: location, descriptor), cBytes: cBytes, swiftBytes: swiftBytes)
            if repetition > 0 {
                cTimes.append(cSeconds)
                swiftTimes.append(Double(end - start) / 1e9)
            }
        }
        return Result(count: count, cSeconds: cTimes, swiftSeconds: swiftTimes, equalWork: equalWork)
    }

    /// The checksum of every article in the database at `location`, read through the sqlite backend.
    private static func checksum(of location: StoreLocation, _ descriptor: BackendDescriptor) throws -> String {
        let store = try descriptor.open(location, as: (any ArticleStore).self)
        defer { try? store.close() }
        return Checksum.articles(try store.allArticles()).hex
    }

    /// Runs the C loop; the C strings are laid out before the call, outside the timed region.
    private static func measureC(_ articles: [Article], path: String, schema: String) throws -> Double {
        var bytes: [CChar] = []
        var offsets: [Int] = []
        offsets.reserveCapacity(articles.count * 3)
        for article in articles {
            for text in [article.uid, article.title, article.summary] {
                offsets.append(bytes.count)
                bytes.append(contentsOf: text.utf8CString)
            }
        }
        let pragmas = "PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY;"
        return try bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            var rows = articles.enumerated().map { index, article in
                sb_article(uid: base + offsets[index * 3], uid_len: Int32(article.uid.utf8.count), feed_id: article.feedID,
                           title: base + offsets[index * 3 + 1], title_len: Int32(article.title.utf8.count),
                           summary: base + offsets[index * 3 + 2], summary_len: Int32(article.summary.utf8.count),
                           published: article.published.millisecondsSince1970, read: article.read ? 1 : 0)
            }
            var elapsed: UInt64 = 0
            var message = [CChar](repeating: 0, count: 512)
            let rc = sb_c_insert(path, pragmas, schema, SQLiteBackend.insertArticleSQL,
                                 &rows, Int32(rows.count), &elapsed, &message, Int32(message.count))
            guard rc == 0 else {
                let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                throw StoreError.inconsistent("C baseline failed with SQLite code \(rc): \(text) [file: \(path)]")
            }
            return Double(elapsed) / 1e9
        }
    }
}
