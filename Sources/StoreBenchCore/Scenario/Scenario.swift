/// A validated run plan read from a scenario file: which backends (with variants) run which workloads
/// (with parameters), how often, and from which seed.
public struct Scenario: Sendable {
  /// A backend variant to run.
  public struct BackendEntry: Sendable {
    public let backend: String
    public let variant: Variant
    /// Upper limits of workload parameters for this entry, by workload then parameter
    /// (`limits: {insert: {count: 1000}}`): for variants that would take minutes at full size, e.g. one
    /// fsync per record. A limit lowers a parameter, never raises it.
    public let limits: [String: [String: Int]]
    /// The workloads this entry runs (`workloads: [tags, tag-edit]`), nil: every workload of the scenario. For a
    /// variant that only matters to some workloads (a tag index design, a migration strategy).
    public var only: Set<String>? = nil

    public init(backend: String, variant: Variant, limits: [String: [String: Int]] = [:], only: Set<String>? = nil) {
      (self.backend, self.variant, self.limits, self.only) = (backend, variant, limits, only)
    }

    /// Whether this entry runs `workload`.
    public func runs(_ workload: String) -> Bool { only?.contains(workload) ?? true }

    /// `parameters` of `workload` with this entry's limits applied (a parameter the case does not set, such as
    /// an optional one, stays unset).
    public func limited(_ parameters: WorkloadParameters, for workload: String) -> WorkloadParameters {
      var limited = parameters
      for (name, limit) in limits[workload] ?? [:] where parameters.values[name].map({ $0 > limit }) == true {
        limited.set(name, limit)
      }
      return limited
    }
  }

  /// A workload with one parameter set per size.
  public struct WorkloadEntry: Sendable {
    public let workload: String
    public let cases: [WorkloadParameters]
    /// The latency its operations are held to (`budget:`): a variant whose operations miss it is stopped early,
    /// with its other workloads' rows (``LatencyBudget``).
    public var budget: LatencyBudget?
    /// The parameter its `sizes: [...]` set, the only one its cases may differ in (nil: no sizes listed).
    public var sizeParameter: String?

    public init(
      workload: String, cases: [WorkloadParameters], budget: LatencyBudget? = nil, sizeParameter: String? = nil
    ) {
      (self.workload, self.cases, self.budget, self.sizeParameter) = (workload, cases, budget, sizeParameter)
    }
  }

  public var name: String
  /// What it is for, in a sentence (`description:`).
  public var description: String?
  public var seed: UInt64
  /// Warm-ups and how many measured repetitions each case gets.
  public var policy: RepetitionPolicy
  public var backends: [BackendEntry]
  public var workloads: [WorkloadEntry]
  /// The file it came from and the FNV-1a hash of its bytes.
  public var file: String
  public var fileHash: String
  /// The workload files its entries name (`sql: file.yaml`) and the workloads read from them; the runner adds
  /// them to its registry (``WorkloadRegistry/including(files:)``).
  public var workloadFiles: [WorkloadFile] = []

  /// A scenario value (a command that builds one, as advise; ``ScenarioParser`` reads files). `file` names it until
  /// it is written (``stamped(file:bytes:)``).
  public init(
    name: String, description: String? = nil, seed: UInt64, policy: RepetitionPolicy, backends: [BackendEntry],
    workloads: [WorkloadEntry], file: String, fileHash: String = "", workloadFiles: [WorkloadFile] = []
  ) {
    (self.name, self.description, self.seed, self.policy) = (name, description, seed, policy)
    (self.backends, self.workloads, self.file, self.fileHash) = (backends, workloads, file, fileHash)
    self.workloadFiles = workloadFiles
  }

