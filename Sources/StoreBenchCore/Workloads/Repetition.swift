/// One repetition of one case on one backend variant, as a workload sees it. Made by the runner, which opens the
/// store before ``WorkloadCase/prepare(_:)`` (when the workload requires one) and closes whatever is still open
/// after verify, also after failures.
///
/// The store is reached through the role the workload needs (``articles``, ``timeline``, …). A workload that
/// measures an open (a launch) closes the store in prepare and opens it again in measure (``reopen(as:)``).
public final class Repetition {
  private let openStore: () throws -> any Store
  private let readBack: BackendDescriptor.ReadBack
  /// Where a launch workload starts a fresh process on the same store.
  public let launch: LaunchTarget
  /// Per-operation latencies of the timed operation (workloads made of many operations record them here).
  public let latencies = LatencyRecorder()
  /// Extra report cells (``ReportColumns/notes``), e.g. `resident_pages`.
  public private(set) var notes: [SampleColumn: String] = [:]
  /// Rows of the workload's own tables, by file (``Workload/tables``).
  public private(set) var tableRows: [String: [[String]]] = [:]
  private var current: (any Store)?
  private var cleanups: [() -> Void] = []
  /// The store already holds what ``fill(_:content:_:)`` would put there: an earlier repetition of a workload that
  /// leaves its store unchanged filled it (``Workload/leavesStoreUnchanged``).
  public let storeIsFilled: Bool
  /// The run's filled stores (``StoreTemplates``); nil: every fill runs its body.
  private let templates: FillSharing?
  /// How long the repetition's library work may run (``RepetitionBound``); nil: unbounded (tests).
  public let bound: RepetitionBound?
  private let started = monotonicNanoseconds()

  /// The columns this repetition's workload may note: the standard workload columns and its own
  /// (``Workload/columns``).
  let notable: Set<SampleColumn>

  init(
    launch: LaunchTarget, readBack: BackendDescriptor.ReadBack, storeIsFilled: Bool = false,
    templates: FillSharing? = nil, bound: RepetitionBound? = nil, declared: [ReportColumn] = [],
    open: @escaping () throws -> any Store
  ) {
    self.bound = bound
    notable = ReportColumns.notes.union(
      declared.compactMap { column in
        guard case .sample(let id) = column.id else { return nil }
        return id
      })
    self.launch = launch
    self.readBack = readBack
    self.storeIsFilled = storeIsFilled
    self.templates = templates
    self.openStore = open
  }

  /// Runs `body` under the repetition's ``bound``: once the repetition has run past it, or a signal arrived, a
  /// watchdog calls `stop` (thread-safe: it interrupts the library's running statement) and the error `body`
  /// then throws says why.
  public func bounded<T>(stop: @escaping @Sendable () -> Void, _ body: () throws -> T) throws -> T {
    guard let bound else { return try body() }
    return try bound.watch(started: started, stop: stop, body)
  }

  /// Prepare: fills the store by running `body`, unless the store already holds it (``storeIsFilled``).
  ///
  /// `kind` names what the fill loads (`articles`, `tagged notes`, …) and `content` identifies the data exactly
  /// (a checksum of it; computed once per case): two fills of one kind and content on the same backend variant
  /// make the same store, so the run fills it once and every other repetition, of this case or another, starts
  /// from a copy of that filled store (``StoreTemplate``), proven identical. After this call the store is a fresh
  /// handle on the filled files (the first fill is closed cleanly before it is kept): take the store
  /// (``articles``, ``store(as:)``, …) after it, and fill through the store `body` takes itself.
  public func fill(_ kind: String, content: @autoclosure () -> String, _ body: () throws -> Void) throws {
    if storeIsFilled { return }
    guard let templates else { return try body() }
    let key = templates.key(kind, content)
    if templates.has(key) {
      try closeStore()
      try templates.restore(key)
      current = try openStore()
      return
    }
    try body()
    try closeStore()
    try templates.capture(key)
    current = try openStore()
  }

