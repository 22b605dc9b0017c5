import ArgumentParser
import Foundation
import StoreBenchCore

struct ABCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ab",
    abstract: "Run two storebench binaries interleaved (A B, B A, …) and compare their samples.",
    discussion: """
      Noise between machines and minutes is larger than most regressions: two builds are only comparable \
      when they run interleaved in one job. Each round runs one scenario pass (--reps-per-round repetitions \
      per row) with each binary, alternating which goes first; the samples of all rounds are merged per side \
      into OUT/baseline and OUT/current and compared as `storebench compare` does, with its exit codes, \
      except that each metric is judged on the paired rounds (the median of round r of A against that of B): \
      the Hodges-Lehmann interval of the signed-rank test on the log ratios, Bonferroni-adjusted over the \
      findings, with no drift allowance. This is the way to gate time in CI (scripts/ci-regress; \
      docs/COMPARING.md gives the rounds a slowdown of a given size needs). Confirm before alarm: the rows whose \
      findings would fail the gate are re-run alone for --confirm-rounds more rounds and judged again on those \
      fresh rounds only (Bonferroni over the flagged findings); only a finding the confirm rounds judge the same \
      way fails the gate (confirmed), the others are cleared, and the report says which. The rounds are in \
      OUT/rounds and OUT/confirm-rounds, merged into OUT/baseline, OUT/current and OUT/confirm/{baseline,current}.
      """
  )

  @Option(help: "The baseline storebench binary (A).") var baselineBinary: String
  @Option(help: "The current storebench binary (B).") var currentBinary: String
  @Option(help: "The scenario file.") var scenario = "scenarios/quick.yaml"
  @Option(help: "Rounds (each: a pass of --reps-per-round repetitions per row with each binary).") var rounds = 20
  @Option(help: "Measured repetitions per row in each round's pass; the round's value is their median.")
  var repsPerRound = 1
  @Option(
    help:
      "Rounds of the confirm pass, which re-runs only the rows the first pass flags (default: --rounds; 0: no confirm pass, the first pass alarms)."
  )
  var confirmRounds: Int?
  @Option(help: "Warm-up repetitions inside each round's run.") var warmup = 0
  @Option(help: "Where the rounds and merged samples go (default: a new temporary directory).") var out: String?
  @OptionGroup var workdir: WorkDirectoryOption
  @OptionGroup var judging: CompareOptions

  func validate() throws {
    guard (2...1000).contains(rounds) else { throw ValidationError("--rounds must be in 2...1000") }
    guard (1...100).contains(repsPerRound) else { throw ValidationError("--reps-per-round must be in 1...100") }
    if let confirmRounds, confirmRounds != 0 && !(2...1000).contains(confirmRounds) {
      throw ValidationError("--confirm-rounds must be 0 (no confirm pass) or in 2...1000")
    }
    for binary in [baselineBinary, currentBinary] where !FileManager.default.isExecutableFile(atPath: binary) {
      throw ValidationError("\(binary) is not an executable file")
    }
  }

  func run() throws {
    var options = judging.comparisonOptions
    options.paired = true
    options.repetitionsPerRound = repsPerRound
    let scenario = try failing(.badInput) { () throws -> String in
      let file = try BundledScenarios.resolve(self.scenario)
      // Checked here first, by this binary's rules (a workload file's SQL included), so a scenario either round
      // would refuse is refused before any round runs or any folder is made (exit 64).
      let environment = CommandEnvironment.current
      _ = try ScenarioParser(backends: environment.registry(), workloads: environment.workloads()).parse(
        file: file)
      return file
    }
    // The accepted changes are read before any round runs: a file compare would refuse costs no rounds.
    _ = try failing(.badInput) { try judging.accepted.read() }
    let claim = try failing(.badInput) { () throws -> RunOutput in
      let path =
        out
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("storebench-ab-\(UUID().uuidString)")
        .path
      let claim = try RunOutput(
        URL(fileURLWithPath: path, isDirectory: true), existing: .refuse, kind: .run,
        inputs: [URL(fileURLWithPath: scenario)])
      try claim.record(["rounds", "baseline", "current", "confirm-rounds", "confirm"])
      return claim
    }
    defer { claim.release() }
    let output = claim.url
    let interrupt = InterruptRequest.install()
    defer { interrupt.uninstall() }
    interrupt.addCleanup(claim.emergencyCleanup)
    let merged = try runRounds(
      1...rounds, scenario: scenario, folder: "rounds", filters: [], output: output, interrupt: interrupt)
    for (name, merge) in merged {
      try failing(.failure) { try merge.write(to: output.appendingPathComponent(name)) }
    }
    printError("merged samples: \(output.path)/baseline and \(output.path)/current")
    let confirmRounds = self.confirmRounds ?? rounds
    let exit = CompareCommand.compare(
      baseline: output.appendingPathComponent("baseline").path,
      current: output.appendingPathComponent("current").path,
      options: options, csv: judging.csv, failOnImprovement: judging.failOnImprovement,
      allowUnderpowered: judging.allowUnderpowered, json: judging.json,
      page: judging.page, accepted: judging.accepted
    ) { first in
      let flagged = ConfirmPass.flagged(first, improvementsFail: judging.failOnImprovement)
      guard confirmRounds > 0, !flagged.isEmpty else { return first }
      return try confirm(
        first, flagged: flagged, rounds: confirmRounds, scenario: scenario, options: options, output: output,
        interrupt: interrupt)
    }
    throw ExitCode(exit)
  }

  /// The confirm pass: the flagged rows alone, `rounds` more paired rounds, judged on those rounds only.
  func confirm(
    _ first: Comparison, flagged: [Comparison.Finding], rounds: Int, scenario: String,
    options: Comparison.Options, output: URL, interrupt: InterruptRequest
  ) throws -> Comparison {
    // `run --filter` keeps a case whose workload and backend[variant] both match: every flagged row is kept (and
    // any row that pairs a flagged workload with a flagged backend, judged by no one).
    let filters = Set(flagged.flatMap { [$0.key.workload, "\($0.key.backend)[\($0.key.variant)]"] }).sorted()
    printError(
      "[ab confirm] the first pass flagged \(flagged.count) finding(s) on "
        + "\(Set(flagged.map(\.key)).count) row(s): \(rounds) fresh rounds of them alone")
    let merged = try runRounds(
      1...rounds, scenario: scenario, folder: "confirm-rounds", filters: filters, output: output,
      interrupt: interrupt)
    let folder = output.appendingPathComponent("confirm")
    var tables: [String: SampleTable] = [:]
    func rowName(_ parts: [String]) -> String { parts.joined(separator: "\u{1F}") }
    let keys = Set(
      flagged.map {
        rowName([$0.key.workload, $0.key.backend, $0.key.variant, String($0.key.size), $0.key.parameters])
      })
    for (name, merge) in merged {
      try merge.write(to: folder.appendingPathComponent(name))
      var table = try SampleTable(
        path: folder.appendingPathComponent(name).path, columns: CommandEnvironment.current.columns)
      table.upgradeVariants(CommandEnvironment.current.registry().currentVariantText)
      try table.requireComplete()
      table.keepRows { keys.contains(rowName([$0.workload, $0.backend, $0.variant, String($0.size), $0.parameters])) }
      tables[name] = table
    }
    var confirmOptions = options
    confirmOptions.only = Set(flagged.map(\.id))
    let again = Comparison(baseline: tables["baseline"]!, current: tables["current"]!, options: confirmOptions)
    let combined = ConfirmPass.combine(
      first: first, flagged: flagged, confirm: again, rounds: self.rounds, confirmRounds: rounds)
    let confirmed = combined.findings.filter { $0.confirmation?.confirmed == true }.count
    printError(
      "[ab confirm] \(confirmed) confirmed, \(flagged.count - confirmed) cleared; merged samples: \(folder.path)")
    return combined
  }

  /// Runs `rounds` of both binaries, alternating which goes first, each round's run in OUT/`folder`, and merges
  /// each side's samples.
  func runRounds(
    _ rounds: ClosedRange<Int>, scenario: String, folder: String, filters: [String], output: URL,
    interrupt: InterruptRequest
  ) throws -> [String: ABMerge] {
    let sides = [("baseline", baselineBinary), ("current", currentBinary)]
    let pass = filters.isEmpty ? "ab round" : "ab confirm round"
    var merged: [String: ABMerge] = [:]
    for round in rounds {
      for (name, binary) in round % 2 == 1 ? sides : sides.reversed() {
        let runDirectory = output.appendingPathComponent("\(folder)/\(name)-\(round)")
        printError("[\(pass) \(round)/\(rounds.upperBound)] \(name): \(binary)")
        var arguments = [
          "run", "--scenario", scenario, "--reps", String(repsPerRound), "--warmup", String(warmup),
          "--out", runDirectory.path,
        ]
        for filter in filters { arguments += ["--filter", filter] }
        if let workdir = workdir.workdir { arguments += ["--workdir", workdir] }
        let status = try Self.execute(binary, arguments, interrupt: interrupt)
        if interrupt.signal != nil {
          throw CommandFailure(
            exit: interrupt.exit,
            message:
              "interrupted by \(interrupt.signalName) in \(pass) \(round); the rounds so far are in \(output.path)/\(folder)"
          )
        }
        guard status == 0 || status == 1 else {
          throw CommandFailure(
            exit: .failure, message: "storebench ab: \(binary) exited \(status) in \(pass) \(round); stopping")
        }
        try failing(.failure) {
          try merged[name, default: ABMerge()].add(runDirectory, round: round, perRound: repsPerRound)
        }
      }
    }
    return merged
  }

  /// Runs a binary with its output passed through (stdout to our stderr: the Markdown tables of the rounds
  /// are progress here), and returns its exit status. The round runs in a process group of its own: a signal to
  /// `ab` (SIGINT or SIGTERM; a terminal's Ctrl-C reaches `ab` alone) is passed on once to the round's whole
  /// group, which stops after its current repetition and writes what it finished.
  static func execute(_ binary: String, _ arguments: [String], interrupt: InterruptRequest) throws -> Int32 {
    let child = try ForwardedChild(executable: URL(fileURLWithPath: binary), arguments: arguments)
    return child.wait { interrupt.signal }
  }
}

