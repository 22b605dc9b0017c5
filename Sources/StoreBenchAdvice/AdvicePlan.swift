import Foundation
import StoreBenchAnalysis
import StoreBenchCore

/// How `advise` measures a profile: each operation the app does becomes a workload at the profile's sizes, run on
/// every candidate strategy, in a scenario written beside the answer (`scenario.yaml`) so the run can be read and
/// repeated with `storebench run`.
public struct AdvicePlan: Sendable {
  /// One operation's workload and parameters.
  public struct Measure: Sendable, Equatable {
    public let operation: AppProfile.Operation
    public let workload: String
    public let parameters: [String: Int]
    /// The time of one operation is the repetition's whole time (a launch, a migration with its first read), not
    /// its time per operation: percentiles then come from the repetitions.
    public let wholeRepetition: Bool
    /// What one measured operation is, how it is committed and how many a repetition times ("1 record inserted
    /// and committed; 100 operations per repetition"): advice.md prints it beside the operation.
    public let unit: String
  }

  /// The app's operations in one repetition of the `shared` workload, and its extension's rate a second (a busy
  /// moment: the profile's per-day frequency would put one operation in minutes).
  public static let sharedAppOperations = 200
  public static let sharedExtensionRate = 50

  /// Every operation of every strategy gets at least this many measured repetitions (the scenario's minimum and
  /// first look) before an interval is printed beside its figures.
  public static let minimumRepetitions = MedianInterval.verdictCount
  /// The most repetitions of one row.
  public static let maximumRepetitions = 16
  /// A row stops early once its median's interval is within ± this fraction (at a look).
  public static let targetPrecision = 0.10
  /// When a row may stop, and the level of its intervals.
  public static var schedule: LookSchedule { LookSchedule(minimum: minimumRepetitions, maximum: maximumRepetitions) }

  public let profile: AppProfile
  public let measures: [Measure]
  /// Backend specs (`sqlite[journal=wal]`), each a strategy.
  public let candidates: [String]
  /// Strategies the profile's size rules out without measuring, and why.
  public let notConsidered: [(candidate: String, reason: String)]
  /// The strategies (`backend [variant]`) left out for declaring less than the need: a run that measured them
  /// (before they were left out) is judged without them.
  public let declaredShort: Set<String>
  /// The registries the scenario's backends and workloads come from.
  let backends: BackendRegistry
  let workloads: WorkloadRegistry

  /// The plan for `profile`: its operations as `workloads`, on the strategies the backends of `backends` offer
  /// (``BackendDescriptor/adviceCandidates``) unless the profile names its own.
  public init(_ profile: AppProfile, backends: BackendRegistry, workloads: WorkloadRegistry) {
    (self.profile, self.backends, self.workloads) = (profile, backends, workloads)
    var measures: [Measure] = []
    for operation in profile.perDay.keys.sorted() where (profile.perDay[operation] ?? 0) > 0 {
      measures.append(Self.measure(operation, profile: profile, workloads: workloads))
    }
    self.measures = measures
    let standard = Self.offered(for: profile, by: backends)
    var skipped = profile.candidates == nil ? standard.skipped : []
    // A declared class is the most a strategy keeps (a crash trial can show it keeps less, never more): one that
    // declares less than the need is out before anything is timed.
    let required: DurabilityPromise =
      profile.need == .kill || profile.lossWindowMilliseconds != nil ? .survivesKill : .durable
    var short: Set<String> = []
    candidates = (profile.candidates ?? standard.considered).filter { candidate in
      guard let (descriptor, variant) = Self.resolve(candidate, backends: backends),
        case let declared = descriptor.promise(variant),
        !declared.keeps(atLeast: required)
      else { return true }
      short.insert("\(descriptor.name) [\(variant.description)]")
      skipped.append(
        (
          candidate,
          "declares that it \(declared.rawValue), short of the need (\(profile.needPhrase)); a crash trial "
            + "can show a strategy keeps less than it declares, never more: not timed"
        ))
      return false
    }
    notConsidered = skipped
    declaredShort = short
  }

  /// The backend and variant a candidate spec (`sqlite[journal=wal,sync=full]`) names, nil when this binary cannot
  /// resolve it.
  public static func resolve(_ candidate: String, backends: BackendRegistry) -> (BackendDescriptor, Variant)? {
    guard let spec = try? BackendSpec(parsing: candidate) else { return nil }
    let settings = spec.settings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    return try? backends.resolve(backend: spec.backend, settings: settings.joined(separator: " "))
  }

  /// Whether advise holds `measure`'s operations to their budget while it measures (``LatencyBudget``): those
  /// whose percentile comes from per-operation latencies, and those whose repetition is the operation. (The
  /// extension's budget is on its own operations, which the app's repetition does not time one by one.)
  public static func holdsToBudget(_ measure: Measure) -> Bool {
    measure.operation != .extensionWork && measure.operation != .markRead
  }

  /// The answer's scenario (`scenario.yaml`): the profile's operations at its sizes on every candidate, with a run
  /// budget of `budgetSeconds` (nil: the profile's `run_seconds`).
  public func scenario(budgetSeconds: Int? = nil) throws -> Scenario {
    try scenario(
      name: "advise-\(profile.name)", budgetSeconds: budgetSeconds ?? profile.runSeconds,
      repetitions: (Self.minimumRepetitions, Self.maximumRepetitions), precision: true
    ) { $0.parameters }
  }

