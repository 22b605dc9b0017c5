import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The store a child process works on: a backend by name, its variant's canonical settings text
/// (`txn=single journal=wal`, or `default`) and the store's directory.
public struct ChildStore: Codable, Sendable, Equatable {
    public var backend: String
    public var settings: String
    public var directory: String

    /// The store of `backend` in `directory`, with the variant's canonical settings text (`default` for none).
    public static func named(_ backend: String, settings: String = "default", directory: String) -> ChildStore {
        ChildStore(backend: backend, settings: settings, directory: directory)
    }

    /// The backend and the store's location, resolved in `registry`.
    public func resolve(in registry: BackendRegistry) throws -> (BackendDescriptor, StoreLocation) {
        let (descriptor, variant) = try registry.resolve(backend: backend, settings: settings)
        return (descriptor, StoreLocation(directory: URL(fileURLWithPath: directory), variant: variant))
    }
}

/// What a parent asks a `storebench child` process to do, as one JSON argument. The child answers with one JSON
/// line of ``ChildAnswer`` on standard output (the crash writer first acknowledges batches, one number a line).
public enum ChildRequest: Codable, Sendable, Equatable {
    /// Answer at once (`process-spawn`: process start-up alone).
    case empty
    /// Open the store and load the first screen of `screen` messages (the launch workloads).
    case launchTimeline(ChildStore, screen: Int)
    /// Open the store and load the newest `screen` articles (the launch list workloads).
    case launchList(ChildStore, screen: Int)
    /// Open the store and load the first `screen` parents with their newest record (the parent list workloads).
    case launchParents(ChildStore, screen: Int)
    /// Open the store and read back the `count` settings of `seed` (the `settings` workload).
    case readSettings(ChildStore, seed: UInt64, count: Int)
    /// Commit batches of `batch` articles of `seed`, acknowledging each, until killed or `limit` batches are
    /// committed (`crash`); with `pauseAfterFirst`, wait for a line on standard input after acknowledging the first;
    /// `delayedSync`: a test seam (``TestDelayedSync``), nil in real runs.
    case crashWriter(
        ChildStore, batch: Int, seed: UInt64, shape: RecordShape, pauseAfterFirst: Bool = false,
        limit: Int = CrashTrials.batchLimit, delayedSync: Int? = nil)
    /// Reopen the store after a crash and sort its articles into `batches` batches (`crash`).
    case crashCheck(ChildStore, batch: Int, seed: UInt64, shape: RecordShape, batches: Int)
    /// `crashCheck` for many stores in one process (an enumerated run's images): read a store directory a line from
    /// standard input, answer each with one `crashCheck` line, until the input ends; the store's own directory is
    /// not used.
    case crashCheckEach(ChildStore, batch: Int, seed: UInt64, shape: RecordShape, batches: Int)
    /// Integrity check and full read (`verify-store`), compared with `expectedChecksum` when given.
    case verify(ChildStore, expectedChecksum: String?)
    /// Process `process` of the `shared` workload (0: the app, 1…: extensions) on the plan of `parameters`, `seed`
    /// and `shape` (``SharedWorker``); its own costs counted on `countingOn` (nil: the run does not count).
    case sharedWorker(
        ChildStore, parameters: SharedPlan.Parameters, seed: UInt64, shape: RecordShape, process: Int,
        countingOn: String?)
    /// The `shared` workload's check, in a fresh process (nothing of the store cached, as the next launch finds it):
    /// reads the processes' reports (a JSON array, one line of standard input) and checks them against the store
    /// (``SharedVerification``).
    case sharedCheck(ChildStore, parameters: SharedPlan.Parameters, seed: UInt64, shape: RecordShape)

    /// The request as the child's command-line argument.
    public var argument: String { String(decoding: try! JSONEncoder().encode(self), as: UTF8.self) }

