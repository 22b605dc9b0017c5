#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// One row of `durability.csv`: what a backend variant lost over `kills` counted kills.
public struct DurabilityRow: Sendable {
    public var backend: String
    public var variant: String
    public var settings: String
    public var kills = 0
    /// Batches acknowledged (committed, by the backend's own account) before the kills, summed.
    public var ackedBatches = 0
    /// Acknowledged batches that were not complete after reopening.
    public var lostBatches = 0
    /// Batches present only in part (acknowledged or not).
    public var partialBatches = 0
    /// Reopens whose integrity check failed, or that found articles the writer never wrote.
    public var corruptOpens = 0
    /// Stores that could not be opened or read at all.
    public var unrecoverable = 0
    /// Attempts that tested nothing (killed before the first acknowledgement, or finished first) and were retried.
    public var retries = 0

    public static let header = ["backend", "variant", "settings", "kills", "acked_batches", "lost_batches",
                                "partial_batches", "corrupt_opens", "unrecoverable", "retries"]

    public var fields: [String] {
        [backend, variant, settings] + [kills, ackedBatches, lostBatches, partialBatches, corruptOpens, unrecoverable, retries].map(String.init)
    }
}

/// `storebench crash`: kills a writer child at seeded random moments and checks what survived in a fresh process.
public struct CrashTrials {
    public let executable: URL
    public let backend: BackendDescriptor
    public let variant: Variant
    public let workRoot: URL
    /// Seed of the articles and of the kill moments.
    public let seed: UInt64
    /// Articles per batch (one app operation).
    public var batchSize = defaultBatchSize
    /// The kill comes 1…this many ms after the first acknowledgement.
    public var maxDelayMilliseconds = defaultMaxDelayMilliseconds

    /// Checked before every kill: when it returns true, ``run(kills:)`` throws ``Stopped`` (a signal arrived).
    public var shouldStop: () -> Bool = { false }

    /// The trials of a variant were stopped before they finished; its row would be incomplete.
    public struct Stopped: Error {}

    public static let defaultBatchSize = 20
    public static let defaultMaxDelayMilliseconds = 200

    public init(executable: URL, backend: BackendDescriptor, variant: Variant, workRoot: URL, seed: UInt64) {
        self.executable = executable
        self.backend = backend
        self.variant = variant
        self.workRoot = workRoot
        self.seed = seed
    }

    /// The batches a writer commits at most (it is killed long before).
    public static let batchLimit = 1_000_000

    /// Runs until `kills` kills have counted (an attempt that tested nothing is retried, at most `kills` times).
    public func run(kills: Int) throws -> DurabilityRow {
        var row = DurabilityRow(backend: backend.name, variant: variant.description, settings: "")
        var rng = SplitMix64.forItem(seed: seed, stream: 0x6B69_6C6C, index: 0)
        while row.kills < kills {
            if shouldStop() { throw Stopped() }
            guard row.retries <= kills else {
                throw StoreError.inconsistent("\(backend.name) [\(variant)]: \(row.retries) attempts tested nothing (no batch acknowledged before the kill)")
            }
            let delay = 1 + Int(rng.next() % UInt64(maxDelayMilliseconds))
            let directory = try WorkDirectory(in: workRoot, prefix: "crash")
            defer { directory.remove() }
            let store = try directory.subdirectory("store")
            guard let acked = try killWriter(in: store, afterMilliseconds: delay) else {
                row.retries += 1
                continue
            }
            let report = try checkStore(store, batches: (acked.max() ?? 0) + 2)
            row.kills += 1
            row.ackedBatches += acked.count
            let complete = Set(report.completeBatches)
            row.lostBatches += acked.filter { !complete.contains($0) }.count
            row.partialBatches += report.partialBatches.count
            if !report.opened { row.unrecoverable += 1 }
            if row.settings.isEmpty { row.settings = report.settings }
            if !report.opened || report.integrity != "ok" || report.foreignArticles > 0 { row.corruptOpens += 1 }
        }
        return row
    }

    /// Starts a writer, kills it `delay` ms after its first acknowledgement, and returns the acknowledged batches;
    /// nil when the attempt tested nothing (no acknowledgement, or the writer was no longer running).
    private func killWriter(in store: URL, afterMilliseconds delay: Int) throws -> [Int]? {
        let child = try ChildProcess(executable: executable, request: .crashWriter(
            ChildStore.named(backend.name, settings: variant.description, directory: store.path), batch: batchSize, seed: seed))
        try child.spawn()
        var acked: [Int] = []
        let firstDeadline = monotonicNanoseconds() + 30_000_000_000
        while acked.isEmpty, monotonicNanoseconds() < firstDeadline, !child.ended {
            acked += child.readLines(waitingMilliseconds: 50).compactMap { Int($0) }
        }
        guard !acked.isEmpty else {
            let outcome = child.killAndWait()
            throw StoreError.inconsistent("crash writer \(backend.name) [\(variant)] acknowledged nothing: \(outcome.errors)")
        }
        let killAt = monotonicNanoseconds() + UInt64(delay) * 1_000_000
        while !child.ended {
            let now = monotonicNanoseconds()
            if now >= killAt { break }
            acked += child.readLines(waitingMilliseconds: Int32(max(1, (killAt - now) / 1_000_000))).compactMap { Int($0) }
        }
        let outcome = child.killAndWait()
        acked += outcome.remainingLines.compactMap { Int($0) }
        if outcome.killedBySignal { return acked }
        if outcome.exitCode != 0 {
            throw StoreError.inconsistent("crash writer \(backend.name) [\(variant)] \(outcome.how): \(outcome.errors)")
        }
        return nil
    }

    /// Reopens the store in a fresh checker process; a checker killed by a signal (a crash inside a C library)
    /// counts as an unrecoverable store.
    private func checkStore(_ store: URL, batches: Int) throws -> CrashBatches.Report {
        let outcome = try ChildProcess.run(executable: executable, request: .crashCheck(
            ChildStore.named(backend.name, settings: variant.description, directory: store.path), batch: batchSize, seed: seed, batches: batches))
        if outcome.killedBySignal {
            return CrashBatches.Report(opened: false, integrity: "checker killed by signal \(outcome.signal)", settings: "",
                                       completeBatches: [], partialBatches: [], foreignArticles: 0)
        }
        guard let report = outcome.answer?.crashReport else {
            throw StoreError.inconsistent("crash checker \(backend.name) [\(variant)] \(outcome.how): \(outcome.errors)")
        }
        return report
    }
}
