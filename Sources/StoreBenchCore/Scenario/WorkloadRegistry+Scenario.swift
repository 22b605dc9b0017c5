extension WorkloadRegistry {
  /// This registry with the workloads `scenario` read from sql workload files.
  public func including(_ scenario: Scenario) -> WorkloadRegistry { including(scenario.sqlWorkloads) }
}