  /// `scenario` as the file advise writes: a comment naming the profile and the operation each workload
  /// measures, then the YAML (``Scenario/yaml(comment:)``).
  public func text(of scenario: Scenario) throws -> String {
    try scenario.yaml(
      comment: [
        "Generated by storebench advise from \(profile.file): the profile's operations at its sizes, on each "
          + "candidate."
      ] + measures.map { "\($0.operation.rawValue): \($0.workload)" })
  }

  /// The answer's scenario as the file's text.
  public func scenarioText(budgetSeconds: Int? = nil) throws -> String {
    try text(of: scenario(budgetSeconds: budgetSeconds))
  }

  /// A scenario over the plan's candidates and operations; `parameters` gives each measure's. Throws a
  /// ``ScenarioError`` naming the profile's key for a candidate this binary cannot resolve (or listed twice) and
  /// for parameters a workload refuses.
  func scenario(
    name: String, budgetSeconds: Int, repetitions: (min: Int, max: Int), precision: Bool,
    parameters: (Measure) -> [String: Int]
  ) throws -> Scenario {
    let fail = { (path: String, message: String) in ScenarioError(file: profile.file, path: path, message: message) }
    var policy = RepetitionPolicy(warmup: 0, minimum: repetitions.min, maximum: repetitions.max)
    if precision { policy.targetPrecision = Self.targetPrecision }
    policy.budgetSeconds = Double(budgetSeconds)
    var entries: [Scenario.BackendEntry] = []
    for candidate in candidates {
      let spec = try BackendSpec(parsing: candidate)
      guard let descriptor = backends[spec.backend] else {
        throw fail("candidates", "unknown backend '\(spec.backend)'; known: \(backends.names.joined(separator: ", "))")
      }
      let variant: Variant
      do {
        variant = try descriptor.variant(spec.settings)
      } catch let error as VariantError {
        throw fail("candidates", "\(candidate): \(error.message)")
      }
      guard !entries.contains(where: { $0.backend == spec.backend && $0.variant == variant }) else {
        throw fail("candidates", "\(candidate) is listed twice")
      }
      entries.append(Scenario.BackendEntry(backend: spec.backend, variant: variant))
    }
    let workloadEntries = try measures.map { measure in
      let path = "per_day.\(measure.operation.rawValue)"
      guard let workload = workloads[measure.workload] else {
        throw fail(path, "no workload '\(measure.workload)' in this binary")
      }
      let values: WorkloadParameters
      do {
        values = try workload.parameters(setting: parameters(measure))
      } catch {
        throw fail(path, "\(measure.workload): \(error)")
      }
      let budget = profile.budgets[measure.operation].flatMap { budget in
        Self.holdsToBudget(measure)
          ? LatencyBudget(
            percentile: budget.percentile, milliseconds: budget.milliseconds, perRepetition: measure.wholeRepetition)
          : nil
      }
      return Scenario.WorkloadEntry(workload: measure.workload, cases: [values], budget: budget)
    }
    return Scenario(
      name: name, description: "what storebench advise measured for \(profile.name)", seed: 42, policy: policy,
      backends: entries, workloads: workloadEntries, file: "what advise makes of \(profile.file)")
  }

  /// What measures `operation` here, nil when the profile does not do it.
  public func operation(of operation: AppProfile.Operation) -> Measure? {
    measures.first { $0.operation == operation }
  }

  /// The operation a workload measures here.
  public func operation(of workload: String) -> Measure? { measures.first { $0.workload == workload } }
}

extension AdvicePlan {
  /// What an app with `profile` needs from a store's schema: every candidate is given all of it that it can
  /// provide, so that candidates differ only in their strategy.
  public static func schemaNeeds(of profile: AppProfile) -> Set<SchemaNeed> {
    let does = { (operation: AppProfile.Operation) in (profile.perDay[operation] ?? 0) > 0 }
    var needs: Set<SchemaNeed> = []
    if does(.launch) && profile.data.records > 0 && profile.data.parents == 0 { needs.insert(.newestFirstList) }
    if does(.tagQuery) || does(.tagChange) { needs.insert(.coveringTagIndex) }
    if does(.search) { needs.insert(.fullTextSearch) }
    return needs
  }

  /// The strategies the registered backends offer for `profile` (each with the schema the profile needs; a strategy
  /// that provides a need whose index costs every write, ``SchemaNeed/costsWrites``, also without it), and those
  /// left out with why: a backend that keeps nothing across launches, one that offers no strategy, a strategy
  /// whose size limit the profile exceeds.
  public static func offered(for profile: AppProfile, by backends: BackendRegistry) -> (
    considered: [String], skipped: [(candidate: String, reason: String)]
  ) {
    let records = max(profile.data.records, profile.data.messages)
    let needs = schemaNeeds(of: profile)
    var considered: [String] = []
    var skipped: [(candidate: String, reason: String)] = []
    for descriptor in backends.descriptors {
      guard descriptor.persistent else {
        skipped.append((descriptor.name, "keeps nothing across launches: the floor, not a strategy"))
        continue
      }
      if descriptor.adviceCandidates.isEmpty {
        skipped.append((descriptor.name, "its backend offers advise no strategy"))
      }
      for candidate in descriptor.adviceCandidates {
        // A need whose index every write pays for (FTS): the strategy with it, and without it.
        let optional = needs.intersection(candidate.provided).filter(\.costsWrites)
        let specs =
          [candidate.spec(for: needs)]
          + (optional.isEmpty ? [] : [candidate.spec(for: needs.subtracting(optional))])
        for spec in specs {
          if let most = candidate.mostRecords, records > most {
            skipped.append((spec, "\(candidate.beyondMost) (\(records) records; considered up to \(most))"))
          } else {
            considered.append(spec)
          }
        }
      }
    }
    return (considered, skipped)
  }
}
