import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore

struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Run a scenario and write samples.csv, summary.csv and environment.json.",
    discussion: """
      Command-line filters narrow the scenario; overrides replace its values. --out must be new or empty \
      (--force replaces the run in it); a second run into the same directory refuses while the first runs. \
      Ctrl-C (SIGINT) or SIGTERM stops after the current repetition and writes the completed rows, marked \
      interrupted; a second Ctrl-C stops at once. Exit codes: 0 every row ok; 1 a row failed or the reports \
      could not be written; 64 bad input (nothing written); 130 interrupted by SIGINT, 143 by SIGTERM \
      (continue with --resume DIR).
      """
  )

  @Option(name: .long, help: "The scenario file (default: scenarios/default.yaml).")
  var scenario: String?

  @Option(
    name: .customLong("backend"),
    help: ArgumentHelp(
      "A backend, optionally with settings: NAME[SETTING=VALUE,…] (repeatable; `storebench list` shows them). With --scenario it narrows the "
        + "scenario to matching variants; without, it makes an ad-hoc run with --workload.", valueName: "spec"))
  var backends: [String] = []

  @Option(
    name: .customLong("workload"), help: "A workload (repeatable): narrows the scenario, or makes an ad-hoc run.")
  var workloads: [String] = []

  @Option(
    name: .customLong("size"), parsing: .singleValue,
    help: ArgumentHelp(
      "Sizes of an ad-hoc run's workloads (their size parameter), e.g. 1000,10000.", valueName: "n,n,…"),
    transform: { text in
      try text.split(separator: ",", omittingEmptySubsequences: false).map { part in
        guard let value = Int(part.trimmingCharacters(in: .whitespaces)), value > 0 else {
          throw ValidationError("--size: '\(part)' is not a positive whole number")
        }
        return value
      }
    })
  var sizeLists: [[Int]] = []

  @Option(
    name: .customLong("filter"),
    help: ArgumentHelp(
      "Keep cases whose backend[variant] or workload matches this glob (* and ?; repeatable).", valueName: "glob")
  )
  var filters: [String] = []

  @Flag(name: .customLong("dry-run"), help: "Print the plan and a bound on its duration; run and write nothing.")
  var dryRun = false

  @Option(
    name: .customLong("param"),
    help: ArgumentHelp(
      "Set a workload parameter for every selected workload that has it (repeatable), e.g. summary_bytes=2000.",
      valueName: "key=value"))
  var parameterAssignments: [ParameterAssignment] = []

  @Flag(
    name: .customLong("no-counters"),
    help: ArgumentHelp(
      "Do not count syncs, system calls, bytes and faults (their columns stay empty; environment.json says so)."))
  var noCounters = false

  @Option(
    name: .customLong("count"),
    help: ArgumentHelp(
      "After the timed repetitions, count exactly in a repetition of every case run by itself: instructions "
        + "(under callgrind), allocations (an interposed allocator), or all. Adds a `counted` row per case "
        + "(instructions_per_op, allocations_per_op, allocated_bytes_per_op, frees_per_op); timed repetitions "
        + "never run under either tool.",
      valueName: "passes"),
    transform: { try CountingPass.parse($0) })
  var countingPasses: [CountingPass]?

  var sizes: [Int] { sizeLists.flatMap { $0 } }

  @OptionGroup var repetitions: RepetitionOptions
  @OptionGroup var seed: SeedOption
  @OptionGroup var output: OutputOptions
  @OptionGroup var workdir: WorkDirectoryOption

  @Option(name: .customLong("max-cases"), help: "Refuse scenarios with more cases than this.")
  var maxCases = RunPlan.Limits().cases

  @Option(
    name: .customLong("max-records"),
    help: "Refuse scenarios whose data sets hold more generated records than this.")
  var maxRecords = RunPlan.Limits().records

  @Flag(help: "No progress on stderr; only warnings, errors and where the results are.")
  var quiet = false

  @Option(
    help: ArgumentHelp(
      "Continue the interrupted run in this directory (same scenario and binary).", valueName: "dir"))
  var resume: String?

  func validate() throws {
    if let repeated = Dictionary(grouping: parameterAssignments, by: \.key).first(where: { $0.value.count > 1 })?
      .key
    {
      throw ValidationError("--param \(repeated) is given twice")
    }
    if let repeated = Dictionary(grouping: sizes, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
      throw ValidationError("--size lists \(repeated) twice; give each size once (as scenario files must)")
    }
    if resume != nil {
      let conflicting = [
        scenario != nil, !backends.isEmpty, !workloads.isEmpty, !sizes.isEmpty, !filters.isEmpty,
        dryRun, !repetitions.isEmpty, seed.seed != nil, output.out != nil, output.force,
        !parameterAssignments.isEmpty,
      ]
      if conflicting.contains(true) {
        throw ValidationError(
          "--resume repeats the interrupted run's own input; give it alone (with --workdir at most)")
      }
    }
  }

  /// The run's request: every option in one value.
  var request: RunRequest {
    var request = RunRequest(scenarioFile: scenario)
    request.backends = backends
    request.workloads = workloads
    request.sizes = sizes
    request.filters = filters
    request.policy = repetitions.overrides
    request.seed = seed.seed
    request.output = output.out
    request.force = output.force
    request.workdir = workdir.workdir
    request.resume = resume
    request.dryRun = dryRun
    request.counters = !noCounters
    request.countingPasses = countingPasses ?? []
    // Keys are unique (validate()).
    request.parameters =
      parameterAssignments.isEmpty
      ? nil
      : Dictionary(uniqueKeysWithValues: parameterAssignments.map { ($0.key, $0.value) })
    request.limits.cases = maxCases
    request.limits.records = maxRecords
    return request
  }

  func run() throws {
    let exit = try Self.execute(request, quiet: quiet) { outcome, interrupt, printer in
      report(outcome, interrupt: interrupt, message: printer.message)
    }
    if exit != .ok { throw ExitCode(exit) }
  }

  /// Runs `request` with progress on standard error and Ctrl-C handling, as `run` does (also for `advise`); a run
  /// that could not start exits 64 (bad input) or 1. `finish` judges what the run produced, with the signal handler
  /// still installed.
  static func execute<T>(
    _ request: RunRequest, scenario: Scenario? = nil, quiet: Bool,
    finish: (RunInvocation.Outcome, InterruptRequest, ProgressPrinter) throws -> T
  ) throws -> T {
    var invocation = RunInvocation(request)
    invocation.scenario = scenario
    invocation.childExecutable = RunningExecutable.url
    invocation.interrupt = InterruptRequest.install()
    defer { invocation.interrupt.uninstall() }
    let printer = ProgressPrinter(quiet: quiet)
    invocation.onRepetition = printer.update
    let outcome: RunInvocation.Outcome
    do {
      outcome = try invocation.execute(
        backendRegistry: CommandEnvironment.current.registry(),
        workloadRegistry: CommandEnvironment.current.workloads(), progress: printer.message)
    } catch {
      printer.message("error: \(error)")
      switch error {
      case .badInput: throw ExitCode(Exit.badInput)
      case .stopped: throw ExitCode(Exit.failure)
      }
    }
    printer.clearStatus()
    return try finish(outcome, invocation.interrupt, printer)
  }

  /// Prints what a run produced (the Markdown summary on stdout; warnings, where the results are and what failed
  /// on stderr) and decides the exit code.
  private func report(_ outcome: RunInvocation.Outcome, interrupt: InterruptRequest, message: (String) -> Void)
    -> Exit
  {
    switch outcome {
    case .planned(let plan):
      print(plan, terminator: "")
      return .ok
    case .finished(let result, let output):
      print(MarkdownTable.render(result.summary), terminator: "")
      for warning in result.manifest.warnings ?? [] { message("WARNING: \(warning)") }
      message("results: \(output.path)")
      if result.interrupted {
        let repetitions = result.summary.reduce(0) { $0 + ($1.statistics?.n ?? 0) + $1.failed }
        message(
          "interrupted by \(interrupt.signalName): \(repetitions) repetitions done (\(result.finishedCases) of "
            + "\(result.totalCases) cases finished) are in \(output.path); continue with: storebench run --resume "
            + output.path)
        return interrupt.signal == SIGTERM ? .terminated : .interrupted
      }
      guard result.allSucceeded else {
        message("error: some rows failed; see the status and error columns of \(output.path)/samples.csv")
        return .failure
      }
      return .ok
    }
  }
}

/// One `--param KEY=VALUE`: a workload parameter and its integer value.
struct ParameterAssignment: ExpressibleByArgument {
  let key: String
  let value: Int

  init?(argument: String) {
    let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2, !parts[0].isEmpty, let value = Int(parts[1]) else { return nil }
    (key, self.value) = (parts[0], value)
  }
}
