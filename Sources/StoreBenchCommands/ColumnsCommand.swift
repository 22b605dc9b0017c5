import ArgumentParser
import Foundation
import StoreBenchCore

/// `storebench columns`: every column of samples.csv and summary.csv, from the one table that defines them and the
/// columns the invocation's workloads declare.
struct ColumnsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "columns",
    abstract:
      "Describe every column of samples.csv and summary.csv (name, unit, which way is better, aggregation).",
    discussion: "With --json: {\"samples\": [...], \"summary\": [...]}, each column with name, unit, polarity, "
      + "aggregation, group, deterministic and description. scripts/plot reads it."
  )

  @Flag(help: "Print JSON for scripts.") var json = false

  struct Table: Encodable {
    let samples: [ReportColumn]
    let summary: [ReportColumn]
  }

  func run() throws {
    let set = CommandEnvironment.current.columns
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      print(
        String(
          decoding: try encoder.encode(Table(samples: set.samples, summary: set.summary)),
          as: UTF8.self))
      return
    }
    for (file, columns) in [("samples.csv", set.samples), ("summary.csv", set.summary)] {
      print("\(file):")
      let width = columns.map(\.name.count).max() ?? 0
      for column in columns {
        let better = column.polarity == .neither ? "" : ", \(column.polarity.rawValue) is better"
        let name = column.name.padding(toLength: width, withPad: " ", startingAt: 0)
        print("  \(name)  [\(column.unit.rawValue)\(better)] \(column.description)")
      }
      print("")
    }
  }
}
