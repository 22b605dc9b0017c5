import CSQLiteBaseline
import Foundation
import StoreBenchBackends
import StoreBenchCore

/// Measures what the Swift `sqlite` backend adds over the same work written in C: N article inserts in one
/// transaction with a reused prepared statement, on the same generated data. Both sides use journal=wal and
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
    }

    public static func measure(count: Int, repetitions: Int, seed: UInt64, workdir: URL) throws -> Result {
        let articles = DatasetGenerator(seed: seed).articles(count: count)
        let work = try WorkDirectory(in: workdir, prefix: "storebench-overhead-")
        defer { work.remove() }
        let descriptor = SQLiteBackend.descriptor
        let variant = try descriptor.variant(["txn": "single", "journal": "wal", "sync": "off"])
        var cTimes: [Double] = [], swiftTimes: [Double] = []
        for repetition in 0..<(repetitions + 1) {  // the first round warms up
            let cSeconds = try measureC(articles, path: try work.subdirectory("c\(repetition)").appendingPathComponent(SQLiteBackend.fileName).path)
            let location = StoreLocation(directory: try work.subdirectory("swift\(repetition)"), variant: variant)
            let store = try descriptor.open(location, as: (any ArticleStore).self)
            let start = monotonicNanoseconds()
            try store.unitOfWork {
                for article in articles { try store.insert(article) }
            }
            let end = monotonicNanoseconds()
            try store.close()
            guard try descriptor.open(location, as: (any ArticleStore).self).allArticles().count == count else {
                throw StoreError.inconsistent("the Swift side did not store \(count) articles")
            }
            if repetition > 0 {
                cTimes.append(cSeconds)
                swiftTimes.append(Double(end - start) / 1e9)
            }
        }
        return Result(count: count, cSeconds: cTimes, swiftSeconds: swiftTimes)
    }

    /// Runs the C loop; the C strings are laid out before the call, outside the timed region.
    private static func measureC(_ articles: [Article], path: String) throws -> Double {
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
            let rc = sb_c_insert(path, pragmas, SQLiteBackend.schema, SQLiteBackend.insertArticleSQL,
                                 &rows, Int32(rows.count), &elapsed, &message, Int32(message.count))
            guard rc == 0 else {
                let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                throw StoreError.inconsistent("C baseline failed with SQLite code \(rc): \(text) [file: \(path)]")
            }
            return Double(elapsed) / 1e9
        }
    }
}
