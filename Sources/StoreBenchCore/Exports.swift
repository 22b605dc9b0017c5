// StoreBenchCore is what the command line and the tests import: it re-exports the contract backends implement,
// the measuring primitives and the analysis of results (docs/ARCHITECTURE.md has the layering).
@_exported import StoreBenchAnalysis
@_exported import StoreBenchContract
@_exported import StoreBenchMeasure
