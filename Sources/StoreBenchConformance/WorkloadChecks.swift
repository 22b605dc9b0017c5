import Foundation
import StoreBenchBackends
import StoreBenchCore

/// ``ContractCheck/workloads``: every registered workload that uses a store (and the suite's own `sql` workload file,
/// ``ContractData/sqlFile``), through the runner's own prepare →
/// measure → verify at its smoke size, on the backend and on the reference; the result checksums must be equal.
enum WorkloadChecks {
  /// The seed every run of the check uses (the reference's and the backend's data are the same).
  static let seed: UInt64 = 11

  /// Every registered workload that uses a store, at the small sizes it declares for the smoke run: a new workload
  /// is checked without this suite being edited.
  static func cases(_ workloads: WorkloadRegistry) -> [(workload: any Workload, parameters: WorkloadParameters)] {
    (workloads.workloads.filter(\.requiresStore) + ContractData.sqlWorkloads).map { workload in
      var parameters = workload.defaultParameters
      for (name, value) in workload.smokeParameters { parameters.set(name, value) }
      return (workload, parameters)
    }
  }

  static func run(_ context: ContractContext, references: inout WorkloadReferences) -> [ContractResult] {
    cases(context.workloads).map { workload, parameters in
      ContractSuite.result(of: .workloads, variant: context.variant.description, subject: workload.name) {
        let sample = try runOnce(workload, parameters, context.backend, context.variant, context)
        guard context.backend.roles.isSuperset(of: workload.requires) else {
          try expect(
            sample.status == .unsupported,
            "the backend does not play \(workload.requires.subtracting(context.backend.roles)), "
              + "yet the row is \(sample.status): \(sample.error)")
          return .notApplicable(
            "refused as unsupported: the backend does not play the role "
              + "\(workload.requires.subtracting(context.backend.roles))")
        }
        try expect(sample.status == .ok, "the row is \(sample.status): \(sample.error)")
        try expect(sample.ops > 0, "the row reports no operations")
        if let latency = sample.latency {
          try expect(
            latency.p50 <= latency.p90 && latency.p90 <= latency.p99 && latency.p99 <= latency.max,
            "latency percentiles out of order: \(latency)")
        }
        if workload.resultDependsOnTiming {
          try expectNotes(sample, of: workload)
          return .passed("verified, \(sample.ops) operations (the result depends on timing: not compared)")
        }
        let reference = try references.checksum(workload, parameters, context)
        try expect(
          sample.checksum == reference.checksum,
          "result checksum \(sample.checksum), the \(reference.backend) backend's is \(reference.checksum)"
            + " (same workload, seed and sizes)")
        try expectNotes(sample, of: workload)
        return .passed("verified, \(sample.ops) operations, the \(reference.backend) backend's checksum")
      }
    }
  }

  /// What a workload's row must say besides its checksum: what the workload itself declares
  /// (``Workload/missingNotes(_:)``: the plan a query ran, the ratio a cache hit, how a migration or a compaction
  /// went), so a new workload's notes are checked without this suite being edited.
  static func expectNotes(_ sample: Sample, of workload: any Workload) throws {
    if let missing = workload.missingNotes(sample.notes) { throw ContractViolation(description: missing) }
  }

  /// One repetition on a fresh store, as the runner runs it.
  static func runOnce(
    _ workload: any Workload, _ parameters: WorkloadParameters, _ backend: BackendDescriptor, _ variant: Variant,
    _ context: ContractContext
  ) throws -> Sample {
    try workload.validate(parameters)
    return try context.withDirectory { work in
      Runner.runOnce(
        workload, parameters: parameters, seed: seed, backend: backend, variant: variant,
        in: try work.subdirectory("store"), childExecutable: context.executable)
    }
  }
}

/// The reference result of each workload, computed once per suite run: the memory backend's, or sqlite's (at its
/// defaults) where the memory backend cannot play the workload's roles (nothing of memory survives its process).
struct WorkloadReferences {
  private var known: [String: (backend: String, checksum: String)] = [:]

  mutating func checksum(_ workload: any Workload, _ parameters: WorkloadParameters, _ context: ContractContext)
    throws -> (backend: String, checksum: String)
  {
    if let found = known[workload.name] { return found }
    let memory = MemoryBackend.descriptor()
    let reference = memory.roles.isSuperset(of: workload.requires) ? memory : SQLiteBackend.descriptor
    let sample = try WorkloadChecks.runOnce(workload, parameters, reference, try reference.variant(), context)
    guard sample.status == .ok else {
      throw ContractViolation(
        description: "the reference, \(reference.name), did not run: \(sample.status) \(sample.error)")
    }
    known[workload.name] = (reference.name, sample.checksum)
    return (reference.name, sample.checksum)
  }
}