    public init(argument: String) throws {
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(argument.utf8))
        } catch {
            throw HarnessError(.childRequest, "not a child request: \(error)")
        }
    }

    /// Runs in the child: does the work with the backends of `registry` and returns the answer.
    public func perform(registry: BackendRegistry) throws -> ChildAnswer {
        switch self {
        case .empty:
            return .launch(LaunchReport(readyNanoseconds: 0, readBytes: nil, checksum: "empty", settings: ""))
        case .launchTimeline(let store, let screen):
            let (descriptor, location) = try store.resolve(in: registry)
            return .launch(try LaunchReport.loadFirstScreen(descriptor: descriptor, location: location, screen: screen))
        case .launchList(let store, let screen):
            let (descriptor, location) = try store.resolve(in: registry)
            return .launch(try LaunchReport.loadList(descriptor: descriptor, location: location, screen: screen))
        case .launchParents(let store, let screen):
            let (descriptor, location) = try store.resolve(in: registry)
            return .launch(try LaunchReport.loadParents(descriptor: descriptor, location: location, screen: screen))
        case .readSettings(let store, let seed, let count):
            let (descriptor, location) = try store.resolve(in: registry)
            return .launch(
                try LaunchReport.readSettings(descriptor: descriptor, location: location, seed: seed, count: count))
        case .crashWriter(let store, let batch, let seed, let shape, let pauseAfterFirst, let limit, let delayedSync):
            let (descriptor, location) = try store.resolve(in: registry)
            try CrashBatches.write(
                descriptor: descriptor, location: location, size: batch, seed: seed, shape: shape,
                limit: limit, pauseAfterFirst: pauseAfterFirst, delayedSync: delayedSync)
            return .done
        case .crashCheck(let store, let batch, let seed, let shape, let batches):
            let (descriptor, location) = try store.resolve(in: registry)
            return .crashCheck(
                CrashBatches.check(
                    descriptor: descriptor, location: location, size: batch, seed: seed, shape: shape,
                    batches: batches))
        case .crashCheckEach(let store, let batch, let seed, let shape, let batches):
            let (descriptor, template) = try store.resolve(in: registry)
            while let directory = readLine(), !directory.isEmpty {
                let location = StoreLocation(directory: URL(fileURLWithPath: directory), variant: template.variant)
                let answer = ChildAnswer.crashCheck(
                    CrashBatches.check(
                        descriptor: descriptor, location: location, size: batch, seed: seed, shape: shape,
                        batches: batches))
                try CrashBatches.say(answer.line, what: "answer the check of \(directory)")
            }
            return .done
        case .sharedWorker(let store, let parameters, let seed, let shape, let process, let fileSystem):
            let (descriptor, location) = try store.resolve(in: registry)
            let plan = SharedPlan(parameters: parameters, seed: seed, shape: shape)
            try SharedWorker(plan: plan, index: process, descriptor: descriptor, location: location).run(
                countingOn: fileSystem)
            return .done
        case .sharedCheck(let store, let parameters, let seed, let shape):
            let (descriptor, location) = try store.resolve(in: registry)
            let plan = SharedPlan(parameters: parameters, seed: seed, shape: shape)
            return .sharedCheck(try SharedCheckAnswer.check(plan: plan, descriptor: descriptor, location: location))
        case .verify(let store, let expectedChecksum):
            let (descriptor, location) = try store.resolve(in: registry)
            return .verify(
                StoreVerification.inspect(
                    descriptor: descriptor, location: location,
                    expectedChecksum: expectedChecksum))
        }
    }
}

/// A child's answer: one JSON line on standard output.
public enum ChildAnswer: Codable, Sendable {
    case launch(LaunchReport)
    case crashCheck(CrashBatches.Report)
    case verify(StoreVerification)
    case sharedCheck(SharedCheckAnswer)
    case done

    /// The answer as one line (no newline).
    public var line: String { String(decoding: try! JSONEncoder().encode(self), as: UTF8.self) }

    /// Decodes a child's line; nil when it is not an answer.
    public init?(line: String) {
        guard let answer = try? JSONDecoder().decode(Self.self, from: Data(line.utf8)) else { return nil }
        self = answer
    }

    public var launchReport: LaunchReport? { if case .launch(let report) = self { report } else { nil } }
    public var crashReport: CrashBatches.Report? { if case .crashCheck(let report) = self { report } else { nil } }
    public var verification: StoreVerification? { if case .verify(let report) = self { report } else { nil } }
    public var sharedCheck: SharedCheckAnswer? { if case .sharedCheck(let answer) = self { answer } else { nil } }
}

extension ChildProcess {
    /// A `storebench child` process that will do `request`.
    convenience init(executable: URL, request: ChildRequest, input: Bool = false) throws {
        try self.init(executable: executable, arguments: ["child", request.argument], input: input)
    }

    /// Runs a `storebench child` doing `request` to its end and returns everything it said.
    static func run(executable: URL, request: ChildRequest) throws -> Outcome {
        try run(executable: executable, arguments: ["child", request.argument])
    }
}

extension ChildProcess.Outcome {
    /// The child's answer, when it exited 0 and its last line decodes as one; otherwise nil.
    var answer: ChildAnswer? { answerLine.flatMap(ChildAnswer.init(line:)) }
}

/// A child's lines to its parent: each line and its newline written to standard output at once, unbuffered (the
/// parent reads them while the child runs), and whole — a long line (a report) may take several writes.
enum ChildLine {
    static func say(_ line: String, what: String, part: HarnessError.Part = .childProcess) throws {
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw HarnessError(part, "cannot \(what): \(SystemError("write", path: "standard output"))")
            }
            written += count
        }
    }
}
