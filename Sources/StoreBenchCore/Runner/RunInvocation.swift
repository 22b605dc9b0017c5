import Foundation

/// Everything `storebench run` does, with the registries injected so that tests can run it with test doubles:
/// check all input first (``RunFailure/badInput(_:)``, nothing written), claim the output directory, run into a
/// private staging directory and publish the reports together. It returns what happened; the command decides what
/// to print and the exit code. A signal (``interrupt``) publishes the completed rows marked interrupted
/// (``Runner/Result/interrupted``); ``RunRequest/resume`` continues such a run.
public struct RunInvocation {
  public var request: RunRequest
  /// The storebench executable that launch workloads start (the CLI passes itself).
  public var childExecutable: URL?
  /// Set by SIGINT/SIGTERM in the CLI; tests may set it themselves.
  public var interrupt = InterruptRequest()
  /// Receives each repetition's progress (the CLI's progress line); nil: one progress line per repetition.
  public var onRepetition: ((RunProgress) -> Void)?
  /// The scenario to run as a value (a command that builds one, as advise), instead of reading
  /// ``RunRequest/scenarioFile``: that file holds its text (``Scenario/stamped(file:bytes:)``), so the run records
  /// what `--resume` reads back.
  public var scenario: Scenario?
  /// This invocation is a counting pass's child (`storebench count-pass`; ``Runner/Options/countingChild``).
  public var countingChild: CountingPass?
  /// The child's share of the cases (``Runner/Options/countingCases``).
  public var countingCases: [Int]?

  public init(_ request: RunRequest) { self.request = request }

  /// What a run produced.
  public enum Outcome {
    /// `--dry-run`: the plan and a bound on its duration, as text; nothing ran or was written.
    case planned(String)
    /// The run finished or a signal stopped it; its reports are in `output`.
    case finished(Runner.Result, output: URL)
  }

  /// Runs the request. `progress` receives progress lines and notices while it runs (never inside a timed region).
  public func execute(
    backendRegistry: BackendRegistry, workloadRegistry standard: WorkloadRegistry,
    commandLine: [String] = CommandLine.arguments,
    progress: @escaping (String) -> Void
  ) throws(RunFailure) -> Outcome {
    var request = self.request
    let scenario: Scenario
    var workloadRegistry = standard
    let output: RunOutput
    let workURL: URL
    let previous: InterruptedRun?
    let binaryHash = childExecutable.map(InterruptedRun.hash(of:)) ?? ""
    do {
      if let resume = request.resume {
        let found = try InterruptedRun(directory: resume, binaryHash: binaryHash, columns: standard.columns)
        request = request.resuming(found.recorded, in: resume)
        previous = found
      } else {
        previous = nil
      }
      if let given = self.scenario, previous == nil {
        guard request.countingPasses.isEmpty else {
          throw Runner.ResumeError("counting passes (--count) need a scenario file; this run was given a value")
        }
        scenario = given
      } else {
        if let file = request.scenarioFile { request.scenarioFile = try BundledScenarios.resolve(file) }
        scenario = try request.scenario(backendRegistry: backendRegistry, workloadRegistry: standard)
      }
      workloadRegistry = standard.including(scenario)
      if let previous { try previous.check(scenario: scenario) }
      let cases = try RunPlan.check(scenario, workloads: workloadRegistry, limits: request.limits)
      workURL = try OutputLocations.workdir(request.workdir)
      // Bounds before work: memory, disk and time the data needs, measured on a sample here.
      let bound = ResourceBound.estimate(cases, seed: scenario.seed)
      try bound.check(
        file: scenario.file, memoryAvailable: MachineFacts.memoryAvailableBytes,
        diskFree: MachineFacts.freeBytes(at: workURL.path), budgetSeconds: scenario.policy.budgetSeconds)
      if request.dryRun {
        return .planned(DryRun.describe(scenario, cases: cases, workloads: workloadRegistry, bound: bound))
      }
      if let requested = request.output { try RunOutput.checkPath(requested) }
      let outputURL = URL(fileURLWithPath: request.output ?? OutputLocations.defaultOutput(), isDirectory: true)
      output = try RunOutput(
        outputURL, existing: previous != nil ? .resume : (request.force ? .replace : .refuse),
        inputs: (request.scenarioFile.map { [$0] } ?? []).map(URL.init(fileURLWithPath:))
          + Set(scenario.workloadFiles.map(\.path)).sorted().map(URL.init(fileURLWithPath:)))
    } catch {
      throw .badInput(error)
    }
    defer { output.release() }
    for path in WorkDirectory.removeAbandoned(in: workURL) {
      progress("removed \(path): a work directory left by a storebench run that is no longer running")
    }
    let staging: URL
    do {
      staging = try output.stage()
    } catch {
      throw .stopped(error, output: output.url)
    }
    interrupt.addCleanup { try? FileManager.default.removeItem(at: staging) }
    interrupt.addCleanup(output.emergencyCleanup)
    do {
      var options = Runner.Options(
        workdir: workURL, output: staging, commandLine: commandLine, progress: progress)
      options.childExecutable = childExecutable
      options.interrupt = interrupt
      options.onRepetition = onRepetition
      options.resumeFrom = previous?.samples
      options.request = request
      options.binaryHash = binaryHash
      options.counters = request.counters
      options.countingPasses = request.countingPasses
      options.countingChild = countingChild
      options.countingCases = countingCases
      options.keptFills = request.keptFills.map { URL(fileURLWithPath: $0, isDirectory: true) }
      let result = try Runner(backends: backendRegistry, workloads: workloadRegistry).run(
        scenario, options: options)
      try output.publish(staging)
      return .finished(result, output: output.url)
    } catch {
      output.discard(staging)
      throw .stopped(error, output: output.url)
    }
  }
}

/// Why `storebench run` wrote no report.
public enum RunFailure: Error, CustomStringConvertible {
  /// The input is wrong (scenario, flags, output path): nothing ran and nothing was written.
  case badInput(any Error)
  /// The run could not go on; the output directory is as it was.
  case stopped(any Error, output: URL)

  public var description: String {
    switch self {
    case .badInput(let error): "\(error)"
    case .stopped(let error, let output):
      "the run stopped and no report was written (\(output.path) is as it was): \(error)"
    }
  }
}