  /// The open store as `role`; throws ``StoreError/unsupported(_:)`` when it does not play it.
  public func store<Role>(as role: Role.Type) throws -> Role {
    guard let current else { throw VerificationError("no store is open") }
    return try current.playing(role)
  }

  public var articles: any ArticleStore { get throws { try store(as: (any ArticleStore).self) } }
  public var timeline: any TimelineStore { get throws { try store(as: (any TimelineStore).self) } }
  public var queries: any QueryStore { get throws { try store(as: (any QueryStore).self) } }
  public var settings: any SettingsStore { get throws { try store(as: (any SettingsStore).self) } }
  public var cache: any CacheStore { get throws { try store(as: (any CacheStore).self) } }
  public var sharable: any SharableStore { get throws { try store(as: (any SharableStore).self) } }

  /// Prepare: fills the open store with `articles` (untimed; shared with every case that loads the same articles
  /// on the same variant, ``fill(_:content:_:)``) and returns it as `role`.
  public func storeLoaded<Role>(with articles: [Article], as role: Role.Type) throws -> Role {
    try fill("articles", content: Checksum.articles(articles).hex) { try self.articles.load(articles: articles) }
    return try store(as: role)
  }

  /// Opens the store (the runner does this before prepare).
  func openInitialStore() throws { current = try openStore() }

  /// Closes the open store, if any (its data is then on disk as the variant promises).
  public func closeStore() throws {
    guard let store = current else { return }
    current = nil
    try store.close()
  }

  /// Closes the open store, if any, and opens a fresh one on the same directory; the runner closes it.
  public func reopen<Role>(as role: Role.Type) throws -> Role {
    try closeStore()
    current = try openStore()
    return try store(as: role)
  }

  /// The runner, at the end of the timed operation (inside the clock): the open store commits what it still
  /// holds back (``Store/commitPending()``).
  func commitPending() throws { try current?.commitPending() }

  /// Verification: reads every article back through a second, independent store opened while the timed store
  /// is still open — a write the timed store had not committed when the clock stopped is missing there — then
  /// closes both. Where the library allows no second handle (``BackendDescriptor/ReadBack/afterClose(_:)``),
  /// the timed store is closed first and the row's note says why.
  public func readBackArticles() throws -> ArticleSnapshot {
    try readBack { ArticleSnapshot(try $0.playing((any ArticleStore).self).allArticles()) }
  }

  /// Verification: `read` on a second, independent store, as ``readBackArticles()`` does (the timed store closed
  /// first where the library allows no second handle); both are closed afterwards.
  public func readBack<T>(_ read: (any Store) throws -> T) throws -> T {
    if case .afterClose(let reason) = readBack {
      appendNote("read back after closing the timed store (\(reason))")
      try closeStore()
    }
    let reader = try openStore()
    let result: T
    do {
      result = try read(reader)
    } catch {
      try? reader.close()
      throw error
    }
    try reader.close()
    try closeStore()
    return result
  }

  /// Verification: reads the articles back (``readBackArticles()``) and checks them against `expected`; returns
  /// the checksum.
  public func expectArticles(_ expected: ArticleSnapshot) throws -> String {
    try readBackArticles().check(against: expected)
  }

  /// Sets a report cell of this repetition's row: a standard workload column (``ReportColumns/notes``) or one the
  /// workload declares (``Workload/columns``).
  public func note(_ column: SampleColumn, _ value: String) {
    precondition(notable.contains(column), "\(column) is not a column this workload may note (declare it)")
    notes[column] = value
  }

  /// When the timed operation's work ended, if the workload stopped the clock before measure returned
  /// (``stopClock()``); nil: the clock stops when measure returns.
  public private(set) var clockStopped: UInt64?

  /// Measure: the operation's work is over; what measure still does (reading its children's reports) is outside
  /// the clock. The counted costs still run until measure returns.
  public func stopClock() { clockStopped = monotonicNanoseconds() }

