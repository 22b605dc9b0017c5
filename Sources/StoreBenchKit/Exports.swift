// StoreBenchKit: what a team's package imports to measure its own store (docs/EXTENDING.md).
// - The contract: the model (`Article`, …), the store roles (`ArticleStore`, `QueryStore`, …), `BackendDescriptor`,
//   `BackendSettings` and its axes, durability promises and advice strategies.
// - The measuring primitives a backend may use (system errors, the platform's file calls).
// - The workload contract: `Workload` and its `WorkloadCase` (prepare → measure → verify), `Repetition`,
//   `Measured`, `DatasetGenerator`, parameters and store roles, for a workload of the team's own.
// - The entry point: `StoreBench.main(registering: [YourBackend.descriptor], workloads: [YourWorkload()])` from the
//   package's own executable.
@_exported import StoreBenchCommands
@_exported import StoreBenchContract
@_exported import StoreBenchCore
@_exported import StoreBenchMeasure
