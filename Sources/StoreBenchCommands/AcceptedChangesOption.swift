import ArgumentParser
import Foundation
import StoreBenchCore

/// `--accepted FILE`: the accepted changes a gate honours (`compare`, `ab`, `history check`; `scripts/count-gate` and
/// `scripts/ci-regress` pass the committed `accepted-changes.yaml`). One option and one reader for every gate.
struct AcceptedChangesOption: ParsableArguments {
  @Option(
    name: .customLong("accepted"),
    help: ArgumentHelp(
      "A file of accepted changes (accepted-changes.yaml): a regression or improvement an entry names passes "
        + "with its reason; an entry that matched nothing is reported.", valueName: "file"))
  var path: String?

  /// The file as an input of the command: no page or CSV is ever written over it.
  var inputs: [URL] { path.map { [URL(fileURLWithPath: $0)] } ?? [] }

  /// The changes, read strictly (nil without the option).
  func read() throws -> AcceptedChanges? {
    try path.map { try AcceptedChangesFile.read($0, columns: CommandEnvironment.current.columns) }
  }
}
