/// The concrete cases of a scenario: every workload parameter set × every backend variant, with
/// `limits` applied and the shared datasets generated once.
public struct RunPlan {
  public struct Case {
    public let key: RowKey
    public let workload: any Workload
    public let parameters: WorkloadParameters
    public let backend: BackendDescriptor
    public let variant: Variant
    let data: any WorkloadCase
    /// The latency its operations are held to, with the rules that stop it early (the entry's `budget:`).
    public var budget: BudgetDropRule? = nil

    /// Whether its work depends on timing, through its workload (``Workload/workDependsOnTiming``) or its backend
    /// variant (``BackendDescriptor/workDependsOnTiming``): its counts differ run to run.
    public var workDependsOnTiming: Bool { workload.workDependsOnTiming || backend.workDependsOnTiming(variant) }
  }

  public let scenario: Scenario
  public private(set) var cases: [Case]
  public let datasets: [RunEnvironment.DatasetRecord]

  /// Builds the plan; generating the datasets is the slow part.
  public init(scenario: Scenario, backends: BackendRegistry, workloads: WorkloadRegistry) throws {
    self.scenario = scenario
    let generator = DatasetGenerator(seed: scenario.seed)
    var cache: [String: any WorkloadCase] = [:]
    var records: [RunEnvironment.DatasetRecord] = []
    var cases: [Case] = []
    for entry in scenario.workloads {
      guard let workload = workloads[entry.workload] else {
        throw ScenarioError(
          file: scenario.file, path: "workloads", message: "unknown workload '\(entry.workload)'")
      }
      for requested in entry.cases {
        if !workload.requiresStore {
          let data = workload.makeCase(requested, generator: generator)
          let key = RowKey(
            scenario: scenario.name, workload: workload.name, backend: "process",
            variant: "default", size: requested[workload.sizeParameter], parameters: requested.description)
          cases.append(
            Case(
              key: key, workload: workload, parameters: requested, backend: Self.noStore,
              variant: try Self.noStore.variant(), data: data))
          continue
        }
        var rules: [String: BudgetDropRule] = [:]
        for backendEntry in scenario.backends where backendEntry.runs(workload.name) {
          guard let backend = backends[backendEntry.backend] else {
            throw ScenarioError(
              file: scenario.file, path: "backends", message: "unknown backend '\(backendEntry.backend)'")
          }
          let parameters = backendEntry.limited(requested, for: workload.name)
          do {
            try workload.validate(parameters)
          } catch {
            throw ScenarioError(
              file: scenario.file,
              path: "backends (\(backend.name) [\(backendEntry.variant)]).limits.\(workload.name)",
              message: "the limited parameters do not fit together: \(error)")
          }
          let cacheKey = "\(workload.name) \(parameters)"
          let data: any WorkloadCase
          if let cached = cache[cacheKey] {
            data = cached
          } else {
            var shaped = generator
            shaped.shape = RecordShape(parameters)
            data = workload.makeCase(parameters, generator: shaped)
            cache[cacheKey] = data
            records.append(
              .init(
                workload: workload.name, parameters: parameters.description,
                fingerprint: data.fingerprint))
          }
          let key = RowKey(
            scenario: scenario.name, workload: workload.name, backend: backend.name,
            variant: backendEntry.variant.description, size: parameters[workload.sizeParameter],
            parameters: parameters.description)
          let rule = entry.budget.map { budget in
            // One rule per parameter set: its thresholds take a moment to compute.
            let operations = parameters.value(.count) ?? 1
            let id = "\(parameters)"
            if let made = rules[id] { return made }
            let made = BudgetDropRule(
              budget, operations: operations, minimum: scenario.policy.minimum,
              maximum: scenario.policy.maximum)
            rules[id] = made
            return made
          }
          cases.append(
            Case(
              key: key, workload: workload, parameters: parameters, backend: backend,
              variant: backendEntry.variant, data: data, budget: rule))
        }
      }
    }
    self.cases = cases
    self.datasets = records
  }

  /// Caps on what a scenario may ask for, so a runaway file fails with a message instead of filling memory.
  public struct Limits: Sendable, Equatable {
    /// Cases (workload parameter sets × backend variants).
    public var cases = 5_000
    /// Generated records (articles, messages, users, settings, cache keys) over every distinct data set.
    public var records = 50_000_000
    public init() {}
  }

