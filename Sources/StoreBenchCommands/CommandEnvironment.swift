import StoreBenchAdvice
import StoreBenchBackends
import StoreBenchCore
import StoreBenchStandard

/// What every command of one invocation works with: the backends it can run, list, crash, compare and advise, and
/// the workloads it can run them through.
///
/// Set once by the entry point (``StoreBench/main(registering:workloads:)``) for the whole invocation as a task-local
/// value, so there is no global mutable state; a command asks ``registry()`` for the backends and ``workloads()`` for
/// the workloads instead of building the standard ones itself. Without an entry point (tests that run a command in
/// process) it is the standard backends and workloads alone.
public struct CommandEnvironment: Sendable {
  /// The backends registered beside the standard ones, in the order given.
  public let extraBackends: [BackendDescriptor]
  /// The workloads registered beside the standard ones, in the order given.
  public let extraWorkloads: [any Workload]

  /// The current invocation's environment.
  @TaskLocal public static var current = CommandEnvironment()

  /// The standard backends and workloads alone.
  public init() {
    extraBackends = []
    extraWorkloads = []
  }

  /// The standard backends and `extraBackends`, the standard workloads and `extraWorkloads`; throws when a name is
  /// registered twice (a standard one's name, or two of the extra ones).
  public init(registering extraBackends: [BackendDescriptor], workloads extraWorkloads: [any Workload] = []) throws {
    var registry = BackendRegistry.standard()
    for backend in extraBackends { try registry.add(backend) }
    var workloads = WorkloadRegistry.standard
    for workload in extraWorkloads { try workloads.add(workload) }
    try Self.checkAdviceOperations(workloads)
    self.extraBackends = extraBackends
    self.extraWorkloads = extraWorkloads
  }

  /// A fresh registry: the standard backends (memory stores owned by it) and the extra ones (their names were
  /// checked when the environment was made).
  public func registry() -> BackendRegistry {
    var registry = BackendRegistry.standard()
    for backend in extraBackends { registry.register(backend) }
    return registry
  }

  /// The advise operations the workloads declare (``Workload/adviceOperations``), which a profile may name.
  public var adviceOperations: [AdviceOperation] { workloads().adviceOperations.map(\.operation) }

  /// A declared operation's key must be its own (not a standard operation's, not another workload's) and the data
  /// it needs a profile's data key.
  static func checkAdviceOperations(_ workloads: WorkloadRegistry) throws {
    var taken = Set(AppProfile.Operation.allCases.map(\.rawValue))
    let data = Set(AppProfile.countKeys + AppProfile.dataKeys)
    for (workload, operation) in workloads.adviceOperations {
      guard taken.insert(operation.key).inserted else {
        throw RegistrationError(
          description: "the workload '\(workload)': the advise operation '\(operation.key)' is taken; give "
            + "yours a key of its own")
      }
      if let unknown = operation.needs.first(where: { !data.contains($0) }) {
        throw RegistrationError(
          description: "the workload '\(workload)': the advise operation '\(operation.key)' needs "
            + "'\(unknown)', which is no profile data key (\(data.sorted().joined(separator: ", ")))")
      }
    }
  }

  /// The columns of the invocation's files: the standard ones and those its workloads declare
  /// (``WorkloadRegistry/columns``).
  public var columns: ColumnSet { workloads().columns }

  /// The standard workloads and the extra ones (their names were checked when the environment was made).
  public func workloads() -> WorkloadRegistry {
    var registry = WorkloadRegistry.standard
    for workload in extraWorkloads { registry.register(workload) }
    return registry
  }

  /// The run's decision report as `report` renders it: the invocation's classes, labels and workloads.
  public func decision(table: SampleTable, crashes: [String: CrashResult], margin: TieMargin = .standard)
    -> DecisionReport
  {
    let registry = self.registry()
    let workloads = self.workloads()
    return DecisionReport(
      table: table, promise: registry.declaredPromise, crashes: crashes, label: registry.label,
      workloadOrder: workloads.names,
      readOnly: Set(workloads.workloads.filter { $0.leavesStoreUnchanged || !$0.requiresStore }.map(\.name)),
      figures: workloads.figures, margin: margin)
  }
}
