import StoreBenchCore

extension ChildJobRegistry {
  /// The harness's own jobs (crash trials, `verify-store`) and those of every workload of `workloads`.
  public static func standard(workloads: WorkloadRegistry) -> ChildJobRegistry {
    var registry = harness
    for workload in workloads.workloads {
      for job in workload.childJobs where !registry.names.contains(job.name) { job.register(in: &registry) }
    }
    return registry
  }

  /// The jobs of the harness itself, which no workload declares: the crash writer and checkers, `verify-store`.
  public static var harness: ChildJobRegistry {
    var registry = ChildJobRegistry()
    registry.register(CrashWriterJob.self)
    registry.register(CrashCheckJob.self)
    registry.register(CrashCheckEachJob.self)
    registry.register(VerifyJob.self)
    return registry
  }
}
