import ArgumentParser
import Foundation
import StoreBenchCore

/// `storebench record-output DIR NAME…` (hidden): adds names another program writes into one of storebench's output
/// folders — `scripts/plot`'s charts, `scripts/history-page`'s screenshot — to the folder's manifest, so `--force`
/// later removes them as storebench's own.
/// A folder that is not storebench's is refused before the program writes anything.
struct RecordOutputCommand: ParsableCommand {
  static let configuration = CommandConfiguration.internal(
    "record-output",
    abstract: "Internal: record files a helper writes into a storebench output folder (its manifest).")

  @Argument(help: "The output folder (a run, advise or trend page folder).") var folder: String
  @Argument(help: "Names inside it (one level), e.g. charts.") var names: [String]

  func validate() throws {
    for name in names where !OutputManifest.isPlainName(name) {
      throw ValidationError("'\(name)' is not a name inside the folder")
    }
  }

  func run() throws {
    let url = URL(fileURLWithPath: folder, isDirectory: true)
    try failing(.badInput) { try OutputManifest.record(names, in: url) }
  }
}
