import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCommands
import StoreBenchCore
import StoreBenchOverhead

/// The generated blocks' renderer: each block from the committed run its marker names, each run read once however
/// many blocks and pages quote it.
final class PageBlocks {
  let root: URL
  private var folders: [String: RunFolder] = [:]
  private var decisions: [String: DecisionReport] = [:]
  /// The directory of the page being rendered: links are relative to it.
  private var pageDirectory = ""

  init(root: URL) { self.root = root }

  /// The pages with generated blocks: README.md and docs/*.md under `root`, those that exist.
  static func pages(root: URL) -> [URL] {
    let docs = root.appendingPathComponent("docs")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
    return
      ([root.appendingPathComponent("README.md")]
      + names.filter { $0.hasSuffix(".md") }.sorted().map { docs.appendingPathComponent($0) })
      .filter { FileManager.default.fileExists(atPath: $0.path) }
  }

  /// The seed questions the README's table answers: its workloads with their titles (its strategies are the
  /// lines of the file the block's `rows=` names).
  static let seedWorkloads = [
    ("insert", "insert 10,000"), ("mark-read", "mark 10,000 of 20,000 read"),
    ("timeline-cold", "cold launch, 100,000 messages"),
  ]

  /// `text` with every generated block rendered again, and the names of the blocks whose content changed.
  func render(_ text: String, page: URL) throws -> (String, [String]) {
    pageDirectory = page.deletingLastPathComponent().standardizedFileURL.path
    let pattern = try NSRegularExpression(
      pattern: #"(<!-- generated:([a-z-]+)((?: [a-z]+=[^ ]+)*) -->\n)(.*?)(<!-- end generated -->)"#,
      options: [.dotMatchesLineSeparators])
    var output = ""
    var changed: [String] = []
    var cursor = text.startIndex
    for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
      func group(_ index: Int) -> String {
        Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
      }
      let whole = Range(match.range, in: text)!
      let name = group(2)
      let options = Dictionary(
        group(3).split(separator: " ").map { pair -> (String, String) in
          let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
          return (parts[0], parts.count > 1 ? parts[1] : "")
        }
      ) { first, _ in first }
      let body = try block(name, options).joined(separator: "\n") + "\n"
      if body != group(4) { changed.append(name) }
      output += text[cursor..<whole.lowerBound] + group(1) + body + group(5)
      cursor = whole.upperBound
    }
    output += text[cursor...]
    return (output, changed)
  }

  private func folder(_ options: [String: String], _ key: String, _ name: String) throws -> URL {
    guard let path = options[key] else { throw ValidationError("generated:\(name) needs \(key)=PATH") }
    return root.appendingPathComponent(path)
  }

  private func runFolder(_ run: URL) throws -> RunFolder {
    if let known = folders[run.path] { return known }
    let folder = try RunFolder(run.path, columns: CommandEnvironment.current.columns)
    folders[run.path] = folder
    return folder
  }

  private func decision(_ run: URL) throws -> (RunFolder, DecisionReport) {
    let folder = try runFolder(run)
    if let known = decisions[run.path] { return (folder, known) }
    let crashes = try CrashResult.read(files: CrashResult.files(in: run))
    let report = CommandEnvironment.current.decision(table: try SampleTable(folder: folder), crashes: crashes)
    decisions[run.path] = report
    return (folder, report)
  }

  func block(_ name: String, _ options: [String: String]) throws -> [String] {
    switch name {
    case "facts":
      let run = try folder(options, "run", name)
      let (folder, _) = try decision(run)
      let environment = folder.environment
      return [
        "Run \(String((environment.startedAt ?? "?").prefix(10))), the \(environment.buildConfiguration ?? "?") binary of "
          + "commit \(String((environment.gitCommit ?? "?").prefix(7))), \(folder.summary.cells.count) rows; "
          + "\(runTime(run, link: options["run"]!)), on \(environment.cores.map(String.init) ?? "?") cores "
          + "(\(environment.cpuModel ?? "?"), \(environment.workdirFileSystem ?? "?"))."
      ]
    case "method":
      // How the run's rows stopped and how many have intervals, counted from its summary.
      return [RunMethod(summary: try runFolder(try folder(options, "run", name)).summary.cells).sentence]
    case "noise":
      // How one repetition's time varies and what the first one costs, counted from the run's samples.
      let table = try SampleTable(folder: try runFolder(try folder(options, "run", name)))
      return [RunNoise(table: table, minimumRepetitions: MedianInterval.verdictCount).sentence]
    case "seed-table":
      let (_, report) = try decision(try folder(options, "run", name))
      var lines = [
        report.claimsMarker, "",
        "| strategy | durability | " + Self.seedWorkloads.map(\.1).joined(separator: " | ") + " |",
        "|---|---|" + String(repeating: "---:|", count: Self.seedWorkloads.count),
      ]
      let rows = try String(contentsOf: try folder(options, "rows", name), encoding: .utf8)
        .split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
      for label in rows {
        guard let durability = report.durability(label: label) else { continue }
        let cells = Self.seedWorkloads.map { report.timeClaim(label: label, workload: $0.0) ?? "–" }
        lines.append(
          "| \(label) | \(MarkdownTable.escape(durability)) | " + cells.joined(separator: " | ") + " |")
      }
      return lines
    case "figures":
      let (_, report) = try decision(try folder(options, "run", name))
      guard let workload = options["workload"], let table = report.figureTable(named: workload) else {
        throw ValidationError("generated:figures needs workload=NAME of a workload with figures in its run")
      }
      return table.dropFirst(2).map { $0 }
    case "recommendations":
      let (_, report) = try decision(try folder(options, "run", name))
      return Self.seedWorkloads.compactMap { report.recommendation(named: $0.0) }
    case "advice":
      let advice = try String(
        contentsOf: try folder(options, "answer", name).appendingPathComponent("advice.md"), encoding: .utf8)
      let lines = advice.components(separatedBy: "\n")
      guard
        let start = lines.firstIndex(where: {
          $0.hasPrefix("**Recommendation") || $0.hasPrefix("**No strategy")
        })
      else {
        throw ValidationError("generated:advice: \(options["answer"]!)/advice.md has no recommendation")
      }
      return Array(
        lines[start..<min(start + 5, lines.count)].filter {
          !$0.isEmpty && !$0.hasPrefix("#") && !$0.hasPrefix("Need:")
        }
      )
      .joined(separator: "\n\n").components(separatedBy: "\n")
    case "durability":
      let run = try folder(options, "run", name)
      let results = try CrashResult.read(files: CrashResult.files(in: run))
      guard !results.isEmpty else {
        throw ValidationError("generated:durability: \(options["run"]!) has no crash results")
      }
      // Variants as people read them: the settings that decide durability and speed (the report's labels).
      let registry = CommandEnvironment.current.registry()
      let labelled = Dictionary(
        results.map { key, result -> (String, CrashResult) in
          let (backend, variant) = BackendRegistry.parts(ofStrategy: key)
          return (registry.label(backend: backend, variant: variant), result)
        }
      ) { first, _ in first }
      return CrashEvidence.table(labelled)
    case "run-times":
      guard let runs = options["runs"]?.split(separator: ",").map(String.init) else {
        throw ValidationError("generated:run-times needs runs=P,Q")
      }
      var lines = ["| scenario | what it asks | rows | time |", "|---|---|---:|---|"]
      for path in runs {
        let run = root.appendingPathComponent(path)
        let folder = try runFolder(run)
        let scenario = folder.environment.scenarioName ?? "?"
        lines.append(
          "| `\(scenario).yaml` | \(description(of: scenario)) | \(folder.summary.cells.count) | "
            + "\(runTime(run, link: path)), \(String((folder.environment.startedAt ?? "?").prefix(10))) |")
      }
      return lines
    case "overhead":
      // The committed `storebench overhead --out` runs, each with when, where and how, and its table.
      guard let runs = options["runs"]?.split(separator: ",").map(String.init), !runs.isEmpty else {
        throw ValidationError("generated:overhead needs runs=P,Q")
      }
      var lines: [String] = []
      for path in runs {
        let report = try OverheadReport(contentsOf: root.appendingPathComponent(path))
        if !lines.isEmpty { lines.append("") }
        lines += [
          "\(report.provenance) ([output](\(link(path))), `\(report.command)`). "
            + (report.unmet.isEmpty
              ? "Every goal met on the upper end of its interval."
              : "Not met: " + report.unmet.joined(separator: "; ") + "."),
          "", report.markdownTable,
        ]
      }
      return lines
    case "gate-power":
      // scripts/gate-power's committed output: how small a regression each gate caught.
      guard let path = options["power"] else { throw ValidationError("generated:gate-power needs power=PATH") }
      return try GatePowerTable.render(root.appendingPathComponent(path), link: link(path))
    default:
      throw ValidationError("unknown generated block '\(name)'")
    }
  }

  /// `path` (relative to the root) as a link from the page being rendered: `../results/…` from docs/.
  private func link(_ path: String) -> String {
    let rootPath = root.standardizedFileURL.path
    guard pageDirectory.hasPrefix(rootPath), pageDirectory != rootPath else { return path }
    let depth = pageDirectory.dropFirst(rootPath.count).split(separator: "/").count
    return String(repeating: "../", count: depth) + path
  }

  /// "took 21 min 25 s ([run](results/example/))": the quote the claims lint checks against environment.json.
  private func runTime(_ run: URL, link: String) -> String {
    let environment = RunEnvironment.read(run)
    guard let seconds = environment?.duration else { return "run time not recorded" }
    func clock(_ seconds: Double) -> String {
      let whole = Int(seconds.rounded())
      return whole >= 60 ? "\(whole / 60) min \(whole % 60) s" : "\(whole) s"
    }
    // A run with counting passes (`--count`): how much of its time they were.
    let passes = environment?.countingSeconds.map { "; \(clock($0)) of it the counting passes (`--count all`)" } ?? ""
    return "took \(clock(seconds)) ([run](\(self.link(link))/))\(passes)"
  }

  /// The scenario file's `description:` line, else its first comment line.
  private func description(of scenario: String) -> String {
    let file = root.appendingPathComponent("scenarios/\(scenario).yaml")
    let lines = ((try? String(contentsOf: file, encoding: .utf8)) ?? "").components(separatedBy: "\n")
    let text =
      lines.first { $0.hasPrefix("description:") }.map { String($0.dropFirst("description:".count)) }
      ?? lines.first { $0.hasPrefix("# ") }.map { String($0.dropFirst(2)) } ?? ""
    return MarkdownTable.escape(text.trimmingCharacters(in: .whitespaces))
  }
}
