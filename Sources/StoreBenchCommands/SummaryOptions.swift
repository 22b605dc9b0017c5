import ArgumentParser
import Foundation
import StoreBenchCore

/// `--summary FILE` and `--report-link`: the short page a CI step shows (the verdict first, then only what changed or
/// broke), written by `compare`, `ab`, `check` and `history check` through the output funnel.
struct SummaryOptions: ParsableArguments {
  @Option(
    help:
      "Also write the short page a CI step shows (Markdown: the verdict, then only what regressed, improved or broke a budget) to this file."
  )
  var summary: String?
  @Option(help: "The link or path of the full report the summary points to.") var reportLink: String?

  /// Refuses, before any work (exit 64), a summary path storebench would not write: one of `inputs`, a symlink, a
  /// device, a path too long.
  func checkTarget(inputs: [URL], command: String) throws(CommandFailure) {
    guard let summary else { return }
    do {
      try StandaloneOutput.check(URL(fileURLWithPath: summary), inputs: inputs)
    } catch {
      throw CommandFailure(exit: .badInput, message: "storebench \(command): --summary: \(error)")
    }
  }

  /// Writes the page `render` makes from the report link (exit 1 when it cannot be written).
  func write(inputs: [URL], command: String, _ render: (String?) -> String) throws(CommandFailure) {
    guard let summary else { return }
    do {
      try StandaloneOutput.write(Data(render(reportLink).utf8), to: URL(fileURLWithPath: summary), inputs: inputs)
    } catch {
      throw CommandFailure(exit: .failure, message: "storebench \(command): --summary: \(error)")
    }
  }
}
