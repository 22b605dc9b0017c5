import ArgumentParser
import Foundation
import StoreBenchAnalysis
import StoreBenchBackends
import StoreBenchCore
import StoreBenchHistory

/// `storebench export RUN_DIR --format bmf|github-action-benchmark`.
struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write a run's results in the Bencher Metric Format or github-action-benchmark's JSON.",
    discussion: """
      bmf: {benchmark: {latency: {value, lower_value, upper_value}, syncs_per_op: {value}, …}} — latency in \
      nanoseconds (the median and its 95% interval), counts per operation where counted. \
      github-action-benchmark: the customSmallerIsBetter list [{name, unit, value, range, extra}] — seconds, and \
      one entry per count. Only ok rows; names are workload/backend [variant]/size (parameters), stable across \
      runs. Interrupted runs and runs with failed rows are refused (exit 1). Writes to standard output, or to \
      --out FILE (never one of the run's own files).
      """
  )

  @Argument(help: "A run directory (its summary.csv).") var runDirectory: String
  @Option(help: "bmf or github-action-benchmark.") var format: String
  @Option(help: "Write to this file instead of standard output.") var out: String?

  func validate() throws {
    guard Export.Format(rawValue: format) != nil else {
      throw ValidationError(
        "--format must be one of: \(Export.Format.allCases.map(\.rawValue).joined(separator: ", "))")
    }
  }

  func run() throws {
    let (folder, data) = try failing(.failure) { () throws -> (RunFolder, Data) in
      let folder = try RunFolder(runDirectory, columns: CommandEnvironment.current.columns)
      try folder.requireComplete()
      let registry = CommandEnvironment.current.registry()
      let rows = try Export.rows(folder) { registry.currentVariantText(backend: $0, variant: $1) }
      return (folder, try Export.encode(rows, as: Export.Format(rawValue: format)!))
    }
    if let out {
      // Never the run's own files, however the path names them (device and inode).
      try failing(.failure) {
        try RunOutput.checkPath(out)
        try StandaloneOutput.write(data, to: URL(fileURLWithPath: out), inputs: folder.files)
      }
    } else {
      writeStandardOutput(data)
    }
  }
}
