import Foundation
import StoreBenchContract

extension DecisionReport {
  /// The counted costs the report shows beside the time, per app operation.
  static let costColumns: [SampleColumn] = [
    .syncsPerOp, .writeCallsPerOp, .writtenBytesPerOp, .writeAmplification,
    .filesCreatedPerOp, .faultsMajorPerOp, .faultsMinorPerOp,
  ]

  /// "What each strategy pays per operation": per workload's main group, in the rankings' order, the counted
  /// syncs, write calls, bytes, write amplification, files created and page faults beside the median time, so the
  /// reason a strategy is slow or unsafe is in view (one sync or more per record; none at all). `notCounted` is
  /// environment.json's reason when the run counted nothing.
  public func costs(notCounted: String?) -> String {
    var lines = ["## What each strategy pays per operation", ""]
    if let notCounted {
      return (lines + ["_Not counted in this run: \(MarkdownTable.escape(notCounted))._", ""]).joined(
        separator: "\n") + "\n"
    }
    lines += [
      "Counted by the kernel over each timed region (every thread and child of the process), median over the "
        + "repetitions, per app operation: **syncs** are durability barriers (fsync, fdatasync, O_DSYNC "
        + "writes, msync); **written** is bytes handed to write calls; **amplification** is what the system "
        + "was made to write (the larger of those bytes and the pages dirtied through a mapping) per byte of "
        + "the records written; **faults** are page faults, major (from disk) + minor. A sync per record is "
        + "what makes autocommit slow; no sync at all is what makes a variant fast and unsafe. "
        + "docs/MEASURING.md says how each is counted and checks them against perf and strace. A count "
        + "every repetition gave identically is exact; one marked `~` differed between repetitions (the "
        + "median is shown).", "",
    ]
    for workload in workloads {
      guard let main = workload.groups.first, main.entries.contains(where: { !$0.costs.isEmpty }) else {
        continue
      }
      lines += [
        "### \(workload.name): \(MarkdownTable.grouped(Double(main.size))) records", "",
        "| backend [variant] | median | syncs/op | write calls/op | written/op | amplification | files created/op | faults/op | durability |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
      ]
      for entry in main.entries {
        func mark(_ column: SampleColumn) -> String { entry.exactCosts.contains(column) ? "" : "~" }
        func cell(_ column: SampleColumn, _ format: String) -> String {
          entry.costs[column].map { mark(column) + String(format: format, $0) } ?? "–"
        }
        let written =
          entry.costs[.writtenBytesPerOp].map {
            mark(.writtenBytesPerOp) + MarkdownTable.grouped($0.rounded()) + " B"
          } ?? "–"
        let faults =
          entry.costs[.faultsMajorPerOp].flatMap { major in
            entry.costs[.faultsMinorPerOp].map {
              mark(.faultsMajorPerOp) + String(format: "%.3g + ", major) + mark(.faultsMinorPerOp)
                + String(format: "%.3g", $0)
            }
          } ?? "–"
        lines.append(
          "| \(MarkdownTable.escape(entry.label)) | \(MarkdownTable.duration(entry.median)) | "
            + "\(cell(.syncsPerOp, "%.3g")) | \(cell(.writeCallsPerOp, "%.3g")) | \(written) | "
            + "\(cell(.writeAmplification, "%.2f")) | \(cell(.filesCreatedPerOp, "%.3g")) | \(faults) | "
            + "\(MarkdownTable.escape(entry.durability.short)) |")
      }
      lines.append("")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