  /// The work's own time, when the timed span holds pauses that are no work of the store (``timeWork(nanoseconds:)``);
  /// nil: the clock's span is the time.
  public private(set) var workNanoseconds: UInt64?

  /// Measure: the row's time is `nanoseconds` of work, not the clock's span — for processes that pause between
  /// operations as an app's user does (`shared`); the span still bounds what the counted costs cover.
  public func timeWork(nanoseconds: UInt64) { workNanoseconds = nanoseconds }

  /// Bytes counted by child processes the timed operation ran and has not reaped (``CountedCost/isProcessBytes`` costs),
  /// added to the row's counted costs.
  public private(set) var childBytes: [CountedCost: Int64] = [:]

  /// Measure: adds a child's own byte counts (``childBytes``).
  public func addChildBytes(_ costs: [CountedCost: Int64]) {
    for (cost, value) in costs where cost.isProcessBytes { childBytes[cost, default: 0] += value }
  }

  /// Adds a row of `cells` (the table's own columns, in order) to the workload's `table` (``Workload/tables``).
  public func addRow(to table: WorkloadTable, _ cells: [String]) {
    precondition(cells.count == table.columns.count, "a row of \(table.file) needs \(table.columns.count) cells")
    tableRows[table.file, default: []].append(cells)
  }

  /// Verify: runs `job` in a fresh process of this binary (the next launch's, or an extension's, view of the store),
  /// bounded by the repetition's bound and its first signal, and returns its answer; throws a ``VerificationError``
  /// saying how `what` ended when it gave none. The store must be closed first when the backend allows one opener.
  public func answer<Job: ChildJob>(of job: Job, what: String) throws -> Job.Answer {
    guard let executable = launch.executable else {
      throw VerificationError("\(what): no executable to start (a launch needs the storebench binary)")
    }
    let child = try ChildProcess(executable: executable, job: job)
    child.limit(bound)
    try child.spawn()
    let outcome = child.wait()
    guard let answer = outcome.answer(to: Job.self) else {
      throw VerificationError("\(what) \(outcome.how): \(outcome.errors)")
    }
    return answer
  }

  /// Adds a sentence to the row's free-text `note`.
  public func appendNote(_ text: String) {
    notes[.note] = notes[.note].map { "\($0); \(text)" } ?? text
  }

  /// Runs `body` when the repetition ends, after verify or a failure (release what prepare made).
  public func onFinish(_ body: @escaping () -> Void) { cleanups.append(body) }

  /// Runs the clean-ups, newest first, and closes the store quietly.
  func finish() {
    for cleanup in cleanups.reversed() { cleanup() }
    cleanups = []
    try? current?.close()
    current = nil
  }
}

/// The hooks through which a repetition shares filled stores (made by ``StoreTemplates`` for one repetition).
struct FillSharing {
  /// The template key of a fill of `kind` with `content` (computed at most once per case and kind).
  let key: (_ kind: String, _ content: () -> String) -> String
  let has: (String) -> Bool
  /// Replaces the (closed) store directory's files with a proven copy of the template.
  let restore: (String) throws -> Void
  /// Keeps the (closed) store directory as the template.
  let capture: (String) throws -> Void
}

/// Every article of a store, with the order-independent checksum the reports use.
public struct ArticleSnapshot {
  public let articles: [Article]
  public let count: Int
  public let hex: String

  public init(_ articles: [Article]) {
    self.articles = articles
    (count, hex) = Checksum.articles(articles)
  }

  /// Throws ``VerificationError`` unless count and checksum equal `expected`'s; returns the checksum.
  public func check(against expected: ArticleSnapshot) throws -> String {
    guard count == expected.count, hex == expected.hex else {
      throw VerificationError(
        "expected \(expected.count) articles with checksum \(expected.hex), found \(count) with checksum \(hex)"
      )
    }
    return hex
  }
}
