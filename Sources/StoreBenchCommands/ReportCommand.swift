import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore

struct ReportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract:
      "Print a run's Markdown summary and write RUN_DIR/report.md (and classes.csv) with its charts and environment.",
    discussion: """
      Durability comes from every crash result of the run folder (RUN_DIR/durability*.csv, written by \
      `storebench crash --out`, kills and power loss alike) and from each --durability FILE. A measured loss \
      of a variant lowers its class; classes nobody measured say "declared". RUN_DIR/classes.csv records each \
      variant's class and evidence for the charts (scripts/plot reads it).
      """
  )

  @Argument(help: "A run directory (with samples.csv).") var runDirectory: String
  @Option(
    name: .customLong("durability"), parsing: .upToNextOption,
    help: "More crash result files (durability.csv of `storebench crash`), besides RUN_DIR/durability*.csv.")
  var durabilityFiles: [String] = []
  @Option(
    help: "How close to 1 a ratio's interval must lie for two rows to be equivalent, e.g. 10% (docs/MEASURING.md).")
  var tieMargin = Fraction(0.10)

  func validate() throws {
    guard tieMargin.value > 0 && tieMargin.value < 1 else {
      throw ValidationError("--tie-margin must lie between 0 and 100%")
    }
  }

  func run() throws {
    let directory = URL(fileURLWithPath: runDirectory, isDirectory: true)
    let folder = try failing(.failure) {
      try RunFolder(directory.path, columns: CommandEnvironment.current.columns)
    }
    let table = try failing(.failure) { try SampleTable(folder: folder) }
    // report.md and classes.csv join the run folder's own files (its manifest); a folder that is not one of
    // storebench's is refused before anything is written. classes.csv is this command's own output (a report
    // renders again over it), not an input.
    // A folder that cannot be written (a read-only mount, an immutable folder) still gets its summary printed;
    // the command then says what it could not write, and fails.
    let readOnly = access(directory.path, W_OK) == 0 ? nil : String(cString: strerror(errno))
    let claim: RunOutput? =
      readOnly != nil
      ? nil
      : try failing(.badInput) {
        try RunOutput(
          directory, existing: .adopt, kind: .run,
          inputs: durabilityFiles.map { URL(fileURLWithPath: $0) }
            + folder.files.filter { $0.lastPathComponent != "classes.csv" })
      }
    defer { claim?.release() }
    // Intervals and noise flags as the run made them: its look schedule, target and machine.
    var builder = SummaryBuilder(
      targetPrecision: table.targetPrecision, schedule: table.lookSchedule,
      cores: table.cores ?? ProcessInfo.processInfo.activeProcessorCount, columns: table.columns)
    // Rows in a stable order (workload, size, backend, variant), not the first round's shuffle.
    let samples = table.samples().sorted {
      ($0.key.workload, $0.key.size, $0.key.backend, $0.key.variant) < (
        $1.key.workload, $1.key.size, $1.key.backend, $1.key.variant
      )
    }
    for sample in samples { builder.add(sample) }
    let summary = MarkdownTable.render(builder.summary)
    let crashFiles = CrashResult.files(in: directory) + durabilityFiles.map { URL(fileURLWithPath: $0) }
    let crashes = try failing(.badInput) { try CrashResult.read(files: crashFiles) }
    let decision = CommandEnvironment.current.decision(
      table: table, crashes: crashes, margin: TieMargin(fraction: tieMargin.value))
    for warning in decision.contradictions { printError("warning: \(warning)") }
    print(decision.answer)
    print(summary, terminator: "")
    let document = RunReport.markdown(
      summary: summary, environment: table.environment,
      charts: RunReport.charts(in: directory.appendingPathComponent("charts")),
      decision: decision, crashFiles: crashFiles.map(\.lastPathComponent),
      powerCut: folder.unsynced?.section(crashes: crashes) {
        [registry = CommandEnvironment.current.registry()] key in
        let parts = BackendRegistry.parts(ofStrategy: key)
        return registry.label(backend: parts.backend, variant: parts.variant)
      } ?? [])
    guard let claim else {
      throw CommandFailure(
        exit: .failure,
        message: "storebench report: \(directory.path) cannot be written (\(readOnly ?? "?")): the summary is "
          + "above; report.md and classes.csv were not written")
    }
    try failing(.failure) {
      try claim.write(CSVFormat.encode(decision.classRows), name: "classes.csv")
      try claim.write(Data(document.utf8), name: "report.md")
    }
    printError(
      "wrote \(directory.appendingPathComponent("report.md").path) (durability from \(crashFiles.isEmpty ? "declarations only: no crash results" : crashFiles.map(\.lastPathComponent).joined(separator: ", ")))"
    )
  }
}
