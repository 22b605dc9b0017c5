import Foundation

/// What a launch workload needs to start a fresh `storebench child` process on a store.
public struct LaunchTarget: Sendable {
  /// The storebench executable; nil when unknown (the launch workloads are then unsupported).
  public let executable: URL?
  public let backend: String
  public let variant: Variant
  public let directory: URL
  /// Whether the backend's data survives its process (the memory backend's does not).
  public let persistent: Bool
  /// The file system the run counts costs on (a child counting its own costs opens its counters there); nil when
  /// the run does not count.
  public let countingOn: String?

  public init(
    executable: URL?, backend: String, variant: Variant, directory: URL, persistent: Bool,
    countingOn: String? = nil
  ) {
    self.executable = executable
    self.backend = backend
    self.variant = variant
    self.directory = directory
    self.persistent = persistent
    self.countingOn = countingOn
  }

  /// The store as a child request names it.
  public var store: ChildStore {
    ChildStore(backend: backend, settings: variant.description, directory: directory.path)
  }
}

/// The answer of a launch child when its first screen (or its settings) is in memory.
public struct LaunchReport: Codable, Sendable {
  /// Open → first screen in memory, measured by the child (ns); 0 for an empty launch.
  public var readyNanoseconds: UInt64
  /// `/proc/self/io` read_bytes of the child from before the open to ready (nil where unavailable).
  public var readBytes: Int64?
  public var checksum: String
  public var settings: String

  public init(readyNanoseconds: UInt64, readBytes: Int64?, checksum: String, settings: String) {
    self.readyNanoseconds = readyNanoseconds
    self.readBytes = readBytes
    self.checksum = checksum
    self.settings = settings
  }

  /// Runs in the child: opens the store, loads the first screen, and measures both.
  static func loadFirstScreen(descriptor: BackendDescriptor, location: StoreLocation, screen: Int) throws
    -> LaunchReport
  {
    try measure(
      descriptor: descriptor, location: location, as: (any TimelineStore).self,
      { try $0.loadTimeline(limit: screen) }, checksum: Checksum.timeline)
  }

  /// Runs in the child: opens the store and loads the newest `screen` articles (the launch list).
  static func loadList(descriptor: BackendDescriptor, location: StoreLocation, screen: Int) throws -> LaunchReport {
    try measure(
      descriptor: descriptor, location: location, as: (any QueryStore).self,
      { try $0.newestArticles(limit: screen) }, checksum: Checksum.articlesInOrder)
  }

  /// Runs in the child: opens the store and loads the first `screen` parents with their newest record.
  static func loadParents(descriptor: BackendDescriptor, location: StoreLocation, screen: Int) throws -> LaunchReport {
    try measure(
      descriptor: descriptor, location: location, as: (any ParentStore).self,
      { try $0.parentList(limit: screen) }, checksum: Checksum.parentList)
  }

  /// Runs in the child: times open → `work` done (and the disk reads meanwhile); the checksum of what the work
  /// returned is taken after the clock stopped.
  static func measure<Role, Result>(
    descriptor: BackendDescriptor, location: StoreLocation, as role: Role.Type,
    _ work: (Role) throws -> Result, checksum: (Result) -> String
  ) throws -> LaunchReport {
    let ioBefore = ProcessIO.now()
    let start = monotonicNanoseconds()
    let store = try descriptor.open(location)
    defer { try? store.close() }
    let result = try work(try store.playing(role))
    let ready = monotonicNanoseconds()
    let io = ProcessIO.delta(ioBefore, ProcessIO.now())
    return LaunchReport(
      readyNanoseconds: ready - start, readBytes: io.readBytes, checksum: checksum(result),
      settings: store.effectiveSettings)
  }
}

/// The page cache before a launch: a cold launch evicts the store's files (and notes the pages that stayed),
/// a warm one only counts the resident pages.
enum LaunchPageCache {
  static func prepare(_ run: Repetition, cold: Bool) throws {
    let directory = run.launch.directory
    let residency = cold ? try PageCache.evict(directory) : PageCache.residency(directory)
    run.note(.residentPages, residency.map { String($0.resident) } ?? "")
    if cold, let residency, residency.resident > 0 {
      run.note(
        .note, "not fully cold: \(residency.resident) of \(residency.pages) pages still resident after eviction"
      )
    }
  }
}

/// A child made ready in prepare (untimed), spawned in the timed measure (spawn → its first line), and its
/// answer collected in verify.
final class LaunchChild {
  private let child: ChildProcess
  private var firstLine: String?

  /// A child that will do `request` for `run`; the row is unsupported when there is no executable to launch. Every
  /// wait on it, the timed wait for its first line included, ends at the repetition's bound or the first signal
  /// (a child stopped before its first line is killed then, and its row says so).
  init<Job: ChildJob>(_ job: Job, for run: Repetition) throws where Job.Answer == LaunchReport {
    guard let executable = run.launch.executable else {
      throw StoreError.unsupported("no storebench executable to launch (run through the storebench binary)")
    }
    child = try ChildProcess(executable: executable, job: job)
    child.limit(run.bound)
  }

  /// Timed: spawn → ready (the child's first line).
  func spawn() throws -> Measured<Void> {
    try child.spawn()
    firstLine = child.firstLine()
    return Measured(ops: 1)
  }

  /// Untimed: waits for the child's exit and decodes its report (its standard error explains a failure); the
  /// child's own timings go into the row.
  func report(_ run: Repetition) throws -> LaunchReport {
    let outcome = child.wait()
    guard !outcome.killedBySignal, outcome.exitCode == 0, let firstLine,
      let report = ChildAnswerLine.decode(LaunchReport.self, firstLine)
    else {
      throw VerificationError("launch child \(outcome.how): \(outcome.errors)")
    }
    run.note(.childReadySeconds, CSVFormat.seconds(Double(report.readyNanoseconds) / 1e9))
    run.note(.childReadBytes, CSVFormat.integer(report.readBytes))
    return report
  }

  /// Untimed: the child's report (``report(_:)``), whose checksum must be `expected`; `what` says what the child
  /// did ("the launched process loaded a list"). Returns the checksum.
  func expect(_ expected: String, _ what: String, in run: Repetition) throws -> String {
    let report = try report(run)
    guard report.checksum == expected else {
      throw VerificationError("\(what) with checksum \(report.checksum), expected \(expected)")
    }
    return expected
  }
}