  /// Keeps only the named backends (`sqlite`, or `sqlite[txn=single]` for matching variants) and workloads
  /// (command-line filters). Throws for names that select nothing.
  public func narrowed(backends backendNames: [String], workloads workloadNames: [String]) throws -> Scenario {
    var copy = self
    if !backendNames.isEmpty {
      let specs = try backendNames.map(BackendSpec.init(parsing:))
      for spec in specs where !backends.contains(where: spec.matches) {
        let present = Set(backends.map(\.backend)).sorted().joined(separator: ", ")
        throw ScenarioError(
          file: file, path: "--backend",
          message: "'\(spec)' is not in this scenario; it has: \(present)")
      }
      copy.backends = backends.filter { entry in specs.contains { $0.matches(entry) } }
    }
    if !workloadNames.isEmpty {
      for name in workloadNames where !workloads.contains(where: { $0.workload == name }) {
        let present = workloads.map(\.workload).joined(separator: ", ")
        throw ScenarioError(
          file: file, path: "--workload",
          message: "'\(name)' is not in this scenario; it has: \(present)")
      }
      copy.workloads = workloads.filter { workloadNames.contains($0.workload) }
    }
    return copy
  }

  /// Sets each parameter in `overrides` in every case of every workload that has it (`--param KEY=VALUE`); cases
  /// that become equal are kept once. Throws for a key no workload here has, a value out of its range, or a case
  /// the workload rejects.
  public func overriding(_ overrides: [String: Int], workloads registry: WorkloadRegistry) throws -> Scenario {
    guard !overrides.isEmpty else { return self }
    var copy = self
    for (key, value) in overrides.sorted(by: { $0.key < $1.key }) {
      let having = workloads.compactMap { entry in
        registry[entry.workload]?.parameters.first { $0.name == key }.map { (entry.workload, $0) }
      }
      guard !having.isEmpty else {
        throw ScenarioError(
          file: "--param", path: key,
          message: "no selected workload has this parameter ("
            + workloads.map(\.workload).joined(separator: ", ") + "; `storebench list` shows theirs)")
      }
      for (workload, parameter) in having where !parameter.range.contains(value) {
        throw ScenarioError(
          file: "--param", path: key,
          message: "\(value) is out of range for \(workload): "
            + "\(parameter.range.lowerBound)...\(parameter.range.upperBound)")
      }
    }
    copy.workloads = try workloads.map { entry in
      guard let workload = registry[entry.workload] else { return entry }
      let names = Set(workload.parameters.map(\.name))
      var cases: [WorkloadParameters] = []
      for original in entry.cases {
        var parameters = original
        for (key, value) in overrides where names.contains(key) { parameters.set(key, value) }
        do {
          try workload.validate(parameters)
        } catch {
          throw ScenarioError(file: "--param", path: entry.workload, message: "\(parameters): \(error)")
        }
        if !cases.contains(parameters) { cases.append(parameters) }
      }
      return WorkloadEntry(
        workload: entry.workload, cases: cases, budget: entry.budget,
        sizeParameter: entry.sizeParameter)
    }
    return copy
  }

  /// Keeps the cases whose `backend[variant]` or workload name matches one of the shell-style globs
  /// (`*`, `?`): `--filter 'sqlite*txn=single*'`, `--filter mark-read`. Throws when nothing is left.
  public func filtered(_ patterns: [String]) throws -> Scenario {
    guard !patterns.isEmpty else { return self }
    var copy = self
    let matches = { (text: String) in patterns.contains { Glob.matches($0, text) } }
    let workloadHit = workloads.filter { matches($0.workload) }
    let backendHit = backends.filter { matches("\($0.backend)[\($0.variant)]") || matches($0.backend) }
    // A pattern may name workloads, backends or both; an axis no pattern names stays whole.
    if !workloadHit.isEmpty { copy.workloads = workloadHit }
    if !backendHit.isEmpty { copy.backends = backendHit }
    guard !workloadHit.isEmpty || !backendHit.isEmpty else {
      throw ScenarioError(
        file: file, path: "--filter",
        message: "\(patterns.joined(separator: ", ")) matches no "
          + "workload and no backend[variant] of this scenario")
    }
    return copy
  }

