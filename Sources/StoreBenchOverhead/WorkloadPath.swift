import Foundation
import StoreBenchBackends
import StoreBenchCore
import StoreBenchStandard

/// The workload side of ``AdapterOverhead``: the one-case plan `storebench run` would make for the `insert` or
/// `lookup` workload on a backend variant, and the data that case generates, which the C and adapter sides then
/// use (the articles; for lookups, the uids the lookup workload chooses). Each round runs one repetition of the
/// case as a run does (``RunPlan/Case/runOnce(round:in:counters:)``).
struct WorkloadPath {
  let planned: RunPlan.Case
  /// What the C and adapter sides insert, or hold and look up in.
  let articles: [Article]
  /// The lookups, in the workload's order (empty for inserts).
  let uids: [String]

  init(
    backend: String, settings: [String: String], operation: AdapterOverhead.Operation,
    request: AdapterOverhead.Request
  )
    throws
  {
    let parameters =
      operation == .insert
      ? "{count: \(request.count)}" : "{stored: \(request.stored), count: \(request.count)}"
    let variant = settings.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    let text = """
      name: overhead
      seed: \(request.seed)
      warmup: 0
      repetitions: 1
      backends: [{backend: \(backend), variants: [{\(variant)}]}]
      workloads: [{workload: \(operation.workload), parameters: \(parameters)}]
      """
    let registry = BackendRegistry.standard()
    let parser = ScenarioParser(backends: registry, workloads: .standard)
    let scenario = try parser.parse(data: Data(text.utf8), file: "storebench overhead")
    let plan = try RunPlan(scenario: scenario, backends: registry, workloads: .standard)
    guard plan.cases.count == 1, let planned = plan.cases.first else {
      throw StoreError.unsupported("the overhead scenario made \(plan.cases.count) cases, not one")
    }
    self.planned = planned
    // The same generator calls the workload's case makes (InsertWorkload, ArticleSelection); the workload's own
    // verification, compared with the adapter's checksum every round, proves the data equal.
    let generator = DatasetGenerator(seed: request.seed)
    switch operation {
    case .insert:
      articles = generator.articles(count: request.count)
      uids = []
    case .lookup:
      articles = generator.articles(count: request.stored)
      uids = RequestKeys.separate(
        generator.sample(request.count, of: request.stored, salt: LookupWorkload.selectionSalt).map {
          [articles] in articles[$0].uid
        })
    }
  }

  /// One repetition in a fresh directory of `work`: its timed seconds and the checksum its verification returned;
  /// throws with the row's error when it did not verify.
  func run(round: Int, in work: WorkDirectory, counters: CostCounters?, instructions: InstructionCounter? = nil)
    throws -> (seconds: Double, checksum: String, instructions: Int64?)
  {
    let directory = try work.subdirectory("\(planned.backend.name)-\(planned.workload.name)-workload\(round)")
    defer { work.retire(directory) }
    let sample = planned.runOnce(round: round, in: directory, counters: counters, region: instructions)
    guard sample.status == .ok else {
      throw VerificationError(
        "the \(planned.workload.name) workload on \(planned.backend.name) [\(planned.variant)] (\(sample.status)): "
          + sample.error)
    }
    return (sample.wallSeconds, sample.checksum, sample.costs[.instructions])
  }
}
