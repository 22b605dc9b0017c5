import Foundation
import StoreBenchContract

extension DecisionReport {
  /// The sentence a recommendation needs when the timed operation is not the whole cost
  /// (``WorkloadFigures/deferred``): a lazy migration is fast because it defers its work to the first read, so the
  /// first read's medians go beside it (nil: the workload declares no deferred cost, or no row has it).
  func deferredCost(_ workload: Workload) -> String? {
    guard let deferred = figureDeclarations[workload.name]?.deferred, let main = workload.groups.first else {
      return nil
    }
    let reads = main.entries.filter { !$0.isFloor }.compactMap { entry in
      entry.figures[deferred.column].map { (entry, $0) }
    }
    guard !reads.isEmpty else { return nil }
    let listed = reads.sorted { ($0.0.median + $0.1, $0.0.label) < ($1.0.median + $1.1, $1.0.label) }.map {
      entry, read in
      "\(entry.label) \(MarkdownTable.duration(read)) (\(MarkdownTable.duration(entry.median + read)) in all)"
    }
    return " " + deferred.lead + listed.joined(separator: ", ") + "."
  }

  /// "What the workloads report beside time": per workload with figures (``WorkloadFigures``), its main group's
  /// medians of them, introduced by each declaration's sentence in the tables' order.
  public var figures: String {
    var lines: [String] = []
    var intro = "Medians over the repetitions."
    for workload in workloads {
      guard let table = figureTable(workload), let declaration = figureDeclarations[workload.name] else {
        continue
      }
      lines += table + [""]
      let entries = workload.groups.first?.entries ?? []
      if declaration.introducedBy.contains(where: { column in entries.contains { $0.figures[column] != nil } }) {
        intro += " " + declaration.introduction
      }
    }
    guard !lines.isEmpty else { return "" }
    return (["## What the workloads report beside time", "", intro, ""] + lines).joined(separator: "\n") + "\n"
  }

  /// The table of one workload's figures (its heading first), nil when it declares none or no row has any.
  func figureTable(_ workload: Workload) -> [String]? {
    guard let main = workload.groups.first, let declaration = figureDeclarations[workload.name] else { return nil }
    let figures = declaration.figures.filter { figure in main.entries.contains { $0.figures[figure.column] != nil }
    }
    guard !figures.isEmpty else { return nil }
    var lines = [
      "### \(workload.name): \(MarkdownTable.grouped(Double(main.size))) \(declaration.counting)", "",
      "| backend [variant] | median | " + figures.map(\.heading).joined(separator: " | ") + " |",
      "|---|---:|" + String(repeating: "---:|", count: figures.count),
    ]
    for entry in main.entries {
      // A row without the figure the others rest on says so: a sharing row whose extension never worked beside
      // the app has no "0 lost" to show.
      let idle = declaration.exercisedBy.map { entry.figures[$0] == nil } ?? false
      let cells = figures.map { figure in
        idle ? "not exercised" : entry.figures[figure.column].map { format($0, figure.column) } ?? "–"
      }
      lines.append(
        "| \(MarkdownTable.escape(entry.label)) | \(MarkdownTable.duration(entry.median)) | "
          + cells.joined(separator: " | ") + " |")
    }
    return lines
  }

  /// The figures table of the workload called `name` (the `shared` block of docs/BACKENDS.md), nil when it has none.
  public func figureTable(named name: String) -> [String]? {
    workloads.first { $0.name == name }.flatMap(figureTable)
  }

  private func format(_ value: Double, _ column: SampleColumn) -> String {
    switch columns.sample(column)?.unit ?? .ratio {
    case .seconds: MarkdownTable.duration(value)
    case .bytes: MarkdownTable.grouped(value.rounded()) + " B"
    case .count: MarkdownTable.grouped(value)
    case .microseconds: MarkdownTable.duration(value / 1_000_000)
    default: String(format: "%.2f×", value)
    }
  }
}
