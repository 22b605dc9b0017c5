/// A job an app does with its store, in three phases per repetition:
/// **prepare** (untimed: fill the store), **measure** (timed: only the operation),
/// **verify** (untimed: prove the work happened, by counts and checksums).
///
/// A workload declares its parameters and the store roles it needs, and generates its data once per parameter
/// set (``makeCase(_:generator:)``); every backend and repetition then works on that same ``WorkloadCase``. The
/// runner owns everything else: opening and closing the store, the timed region, the latency recorder, the
/// notes, the read-back after the operation, and clean-up after failures. Adding a workload is one file with a
/// `Workload` and its `WorkloadCase`, plus one line in ``WorkloadRegistry/standard``.
public protocol Workload: Sendable {
  /// The name used in scenarios and reports (`insert`, `mark-read`, …).
  var name: String { get }
  /// One line for `storebench list`.
  var summary: String { get }
  var parameters: [WorkloadParameter] { get }
  /// The parameter reported as a row's `size`.
  var sizeParameter: ParameterName { get }
  /// Small values of the parameters for `scenarios/smoke.yaml` (CI: every workload on every backend in seconds);
  /// a test checks that the smoke scenario runs each workload with exactly these.
  var smokeParameters: [String: Int] { get }
  /// The roles the store must play. A backend whose store type lacks one gets an `unsupported` row without
  /// running; an empty set means the workload uses no store (it runs once, not once per backend).
  var requires: StoreRoles { get }
  /// Whether the workload only reads its store: then the runner fills the store once per case and later
  /// repetitions find it filled (``Repetition/fill(_:)``), instead of paying for the fill every time.
  /// Verification still checks every repetition's answer.
  var leavesStoreUnchanged: Bool { get }
  /// Whether the workload evicts its store from the page cache before the clock (a cold launch). Every other
  /// workload that keeps its store finds it read back into the page cache before each later repetition
  /// (``PageCache/warm(_:)``), as its first repetition found it; a cold one would only evict it again.
  var startsCold: Bool { get }
  /// Whether what verify returns (the checksum of what was verified) depends on timing, not on the data alone:
  /// with several processes the store ends with whatever each managed to do (`shared`). Such a workload's checksum
  /// is not compared across backends.
  var resultDependsOnTiming: Bool { get }
  /// Whether the work a repetition does — not only what it leaves — depends on timing: threads or processes that run
  /// side by side, each doing as much as it manages in the time (`sync-while-reading`'s UI thread reloads the screen
  /// until the sync ends). The counting passes (`run --count`) do not count such a workload: its instructions and
  /// allocations per operation would differ run to run, and callgrind runs one thread at a time. Defaults to
  /// ``resultDependsOnTiming``.
  var workDependsOnTiming: Bool { get }
  /// Checks relations between parameters (each is already within its range); throws a message.
  func validate(_ parameters: WorkloadParameters) throws
  /// Generates the workload's data for one parameter set.
  func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase
  /// The records (of the default shape's size, ``RecordShape/bytesPerRecord`` each) one parameter set's data holds,
  /// when the workload knows better than its counting parameters (a `sql` file's fill); nil: counted from
  /// `count`, `stored`, … (``RunPlan/weightedRecords(_:)``). The plan's caps and the resource bound use it.
  func generatedRecords(_ parameters: WorkloadParameters) -> Int?
  /// The jobs its child processes do (``ChildJob``): the child finds them by name in the invocation's registry
  /// (``ChildJobRegistry/standard(workloads:)``), so a workload with children of its own declares them here and
  /// nowhere else.
  var childJobs: [any ChildJob.Type] { get }
  /// What a verified row of this workload fails to record besides its checksum (the plan a query ran, a cache's
  /// hit ratio, how a migration went), in words; nil when it records everything. The conformance suite asks it of
  /// every row on every backend, so a workload declares its own notes here and the suite is not edited.
  func missingNotes(_ notes: [SampleColumn: String]) -> String?
  /// The tables of its own the workload writes beside samples.csv (`aging`'s `rounds.csv`): each file's rows start
  /// with the row's key (``WorkloadTableKey``), then the workload's columns; a repetition adds rows with
  /// ``Repetition/addRow(to:_:)``, and the run writes the file when a verified repetition added any.
  var tables: [WorkloadTable] { get }
  /// Its own columns of samples.csv (``ReportColumn/declared(_:_:_:aggregation:_:)``), appended after the standard
  /// ones; the workload notes their cells with ``Repetition/note(_:_:)``. Run, report, compare, `columns` and the
  /// charts read them from the invocation's ``ColumnSet`` (``WorkloadRegistry/columns``).
  var columns: [ReportColumn] { get }
  /// What the decision report shows of it beside its time (``WorkloadFigures``); nil: nothing.
  var figures: WorkloadFigures? { get }
  /// The app operations `advise` times with it (``AdviceOperation``); none for most workloads, whose operations
  /// advise's own profile keys name.
  var adviceOperations: [AdviceOperation] { get }
}

