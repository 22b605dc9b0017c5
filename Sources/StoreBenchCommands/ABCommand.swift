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
      docs/COMPARING.md gives the rounds a slowdown of a given size needs).
      """
  )

  @Option(help: "The baseline storebench binary (A).") var baselineBinary: String
  @Option(help: "The current storebench binary (B).") var currentBinary: String
  @Option(help: "The scenario file.") var scenario = "scenarios/quick.yaml"
  @Option(help: "Rounds (each: a pass of --reps-per-round repetitions per row with each binary).") var rounds = 20
  @Option(help: "Measured repetitions per row in each round's pass; the round's value is their median.")
  var repsPerRound = 1
  @Option(help: "Warm-up repetitions inside each round's run.") var warmup = 0
  @Option(help: "Where the rounds and merged samples go (default: a new temporary directory).") var out: String?
  @OptionGroup var workdir: WorkDirectoryOption
  @OptionGroup var judging: CompareOptions

  func validate() throws {
    guard (2...1000).contains(rounds) else { throw ValidationError("--rounds must be in 2...1000") }
    guard (1...100).contains(repsPerRound) else { throw ValidationError("--reps-per-round must be in 1...100") }
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
    let claim = try failing(.badInput) { () throws -> RunOutput in
      let path =
        out
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("storebench-ab-\(UUID().uuidString)")
        .path
      let claim = try RunOutput(
        URL(fileURLWithPath: path, isDirectory: true), existing: .refuse, kind: .run,
        inputs: [URL(fileURLWithPath: scenario)])
      try claim.record(["rounds", "baseline", "current"])
      return claim
    }
    defer { claim.release() }
    let output = claim.url
    let interrupt = InterruptRequest.install()
    defer { interrupt.uninstall() }
    interrupt.addCleanup(claim.emergencyCleanup)
    let sides = [("baseline", baselineBinary), ("current", currentBinary)]
    var merged: [String: ABMerge] = [:]
    for round in 1...rounds {
      for (name, binary) in round % 2 == 1 ? sides : sides.reversed() {
        let runDirectory = output.appendingPathComponent("rounds/\(name)-\(round)")
        printError("[ab round \(round)/\(rounds)] \(name): \(binary)")
        var arguments = [
          "run", "--scenario", scenario, "--reps", String(repsPerRound), "--warmup", String(warmup),
          "--out", runDirectory.path,
        ]
        if let workdir = workdir.workdir { arguments += ["--workdir", workdir] }
        let status = try Self.execute(binary, arguments, interrupt: interrupt)
        if interrupt.signal != nil {
          printError(
            "interrupted by \(interrupt.signalName) in round \(round); the rounds so far are in \(output.path)/rounds"
          )
          throw ExitCode(interrupt.exit)
        }
        guard status == 0 || status == 1 else {
          throw CommandFailure(
            exit: .failure, message: "storebench ab: \(binary) exited \(status) in round \(round); stopping"
          )
        }
        try failing(.failure) {
          try merged[name, default: ABMerge()].add(runDirectory, round: round, perRound: repsPerRound)
        }
      }
    }
    for (name, merge) in merged {
      try failing(.failure) { try merge.write(to: output.appendingPathComponent(name)) }
    }
    printError("merged samples: \(output.path)/baseline and \(output.path)/current")
    throw ExitCode(
      CompareCommand.compare(
        baseline: output.appendingPathComponent("baseline").path,
        current: output.appendingPathComponent("current").path,
        options: options, csv: judging.csv, failOnImprovement: judging.failOnImprovement,
        allowUnderpowered: judging.allowUnderpowered, json: judging.json,
        page: judging.page))
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
