import ArgumentParser
import Foundation
import StoreBenchAnalysis
import StoreBenchBackends
import StoreBenchCore
import StoreBenchHistory

/// `storebench history add|check|html`: results across commits.
struct HistoryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history",
    abstract: "Keep results across commits: add runs, find steps and check the newest commit, draw the trend page.",
    discussion: """
      The history is an SQLite database (results/history.sqlite unless --db). Rows are compared only with rows \
      of the same machine, scenario hash, parameters and dataset fingerprint. docs/COMPARING.md has the recipes.
      """,
    subcommands: [Add.self, Check.self, HTML.self]
  )

  struct Database: ParsableArguments {
    @Option(help: "The history database.") var db = "results/history.sqlite"

    /// Opens the history; only `add` creates one.
    func open(create: Bool = false) throws -> HistoryDatabase { try HistoryDatabase(path: db, create: create) }
  }

  struct Add: ParsableCommand, HistorySubcommand {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Record finished runs (their identity, every summary and sample row, crash results).",
      discussion: """
        Adding a run that is already there changes nothing and says so. An interrupted run, or one with \
        failed rows, is refused unless --allow-partial (then it is stored marked partial). Every directory is \
        read and checked before any is added. Several adds may run at once.

        Runs form one series only on one machine: by default the same host, CPU, cores, memory, kernel and \
        file system. CI runners whose host name changes with every job never match that way; name the kind \
        of machine instead (--machine, or STOREBENCH_MACHINE), and give each kind its own name.
        """
    )
    @OptionGroup var database: Database
    @Flag(help: "Add interrupted runs and runs with failed rows, marked partial.") var allowPartial = false
    @Option(
      help: ArgumentHelp(
        "Name the machine the runs were measured on; runs of one name form one series whatever "
          + "their host (default: $STOREBENCH_MACHINE; without either, the host, CPU, cores, memory, "
          + "kernel and file system).", valueName: "name"))
    var machine: String?

    /// The name given with --machine, else STOREBENCH_MACHINE's (an empty variable names nothing).
    var machineName: String? {
      machine ?? ProcessInfo.processInfo.environment["STOREBENCH_MACHINE"].flatMap { $0.isEmpty ? nil : $0 }
    }
    @Argument(help: "Run directories (summary.csv, samples.csv, environment.json).") var runDirectories: [String]

    func run() throws {
      let records = try failing(.badInput) { () throws -> [RunRecord] in
        let records = try runDirectories.map {
          try RunRecord(
            directory: $0, machineName: machineName, commitTime: Git.commitTime, branch: Git.branch,
            columns: CommandEnvironment.current.columns)
        }
        if !allowPartial, let partial = records.first(where: { $0.partialReason != nil }) {
          throw HistoryError(
            .partialRun,
            "\(partial.source): \(partial.partialReason!); nothing added "
              + "(--allow-partial adds it, marked partial)")
        }
        return records
      }
      let history = try failing(.failure) { try database.open(create: true) }
      defer { try? history.close() }
      for record in records {
        let outcome = try failing(.failure) { try history.add(record, allowPartial: allowPartial) }
        let what =
          "\(record.source) (commit \(record.identity.commit.prefix(9))\(record.identity.dirty ? "+dirty" : ""), "
          + (record.identity.machineName.map { "machine \($0), " } ?? "")
          + "scenario \(record.identity.scenarioName), \(record.summary.count) rows, \(record.samples.count) samples"
          + (record.durability.isEmpty ? "" : ", \(record.durability.count) crash results") + ")"
        switch outcome {
        case .added(let run):
          print("added run \(run): \(what)" + (record.partialReason.map { " — partial: \($0)" } ?? ""))
        case .alreadyPresent(let run): print("already in the history as run \(run), nothing changed: \(what)")
        }
      }
      let counts = try failing(.failure) { try history.counts() }
      print(
        "\(database.db): \(counts.runs) runs, \(counts.rows) rows, \(counts.samples) samples, \(counts.crashResults) crash results"
      )
    }
  }

  struct Check: ParsableCommand, HistorySubcommand {
    static let configuration = CommandConfiguration(
      commandName: "check",
      abstract: "Find the steps in every row's series and test the newest commit (exit 2 on a regression).",
      discussion: """
        Steps: E-Divisive means over the log of each row's medians and counts per operation, with a permutation \
        test. The newest commit: against the runs since the last step, with the runs' own repetitions and the \
        drift between runs; Benjamini–Hochberg over all rows. Rows with too little history are named, not \
        passed. Exit 0 no regression, 2 a regression, 1 the history cannot be read.
        """
    )
    @OptionGroup var database: Database
    @Option(help: "The smallest step or change reported, as a fraction or percentage.") var minChange = Fraction(
      0.05)
    @Option(help: "Earlier runs at the current level the newest commit needs to be tested.") var minHistory = 5
    @OptionGroup var accepted: AcceptedChangesOption
    @OptionGroup var page: SummaryOptions

    func run() throws {
      let inputs = [URL(fileURLWithPath: database.db)] + accepted.inputs
      try page.checkTarget(inputs: inputs, command: "history check")
      let acceptedChanges = try failing(.badInput) { try accepted.read() }
      let history = try failing(.failure) { try database.open() }
      defer { try? history.close() }
      var check = HistoryCheck()
      check.minChange = minChange.value
      check.minHistory = max(2, minHistory)
      let (runs, series) = try failing(.failure) { try HistoryCommand.series(history) }
      guard !runs.isEmpty else {
        print("\(database.db): no runs yet (storebench history add RUN_DIR adds one); nothing to check")
        try page.write(inputs: inputs, command: "history check") { _ in
          "**storebench history check: no runs yet** (nothing to check)\n"
        }
        return
      }
      var result = check.check(series) { point in
        (try? history.sampleTimes(run: point.run.id, rowKey: point.rowKey)) ?? []
      }
      if let acceptedChanges { result = result.accepting(acceptedChanges) }
      try page.write(inputs: inputs, command: "history check") {
        result.summary(fullReport: $0).escapingControlCharacters(keepingNewlines: true)
      }
      // Host names and paths come from run folders: control characters are shown, never sent to the terminal.
      print(
        result.text(runs: runs, check: check).escapingControlCharacters(keepingNewlines: true), terminator: "")
      if !result.regressions.isEmpty { throw ExitCode(Exit.regression) }
    }
  }

  struct HTML: ParsableCommand, HistorySubcommand {
    static let configuration = CommandConfiguration(
      commandName: "html",
      abstract:
        "Write the trend page: one chart per workload, a line per strategy over the commits, steps marked.",
      discussion: """
        Writes OUT_DIR/index.html, a static page with no scripts and no network. OUT_DIR must be new or empty; \
        --force replaces what storebench wrote in a previous trend page folder (its manifest; a folder from \
        before manifests only when its index.html is storebench's page). scripts/history-page also screenshots it.
        """
    )
    @OptionGroup var database: Database
    @Flag(help: "Overwrite OUT_DIR's index.html when it is a previous trend page folder.") var force = false
    @Argument(help: "The folder for index.html.") var outDirectory: String

    func run() throws {
      let out = URL(fileURLWithPath: outDirectory, isDirectory: true)
      try failing(.badInput) { try RunOutput.checkPath(out.path, option: "OUT_DIR") }
      // The history first: a missing or foreign database leaves no folder behind.
      let history = try failing(.failure) { try database.open() }
      defer { try? history.close() }
      let claim = try failing(.badInput) {
        try RunOutput(
          out, existing: force ? .replace : .refuse, kind: .page, inputs: [URL(fileURLWithPath: database.db)],
          option: "OUT_DIR")
      }
      defer { claim.release() }
      let page: String
      let runCount: Int
      let charts: Int
      let steps: Int
      do {
        (page, runCount, charts, steps) = try render(history)
      } catch {
        claim.releaseRemovingIfEmpty()
        throw CommandFailure(
          exit: Exit.for(error, fallback: .failure), message: "storebench history html: \(error)")
      }
      try failing(.failure) {
        try claim.removePrevious()
        try claim.write(Data(page.utf8), name: "index.html")
      }
      print(
        "wrote \(out.appendingPathComponent("index.html").path): \(runCount) runs, \(charts) workload charts, "
          + "\(steps) step\(steps == 1 ? "" : "s")")
    }

    /// The page's HTML, the number of runs, workload charts and steps.
    private func render(_ history: HistoryDatabase) throws -> (String, Int, Int, Int) {
      let (runs, series, rows) = try HistoryCommand.seriesAndRows(history)
      let result = HistoryCheck().check(series) { point in
        (try? history.sampleTimes(run: point.run.id, rowKey: point.rowKey)) ?? []
      }
      var classes: [String: (durability: String, measured: Bool)] = [:]
      let byRun = try history.durabilityClasses()
      let registry = CommandEnvironment.current.registry()
      let order = Dictionary(uniqueKeysWithValues: runs.enumerated().map { ($0.element.id, $0.offset) })
      // The declared class from the rows first (every run has it), then the report's classes, measured where
      // crash trials ran; oldest run first, so the newest word wins.
      for row in rows.sorted(by: { order[$0.run] ?? 0 < order[$1.run] ?? 0 }) {
        guard let declared = row.cells[.declaredDurability], !declared.isEmpty else { continue }
        let variant = registry.currentVariantText(backend: row.key.backend, variant: row.key.variant)
        classes["\(row.key.backend) [\(variant)]"] = (declared, false)
      }
      for run in runs {  // oldest first: the newest run's class wins
        for (strategy, value) in byRun[run.id] ?? [:] {
          let (backend, variant) = BackendRegistry.parts(ofStrategy: strategy)
          classes["\(backend) [\(registry.currentVariantText(backend: backend, variant: variant))]"] = value
        }
      }
      let page = TrendPage(series: series, runs: runs, result: result, classes: classes).html()
      return (
        page, runs.count, Set(series.filter { $0.key.metric == .time }.map(\.key.workload)).count,
        result.steps.count
      )
    }
  }

  /// The history's runs and series, variants named as today's binary names them.
  static func series(_ history: HistoryDatabase) throws -> ([HistoryRun], [HistorySeries]) {
    let (runs, series, _) = try seriesAndRows(history)
    return (runs, series)
  }

  static func seriesAndRows(_ history: HistoryDatabase) throws -> ([HistoryRun], [HistorySeries], [HistoryRow]) {
    let runs = try history.runs()
    let registry = CommandEnvironment.current.registry()
    let rows = try history.okRows()
    let series = HistorySeries.build(runs: runs, rows: rows) {
      registry.currentVariantText(backend: $0, variant: $1)
    }
    return (runs, series, rows)
  }
}

/// What git says about a commit, asked in the current directory (nil when git or the commit is not there).
enum Git {
  @Sendable static func commitTime(_ commit: String) -> Double? {
    guard commit.allSatisfy(\.isHexDigit), let text = run(["show", "-s", "--format=%ct", commit]) else {
      return nil
    }
    return Double(text)
  }

  /// The current branch, when `commit` is its HEAD.
  @Sendable static func branch(_ commit: String) -> String? {
    guard run(["rev-parse", "HEAD"]) == commit, let name = run(["rev-parse", "--abbrev-ref", "HEAD"]),
      name != "HEAD"
    else { return nil }
    return name
  }

  private static func run(_ arguments: [String]) -> String? {
    MachineFacts.run(["git"] + arguments)?.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
