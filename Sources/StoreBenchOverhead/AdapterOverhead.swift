import Foundation
import StoreBenchBackends
import StoreBenchCore

/// Measures what the Swift `sqlite`, `lmdb` and `gdbm` backends add over the same work written in C
/// (``CBaseline``), and what the workload path adds over the backend: N article inserts in one transaction, and N
/// point lookups by uid (each decoded into an article) among M stored articles, on three sides —
/// - **C**: the work as a C programmer writes it (`Sources/CBaselines`);
/// - **adapter**: the same loop through the Swift backend's `ArticleStore`, with one clock around it;
/// - **workload**: one repetition of the `insert` or `lookup` workload exactly as `storebench run` times it
///   (``WorkloadPath``: the per-operation clock and histogram, `commitPending`, the cost counters).
///
/// All three use the workload's generated data (the same articles; for lookups the lookup workload's own choice of
/// uids) with the same settings, schema, indexes and pragmas, and every round proves the work equal: for inserts,
/// the checksum of every article each store holds (and, for C and the adapter, the stores' sizes); for lookups, the
/// checksum of what each side found, in order. The variants skip fsync (sqlite sync=off, lmdb sync=nosync, gdbm
/// sync=none): the harness costs CPU, and fsync timing on a shared virtual disk would drown it in noise. The
/// sides run in a rotating order within each round, every insert into a fresh store in a private directory; the
/// first round warms up. Ratios are paired by round (``PairedRatio``).
public enum AdapterOverhead {
  public enum Operation: String, Sendable, CaseIterable, Codable {
    case insert, lookup

    /// The largest adapter/C ratio the project accepts for the operation (judged on the interval's upper end).
    public var goal: Double { self == .insert ? 1.2 : 1.5 }

    /// The workload whose timed region is the workload side.
    public var workload: String { rawValue }
  }

  /// The largest workload/adapter ratio the project accepts (judged on the interval's upper end).
  public static let workloadGoal = 1.15

  /// The backends compared, each with the variant all sides reproduce.
  public static let backends: [(name: String, settings: [String: String])] = [
    (
      SQLiteBackend.descriptor.name,
      SQLiteSettings().with { ($0.txn, $0.journal, $0.sync) = (.single, .wal, .off) }.requested
    ),
    (LMDBBackend.descriptor.name, LMDBBackend.Settings().with { ($0.txn, $0.sync) = (.single, .nosync) }.requested),
    (GDBMBackend.descriptor.name, GDBMBackend.Settings().with { $0.sync = .none }.requested),
  ]

  /// What to measure.
  public struct Request: Sendable {
    public var backends: [String] = AdapterOverhead.backends.map(\.name)
    public var operations: [Operation] = Operation.allCases
    public var count = 10_000
    public var stored = 20_000
    public var repetitions = 9
    public var seed: UInt64 = 42
    /// Whether the workload side counts costs as `storebench run` does by default.
    public var counters = true
    /// Count each side's instructions over its timed span (in a child under callgrind: ``InstructionCounter``).
    public var countInstructions = false

    public init() {}
  }

  /// One backend and operation, all three sides.
  public struct Measurement: Sendable, Codable {
    public let backend: String
    public let variant: String
    public let operation: Operation
    public let count: Int
    public let cSeconds: [Double]
    public let adapterSeconds: [Double]
    public let workloadSeconds: [Double]
    public let equalWork: EqualWork
    /// Each side's instructions over its timed span in the last round (callgrind), when counted.
    public var instructions: Instructions?

    public init(
      backend: String, variant: String, operation: Operation, count: Int, cSeconds: [Double],
      adapterSeconds: [Double], workloadSeconds: [Double], equalWork: EqualWork, instructions: Instructions? = nil
    ) {
      (self.backend, self.variant, self.operation, self.count) = (backend, variant, operation, count)
      (self.cSeconds, self.adapterSeconds, self.workloadSeconds) = (cSeconds, adapterSeconds, workloadSeconds)
      (self.equalWork, self.instructions) = (equalWork, instructions)
    }

