extension WorkloadRegistry {
  /// This registry with the workloads `scenario` read from workload files.
  public func including(_ scenario: Scenario) -> WorkloadRegistry { including(files: scenario.workloadFiles) }
}