/// A table a workload writes beside samples.csv: its file name (a plain `*.csv` name) and its own columns.
public struct WorkloadTable: Sendable, Equatable {
  public let file: String
  public let columns: [String]

  public init(file: String, columns: [String]) {
    precondition(
      file.hasSuffix(".csv") && !file.contains("/") && !RunFolder.ownNames.contains(file),
      "a workload table needs a plain *.csv name of its own: \(file)")
    (self.file, self.columns) = (file, columns)
  }

  /// The file's header: the key's columns, then the workload's.
  public var header: [String] { WorkloadTableKey.columns + columns }
}

extension Workload {
  /// Whether the workload uses a store at all (`process-spawn` does not: it runs once, not once per backend).
  public var requiresStore: Bool { !requires.isEmpty }

  public func validate(_ parameters: WorkloadParameters) throws {}

  public var leavesStoreUnchanged: Bool { false }

  public var startsCold: Bool { false }

  public var resultDependsOnTiming: Bool { false }

  public var workDependsOnTiming: Bool { resultDependsOnTiming }

  public func generatedRecords(_ parameters: WorkloadParameters) -> Int? { nil }

  public var childJobs: [any ChildJob.Type] { [] }

  public func missingNotes(_ notes: [SampleColumn: String]) -> String? { nil }

  public var tables: [WorkloadTable] { [] }

  public var columns: [ReportColumn] { [] }

  public var figures: WorkloadFigures? { nil }

  public var adviceOperations: [AdviceOperation] { [] }

  /// The default parameter values.
  public var defaultParameters: WorkloadParameters {
    WorkloadParameters(
      Dictionary(uniqueKeysWithValues: parameters.filter { !$0.optional }.map { ($0.name, $0.defaultValue) }))
  }
}

/// One parameter set of a workload: its generated data (shared by all repetitions of all backends) and the three
/// phases. Each repetition gets a fresh ``Repetition`` from the runner, with the store already open when the
/// workload ``Workload/requires`` one.
///
/// `Prepared` is what prepare hands to measure and verify (a child process, a shared store); `Outcome` is what
/// the timed operation returned, checked by verify. Both default to `Void`.
public protocol WorkloadCase: AnyObject {
  associatedtype Prepared = Void
  associatedtype Outcome = Void
  /// FNV-1a fingerprint of the generated data (recorded in the report).
  var fingerprint: String { get }
  /// Untimed: fill the store, make what measure needs.
  func prepare(_ run: Repetition) throws -> Prepared
  /// Timed: the operation alone, and the number of app operations done (for ops/s).
  /// No logging, formatting or harness allocation here.
  func measure(_ prepared: Prepared, _ run: Repetition) throws -> Measured<Outcome>
  /// Untimed: check the store holds exactly what the operation should have produced. Returns the checksum of
  /// what was verified; throws ``VerificationError`` on a mismatch.
  func verify(_ outcome: Outcome, _ prepared: Prepared, _ run: Repetition) throws -> String
  /// The app data the timed operation writes (``Article/payloadBytes`` of every record it inserts or changes, whole
  /// records), computed once outside the clock: the denominator of `write_amplification`. Nil (the default) for
  /// an operation that writes no record data.
  var recordBytesWritten: Int64? { get }
}

extension WorkloadCase {
  public var recordBytesWritten: Int64? { nil }
}

extension Sequence where Element == Article {
  /// The summed ``Article/payloadBytes``.
  public var payloadBytes: Int64 { reduce(0) { $0 + Int64($1.payloadBytes) } }
}

/// What a timed operation did: the app operations done and what they returned.
public struct Measured<Outcome> {
  public let ops: Int
  public let outcome: Outcome
  public init(ops: Int, _ outcome: Outcome) {
    self.ops = ops
    self.outcome = outcome
  }
}

extension Measured where Outcome == Void {
  public init(ops: Int) { self.init(ops: ops, ()) }
}

/// The store's content after the operation is not what it should be.
public struct VerificationError: Error, CustomStringConvertible {
  public let message: String
  public init(_ message: String) { self.message = message }
  public var description: String { "verification failed: \(message)" }
}
