import ArgumentParser
import Foundation
import StoreBenchCore

/// `storebench check --budgets FILE RUN`: absolute limits on a run's rows, for a CI gate.
struct CheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract:
      "Hold a run's rows to absolute budgets (a latency percentile, syncs or bytes per operation, bytes a day, store size, peak memory).",
    discussion: """
      BUDGETS is a YAML file of limits, each on the rows its workload, backend and variant globs match \
      (docs/COMPARING.md, "Budgets"). A latency, count or bytes per operation is judged on the upper end of its \
      median's 95% interval, or on the median with its n where the row has too few repetitions for one; a size \
      on its largest repetition. Prints every judgement as Markdown; --summary FILE also writes the short page \
      a CI step shows (the verdict, then only the broken budgets). \
      A budget is kept or broken only on 8 repetitions, or on repetitions that all gave the same value; on fewer \
      it is shown as not measured enough. \
      Exit codes: 0 every budget kept; 1 the run folder cannot be used; 2 a budget broken (or a row it covers \
      failed); 7 none broken, but some not measured enough; 64 a bad budgets file, a budget that matches no row or a metric the run did not record.
      """
  )

  @Option(help: "The budgets file (YAML).") var budgets: String
  @Argument(help: "The run directory to judge.") var runDirectory: String
  @OptionGroup var page: SummaryOptions

  func run() throws {
    let budgetsURL = URL(fileURLWithPath: budgets)
    let (check, inputs) = try failing(.badInput) { () throws -> (BudgetCheck, [URL]) in
      let file = try BudgetFile.read(budgets)
      let folder = try RunFolder(runDirectory, columns: CommandEnvironment.current.columns)
      let inputs = folder.files + [budgetsURL]
      try page.checkTarget(inputs: inputs, command: "check")
      return (try BudgetCheck(file, run: folder), inputs)
    }
    // The full report is printed; by default the page links the run directory.
    try page.write(inputs: inputs, command: "check") { check.summary(fullReport: $0 ?? runDirectory) }
    print(check.markdown(), terminator: "")
    if !check.broken.isEmpty { throw ExitCode(.regression) }
    if !check.undecided.isEmpty { throw ExitCode(.noAnswerYet) }
  }
}

extension CheckCommand: Exemplified {
  static var example: [String] { ["check", "--budgets", "{BUDGETS}", "{RUN}", "--summary", "{OUT}"] }
  static var output: OutputShape { .file }
  /// 7: no answer yet — the fixture run's few repetitions decide only budgets whose repetitions agree.
  static var exampleExits: Set<Int32> { [0, 7] }
}