/// The samples of one side of an A/B run, merged over rounds: repetition r of round k becomes repetition
/// (k − 1) × perRound + r, so that ``Comparison`` can group them back into rounds.
struct ABMerge {
  var header: [String]?
  var rows: [[String]] = []
  var environment: Data?

  mutating func add(_ runDirectory: URL, round: Int, perRound: Int = 1) throws {
    // Each round's folder is a run like any other: read by the one reader's rules first.
    let folder = try RunFolder(runDirectory.path, columns: CommandEnvironment.current.columns)
    let file = runDirectory.appendingPathComponent("samples.csv")
    let decoded = (header: folder.samples.header, rows: folder.samples.rows)
    if let header, header != decoded.header {
      throw CompareError("\(file.path): header differs from earlier rounds")
    }
    header = decoded.header
    guard let repetition = decoded.header.firstIndex(of: "repetition") else {
      throw CompareError("\(file.path): no repetition column")
    }
    rows += decoded.rows.map { row in
      var row = row
      row[repetition] = String((round - 1) * perRound + (Int(row[repetition]) ?? 1))
      return row
    }
    if environment == nil { environment = folder.environmentData }
  }

  func write(to directory: URL) throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try AtomicFile.write(
      CSVFormat.encode([header ?? CommandEnvironment.current.columns.sampleHeader] + rows),
      to: directory.appendingPathComponent("samples.csv"))
    if let environment {
      try AtomicFile.write(environment, to: directory.appendingPathComponent("environment.json"))
    }
  }
}