  /// Keeps the cases at `indices` (a counting pass's child runs its share of the cases); throws on an index the plan
  /// does not have.
  mutating func keep(indices: [Int]) throws {
    if let bad = indices.first(where: { !cases.indices.contains($0) }) {
      throw Runner.ResumeError("case \(bad) is not in this plan of \(cases.count) cases")
    }
    cases = indices.sorted().map { cases[$0] }
  }

  /// Drops every case's budget (a counting pass's child: the tool's slowdown would break them all).
  mutating func removeBudgets() {
    for index in cases.indices { cases[index].budget = nil }
  }

  /// Counts the cases and generated records `scenario` asks for, without generating anything; throws a
  /// ``ScenarioError`` naming the key and the flag that raises the cap when either is over its limit.
  /// Returns the cases (workload, parameters, backend entry) in scenario order.
  @discardableResult
  public static func check(_ scenario: Scenario, workloads: WorkloadRegistry, limits: Limits) throws
    -> [PlannedCase]
  {
    var planned: [PlannedCase] = []
    var cases = 0
    var datasets: [String: Int] = [:]
    for entry in scenario.workloads {
      guard let workload = workloads[entry.workload] else { continue }
      for requested in entry.cases {
        let backends =
          workload.requiresStore
          ? scenario.backends.filter { $0.runs(workload.name) } : [scenario.backends[0]]
        for backend in backends {
          let parameters = backend.limited(requested, for: workload.name)
          cases += 1
          let records = workload.generatedRecords(parameters) ?? weightedRecords(parameters)
          planned.append((workload.name, parameters, workload.requiresStore ? backend : nil, records))
          datasets["\(workload.name) \(parameters)"] = records
        }
      }
    }
    if cases > limits.cases {
      throw ScenarioError(
        file: scenario.file, path: "workloads",
        message: "\(cases) cases (workload sizes × backend variants) exceed the cap of \(limits.cases); "
          + "list fewer sizes or variants, or raise the cap with --max-cases")
    }
    let records = datasets.values.reduce(0, +)
    if records > limits.records {
      throw ScenarioError(
        file: scenario.file, path: "workloads",
        message: "the data sets would hold \(records) generated records, over the cap of \(limits.records); "
          + "lower the sizes, or raise the cap with --max-records")
    }
    return planned
  }

  /// One case of a checked scenario: its workload, parameters, backend entry (nil: no store) and the records its
  /// data holds (``Workload/generatedRecords(_:)``, or counted from the parameters), weighted by size.
  public typealias PlannedCase = (
    workload: String, parameters: WorkloadParameters, backend: Scenario.BackendEntry?, records: Int
  )

  /// The parameters that count generated records.
  static let countedParameters = ["count", "stored", "messages", "users", "keys"]

  /// The records a case's data set holds, weighted by their size: a record of `summary_bytes` counts as that many
  /// default-sized ones.
  static func weightedRecords(_ parameters: WorkloadParameters) -> Int {
    let weight = max(1, (parameters.value(.summaryBytes) ?? 0) / RecordShape().summaryBytes)
    return countedParameters.compactMap { parameters.values[$0] }.reduce(0, +) * weight
  }

  /// The stand-in backend of workloads that use no store.
  static let noStore = BackendDescriptor(name: "process", summary: "no store", persistent: false) { _ -> NoStore in
    throw StoreError.unsupported("this workload uses no store")
  }

  /// The type of the stand-in backend's stores (none is ever opened).
  final class NoStore: Store {
    var effectiveSettings: String { "" }
    func unitOfWork(_ body: () throws -> Void) throws { try body() }
    func close() throws {}
  }

  /// The order of cases in round `round`: a seeded shuffle, different each round, the same for every run
  /// with the same seed — so slow drift of the machine does not favour whichever backend runs first.
  public func order(round: Int) -> [Int] {
    var rng = SplitMix64.forItem(seed: scenario.seed, stream: 0x524F_554E_44, index: round)
    var indices = Array(cases.indices)
    indices.shuffle(using: &rng)
    return indices
  }
}

extension RunPlan {
  /// The strategy (`backend [variant]`) of every case of a backend that has a budgeted case: a budget its rules
  /// say it misses stops the strategy's other cases too (``RepetitionSchedule/holdToBudget(_:_:rule:warmup:)``).
  public var budgetedStrategies: [Int: String] {
    let budgeted = Set(cases.filter { $0.budget != nil }.map(\.key.strategy))
    var strategies: [Int: String] = [:]
    for (index, planned) in cases.enumerated() where budgeted.contains(planned.key.strategy) {
      strategies[index] = planned.key.strategy
    }
    return strategies
  }
}
