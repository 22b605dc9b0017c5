// StoreBenchKit: what a team's package imports to measure its own store (docs/EXTENDING.md).
// - The contract: the model (`Article`, …), the store roles (`ArticleStore`, `QueryStore`, …), `BackendDescriptor`,
//   `BackendSettings` and its axes, durability promises and advice strategies.
// - The measuring primitives a backend may use (system errors, the platform's file calls).
// - The entry point: `StoreBench.main(registering: [YourBackend.descriptor])` from the package's own executable.
@_exported import StoreBenchCommands
@_exported import StoreBenchContract
@_exported import StoreBenchMeasure
