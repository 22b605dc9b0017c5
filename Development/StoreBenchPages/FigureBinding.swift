import Foundation
import StoreBenchCore

/// Figures in hand-written prose bound to the run they come from, and the lint's check that every measured figure
/// beside a run is bound (docs/MEASURING.md, "The words a claim may use").
///
/// A marker names the run folder (relative to the page), the summary row (its workload and the strategy, a backend
/// and settings its variant includes) and the summary column; the figure follows it at once, as the renderer prints
/// it: `<!-- figure run=../results/example workload=insert strategy="lmdb [txn=single sync=full]" column=median_s
/// -->12.3 ms`. The lint re-derives the figure from that run's summary.csv and fails the page when it differs.
///
/// A figure of time (`12.3 ms`, `1 min 4 s`) or a ratio (`1.26×`) on a hand-written page is measured evidence when its
/// line links to a run folder (`results/…`) or sits in a table: there it must be bound by a marker, lie inside a
/// generated block, or be a run time the run-time rule checks ("took 2 min 31 s" with its run's link). Figures in
/// `code` are settings and literals, not measurements.
enum FigureBinding {
  /// `<!-- figure run=PATH workload=W strategy="LABEL" column=C -->VALUE`: groups 1–4 and the text after it.
  static let marker =
    #"<!-- figure run=([^ ]+) workload=([^ ]+) strategy="([^"]+)" column=([a-z0-9_]+) -->([^|<]*)"#
  /// A measured figure: a time with its unit, or a ratio.
  static let figure = #"(?<![\w.,])[0-9][0-9,]*(?:\.[0-9]+)?(?: (?:ns|µs|ms|s|min)(?![\w])|×)"#

  /// The findings of one line: markers whose figure differs from the run's, and unbound figures. `handWritten`:
  /// the page is not one storebench renders whole (report.md and advice.md are re-rendered byte for byte by tests).
  static func check(
    _ line: String, folder: URL, handWritten: Bool, report: (ClaimsLint.Rule, String) -> Void
  ) {
    var unbound = line
    for match in ClaimSyntax.matches(marker, in: line) {
      let expected: String
      do {
        expected = try value(
          run: URL(fileURLWithPath: match[1], relativeTo: folder), workload: match[2], strategy: match[3],
          column: match[4])
      } catch {
        report(.figure, "'\(match[0].prefix(80))': \(error)")
        continue
      }
      if !match[5].hasPrefix(expected) {
        report(
          .figure,
          "'\(match[0].prefix(80))…': \(match[1])'s summary gives \(expected), not '\(match[5].prefix(20))'")
      }
      // The bound figure is checked: the rest of the line is what may still hold unbound ones.
      let markerText = String(match[0].dropLast(match[5].count))
      unbound = unbound.replacingOccurrences(of: markerText + expected, with: "")
    }
    let citesRun = line.contains("](") && line.contains("results/")
    guard handWritten, citesRun || line.hasPrefix("|") else { return }
    // Code spans are settings and literals; a run time next to its run's link is the run-time rule's.
    let prose = ClaimSyntax.replacing(#"`[^`]*`"#, in: unbound, with: "")
    let checked = ClaimSyntax.replacing(#"took (?:[0-9]+ min )?[0-9]+ s\b"#, in: prose, with: "")
    for match in ClaimSyntax.matches(figure, in: checked) {
      report(
        .figure,
        "'\(match[0])': a measured figure beside a run that no marker binds (a generated block, or "
          + "<!-- figure run=… workload=… strategy=\"…\" column=… --> before it)")
    }
  }

  /// The summary cell a marker names, formatted as a page prints it.
  static func value(run: URL, workload: String, strategy: String, column: String) throws -> String {
    let folder = try RunFolder(run.standardizedFileURL.path)
    let label = ClaimSyntax.strategies(in: strategy)
    let rows = folder.summary.cells.filter { row in
      row[.workload] == workload && label.count == 1
        && label[0].names(backend: row[.backend] ?? "", variant: row[.variant] ?? "")
    }
    guard rows.count == 1, let cell = rows[0][column] else {
      throw CompareError(
        "\(rows.count) rows of \(run.lastPathComponent)'s summary are \(workload) on \(strategy)"
          + (rows.count == 1 ? ", and it has no column \(column)" : " (one needed)"))
    }
    guard let number = Double(cell) else { throw CompareError("\(column) is '\(cell)', not a figure") }
    return column.hasSuffix("_s") ? MarkdownTable.duration(number) : MarkdownTable.grouped(number)
  }
}