    public var cMedian: Double { Statistics.median(cSeconds) ?? 0 }
    public var adapterMedian: Double { Statistics.median(adapterSeconds) ?? 0 }
    public var workloadMedian: Double { Statistics.median(workloadSeconds) ?? 0 }
    /// Adapter over C, paired by round (1.08: 8% slower than C).
    public var adapterRatio: PairedRatio? { PairedRatio(adapterSeconds, over: cSeconds) }
    /// Workload path over adapter, paired by round.
    public var workloadRatio: PairedRatio? { PairedRatio(workloadSeconds, over: adapterSeconds) }
    public var meetsAdapterGoal: Bool { adapterRatio?.meets(operation.goal) ?? false }
    public var meetsWorkloadGoal: Bool { workloadRatio?.meets(AdapterOverhead.workloadGoal) ?? false }

    enum CodingKeys: String, CodingKey {
      case backend, variant, operation, count
      case cSeconds = "c_seconds"
      case adapterSeconds = "adapter_seconds"
      case workloadSeconds = "workload_seconds"
      case equalWork = "equal_work"
      case instructions
    }
  }

  /// Each side's instructions over its timed span (exact under callgrind: the same count run after run where the
  /// work is deterministic), and their ratios: where the Swift side spends, without the times' noise.
  public struct Instructions: Sendable, Codable, Equatable {
    public var c: Int64?
    public var adapter: Int64?
    public var workload: Int64?

    public init(c: Int64?, adapter: Int64?, workload: Int64?) {
      (self.c, self.adapter, self.workload) = (c, adapter, workload)
    }

    /// Adapter over C (1.30: the Swift adapter runs 30% more instructions than C for the same work).
    public var adapterRatio: Double? { Self.ratio(adapter, c) }
    /// Workload path over adapter.
    public var workloadRatio: Double? { Self.ratio(workload, adapter) }

    private static func ratio(_ top: Int64?, _ bottom: Int64?) -> Double? {
      guard let top, let bottom, bottom > 0 else { return nil }
      return Double(top) / Double(bottom)
    }
  }

  /// The proof that the sides did the same work, from the last round: what each side's result was.
  public struct EqualWork: Sendable, Codable, CustomStringConvertible {
    /// For inserts, "articles <checksum>, <bytes> bytes" of each store; for lookups, "found <count>,
    /// <checksum>".
    public let c: String
    public let adapter: String
    /// The workload's own verification: the checksum it returned, which must be the adapter's content checksum
    /// (inserts: every article the store holds; lookups: the articles found, in order).
    public let workload: String
    public let adapterChecksum: String

    public init(c: String, adapter: String, workload: String, adapterChecksum: String) {
      (self.c, self.adapter, self.workload, self.adapterChecksum) = (c, adapter, workload, adapterChecksum)
    }

    public var holds: Bool { c == adapter && !c.isEmpty && workload == adapterChecksum }
    public var description: String {
      holds ? c : "C: \(c); adapter: \(adapter); workload: \(workload) (expected \(adapterChecksum))"
    }

    enum CodingKeys: String, CodingKey {
      case c, adapter, workload
      case adapterChecksum = "adapter_checksum"
    }
  }

  /// A signal stopped the measurement before it finished.
  public struct Stopped: Error {}

  public static func measure(
    _ request: Request, workdir: URL, shouldStop: @escaping () -> Bool = { false }
  ) throws -> [Measurement] {
    let work = try WorkDirectory(in: workdir, prefix: "storebench-overhead-")
    defer { work.remove() }
    let counters =
      request.counters ? CostCounters.open(fileSystem: WorkDirectory.fileSystemType(of: work.url.path)) : nil
    defer { counters?.close() }
    let instructions = request.countInstructions ? try InstructionCounter.open().get() : nil
    var results: [Measurement] = []
    let registry = BackendRegistry.standard()
    for name in request.backends {
      guard let entry = backends.first(where: { $0.name == name }), let descriptor = registry[name] else {
        throw StoreError.unsupported(
          "no C baseline for backend '\(name)'; there are: \(backends.map(\.name).joined(separator: ", "))")
      }
      for operation in request.operations {
        let path = try WorkloadPath(
          backend: name, settings: entry.settings, operation: operation, request: request)
        let sides = Sides(
          backend: name, descriptor: descriptor, variant: try descriptor.variant(entry.settings),
          work: work, path: path, counters: counters, instructions: instructions, shouldStop: shouldStop)
        results.append(
          operation == .insert
            ? try sides.insert(path.articles, repetitions: request.repetitions)
            : try sides.lookup(path.uids, among: path.articles, repetitions: request.repetitions))
      }
    }
    return results
  }
}
