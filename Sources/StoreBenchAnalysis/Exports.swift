// StoreBenchAnalysis reads run folders and renders claims, comparisons and reports over the formats and statistics
// below it, which it re-exports: a reader of reports imports one module (docs/ARCHITECTURE.md has the layering).
@_exported import StoreBenchFormats
@_exported import StoreBenchStatistics
