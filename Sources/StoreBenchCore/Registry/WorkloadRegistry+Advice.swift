extension WorkloadRegistry {
  /// The advise operations the registered workloads declare, each with its workload's name, in registration order.
  public var adviceOperations: [(workload: String, operation: AdviceOperation)] {
    workloads.flatMap { workload in workload.adviceOperations.map { (workload.name, $0) } }
  }
}
