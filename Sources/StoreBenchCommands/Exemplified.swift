import ArgumentParser
import StoreBenchBackends

/// What a command writes to, for the hostile suite: nothing of its own, one file, or a folder.
enum OutputShape: Sendable {
  case none, file, folder
}

/// A command's smallest real invocation. Every command shown in `--help` has one (a test fails otherwise), and the
/// hostile suite (Tests/StoreBenchTests/HostileSuiteTests.swift) derives its cases from it and from the options the
/// command declares, so a new command is covered by existing. Placeholders the suite fills: `{OUT}` the command's own
/// output (``output`` says whether a file or a folder), `{RUN}` a finished run folder, `{DB}` a history holding it,
/// `{SCENARIO}` a tiny scenario, `{PROFILE}` a tiny app profile, `{BUDGETS}` a budgets file on `{RUN}`, `{STORE}` a small sqlite store, `{WORK}` a work
/// directory, `{BIN}` this binary; `{SIZE}` and `{TRIALS}` small numbers, larger when the suite interrupts the command.
protocol Exemplified: ParsableCommand {
  static var example: [String] { get }
  static var output: OutputShape { get }
  /// The exit codes the example may end with (a measured outcome, such as overhead's 2 over its goal in a debug
  /// build).
  static var exampleExits: Set<Int32> { get }
}

extension Exemplified {
  static var exampleExits: Set<Int32> { [0] }
}

/// A command that can run long enough for a person to press Ctrl-C: the suite interrupts its example midway and
/// expects exit 130, and nothing of storebench's left in the temporary or work directory.
protocol LongRunning: Exemplified {}

extension RunCommand: LongRunning {
  static var example: [String] { ["run", "--scenario", "{SCENARIO}", "--out", "{OUT}", "--workdir", "{WORK}"] }
  static var output: OutputShape { .folder }
}

extension CrashCommand: LongRunning {
  static var example: [String] {
    [
      "crash", "--scenario", "{SCENARIO}", "--fault", "kill", "--trials", "{TRIALS}", "--out", "{OUT}",
      "--workdir", "{WORK}",
    ]
  }
  static var output: OutputShape { .folder }
}

extension AdviseCommand: LongRunning {
  static var example: [String] { ["advise", "--profile", "{PROFILE}", "--out", "{OUT}", "--workdir", "{WORK}"] }
  static var output: OutputShape { .folder }
  /// 7: no answer yet — a tiny profile's few repetitions and crash trials carry no verdict.
  static var exampleExits: Set<Int32> { [0, 7] }
}

extension ABCommand: LongRunning {
  static var example: [String] {
    [
      "ab", "--baseline-binary", "{BIN}", "--current-binary", "{BIN}", "--scenario", "{SCENARIO}", "--rounds",
      "2",
      "--allow-underpowered", "--out", "{OUT}", "--workdir", "{WORK}",
    ]
  }
  static var output: OutputShape { .folder }
}

extension OverheadCommand: LongRunning {
  static var example: [String] {
    [
      "overhead", "--count", "{SIZE}", "--stored", "{SIZE}", "--reps", "6", "--operation", "lookup", "--out",
      "{OUT}", "--workdir", "{WORK}",
    ]
  }
  static var output: OutputShape { .file }
  /// 2: over the goal (a debug build's Swift side is not optimized).
  static var exampleExits: Set<Int32> { [0, 2] }
}

extension CompareCommand: Exemplified {
  static var example: [String] { ["compare", "{RUN}", "{RUN}", "--allow-underpowered", "--csv", "{OUT}"] }
  static var output: OutputShape { .file }
}

extension ExportCommand: Exemplified {
  static var example: [String] { ["export", "{RUN}", "--format", "bmf", "--out", "{OUT}"] }
  static var output: OutputShape { .file }
}

extension ReportCommand: Exemplified {
  static var example: [String] { ["report", "{RUN}"] }
  static var output: OutputShape { .none }
}

extension ListCommand: Exemplified {
  static var example: [String] { ["list", "--json"] }
  static var output: OutputShape { .none }
}

extension ColumnsCommand: Exemplified {
  static var example: [String] { ["columns", "--json"] }
  static var output: OutputShape { .none }
}

extension VerifyStoreCommand: Exemplified {
  static var example: [String] {
    ["verify-store", "--backend", SQLiteBackend.descriptor.name, "--workdir", "{WORK}", "{STORE}"]
  }
  static var output: OutputShape { .none }
}

extension HistoryCommand.Add: Exemplified {
  static var example: [String] { ["history", "add", "--db", "{OUT}", "{RUN}"] }
  static var output: OutputShape { .file }
}

extension HistoryCommand.Check: Exemplified {
  static var example: [String] { ["history", "check", "--db", "{DB}"] }
  static var output: OutputShape { .none }
}

extension HistoryCommand.HTML: Exemplified {
  static var example: [String] { ["history", "html", "--db", "{DB}", "{OUT}"] }
  static var output: OutputShape { .folder }
}