  /// The rows of `keys` that `--filter patterns` keeps, by the rule ``filtered(_:)`` keeps cases by: a pattern may
  /// name workloads, `backend[variant]`s or backends; an axis no pattern names stays whole. Throws when no row is
  /// named.
  public static func rows(_ keys: some Collection<RowKey>, filtered patterns: [String]) throws -> Set<RowKey> {
    guard !patterns.isEmpty else { return Set(keys) }
    let matches = { (text: String) in patterns.contains { Glob.matches($0, text) } }
    let workloadNamed = keys.contains { matches($0.workload) }
    let backendNamed = keys.contains { matches("\($0.backend)[\($0.variant)]") || matches($0.backend) }
    guard workloadNamed || backendNamed else {
      throw ScenarioError(
        file: "", path: "--filter",
        message: "\(patterns.joined(separator: ", ")) matches no workload and no backend[variant] of these runs")
    }
    return Set(
      keys.filter { key in
        (!workloadNamed || matches(key.workload))
          && (!backendNamed || matches("\(key.backend)[\(key.variant)]") || matches(key.backend))
      })
  }

  /// A scenario made on the command line, without a file: every backend spec (its defaults where no setting is
  /// given) × every workload, at `sizes` of each workload's size parameter (its default size when empty).
  public static func adHoc(
    backends specs: [String], workloads names: [String], sizes: [Int],
    backendRegistry: BackendRegistry, workloadRegistry: WorkloadRegistry
  ) throws -> Scenario {
    var entries: [BackendEntry] = []
    for text in specs {
      let spec = try BackendSpec(parsing: text)
      guard let descriptor = backendRegistry[spec.backend] else {
        throw ScenarioError(
          file: "--backend", path: "",
          message: "unknown backend '\(spec.backend)'; known: "
            + backendRegistry.names.joined(separator: ", "))
      }
      do {
        entries.append(
          BackendEntry(backend: spec.backend, variant: try descriptor.variant(spec.settings), limits: [:]))
      } catch let error as VariantError {
        throw ScenarioError(file: "--backend", path: text, message: error.message)
      }
    }
    var workloadEntries: [WorkloadEntry] = []
    for name in names {
      guard let workload = workloadRegistry[name] else {
        throw ScenarioError(
          file: "--workload", path: "",
          message: "unknown workload '\(name)'; known: "
            + workloadRegistry.names.joined(separator: ", "))
      }
      let spec = workload.parameters.first { $0.key == workload.sizeParameter }!
      var cases: [WorkloadParameters] = []
      for size in sizes.isEmpty ? [spec.defaultValue] : sizes {
        guard spec.range.contains(size) else {
          throw ScenarioError(
            file: "--size", path: "",
            message: "\(size) is out of range for \(name)'s "
              + "\(spec.name): \(spec.range.lowerBound)...\(spec.range.upperBound)")
        }
        var parameters = workload.defaultParameters
        parameters[workload.sizeParameter] = size
        // A store that must hold the size (stored ≥ count) grows with it when its default is too small.
        if let stored = parameters.value(.stored), stored < size { parameters[.stored] = size * 2 }
        do {
          try workload.validate(parameters)
        } catch {
          throw ScenarioError(file: "--size", path: "", message: "\(name) at \(size): \(error)")
        }
        cases.append(parameters)
      }
      workloadEntries.append(
        WorkloadEntry(workload: name, cases: cases, sizeParameter: workload.sizeParameter.text))
    }
    guard !entries.isEmpty, !workloadEntries.isEmpty else {
      throw ScenarioError(
        file: "command line", path: "",
        message: "a run without --scenario needs at least one "
          + "--backend and one --workload")
    }
    return Scenario(
      name: "ad-hoc", seed: 42, policy: RepetitionPolicy(caseSeconds: 10), backends: entries,
      workloads: workloadEntries, file: "command line", fileHash: "")
  }
}

/// A scenario that cannot be run, with the file, the key and what is allowed.
public struct ScenarioError: ExitCoded, CustomStringConvertible, Equatable {
  /// A scenario or profile that cannot be used is bad input.
  public var exit: StoreBenchExit { .badInput }
  public let file: String
  /// The key path, e.g. `backends[1].variants[0].txn`; empty for the whole file.
  public let path: String
  public let message: String

  public init(file: String, path: String, message: String) {
    self.file = file
    self.path = path
    self.message = message
  }

  public var description: String { path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)" }
}
