import Foundation

/// What the user asked `storebench run` for: the one value the command line builds, the runner reads, environment.json
/// records (its input part, under `invocation`) and `--resume` adopts.
public struct RunRequest: Codable, Sendable, Equatable {
  /// The scenario file; nil: an ad-hoc run when backends and workloads are given, else the bundled default.
  public var scenarioFile: String?
  /// Backends, optionally with settings (`sqlite[txn=single]`): narrow the scenario, or make an ad-hoc run.
  public var backends: [String] = []
  public var workloads: [String] = []
  /// Sizes of an ad-hoc run (`--size 1000,10000`).
  public var sizes: [Int] = []
  /// Shell-style patterns over `backend[variant]` and workload names (`--filter`).
  public var filters: [String] = []
  /// Replaces parts of the scenario's repetition policy.
  public var policy = RepetitionPolicy.Overrides()
  /// Replaces the scenario's seed.
  public var seed: UInt64?
  /// Workload parameters set for every selected workload that has them (`--param KEY=VALUE`).
  public var parameters: [String: Int]?

  // Where and how this invocation runs: not part of the recorded input.

  /// The output directory (nil: `results/<UTC timestamp>-<host>/`).
  public var output: String?
  /// Parent of the private work directories (nil: $TMPDIR or /var/tmp).
  public var workdir: String?
  /// Replace the run already in `output` (`--force`).
  public var force = false
  /// The directory of an interrupted run to continue (`--resume`): its recorded input replaces this one's.
  public var resume: String?
  /// Print the plan and its time bound, write nothing (`--dry-run`).
  public var dryRun = false
  /// Caps on cases and generated data (`--max-cases`, `--max-records`).
  public var limits = RunPlan.Limits()
  /// Count syncs, system calls, bytes and faults per repetition (`--no-counters` turns it off).
  public var counters = true
  /// The counting passes to run after the timed repetitions (`--count instructions,allocations`).
  public var countingPasses: [CountingPass] = []
  /// A directory (which must exist) where the run keeps its filled stores, and finds those an earlier run of the
  /// same command kept there (advise's probe hands its fills to its run); nil: they go with the work directory.
  public var keptFills: String?

  public init(scenarioFile: String? = nil) { self.scenarioFile = scenarioFile }

  enum CodingKeys: String, CodingKey {
    case scenarioFile = "scenario_file"
    case backends, workloads, sizes, filters, policy, seed, parameters
  }

  /// This request with the recorded input of `interrupted` (the run `--resume` continues), into its directory.
  func resuming(_ interrupted: RunRequest, in directory: String) -> RunRequest {
    var request = interrupted
    request.output = directory
    request.workdir = workdir
    request.resume = directory
    request.limits = limits
    request.counters = counters
    request.countingPasses = countingPasses
    return request
  }

  /// The scenario this request runs: the file (narrowed by backends and workloads), an ad-hoc one, or the
  /// bundled default; filtered, with the policy and seed overrides applied.
  func scenario(backendRegistry: BackendRegistry, workloadRegistry: WorkloadRegistry) throws -> Scenario {
    let parser = ScenarioParser(backends: backendRegistry, workloads: workloadRegistry)
    var scenario: Scenario
    if let scenarioFile {
      guard sizes.isEmpty else {
        throw ScenarioError(
          file: scenarioFile, path: "--size",
          message: "--size makes an ad-hoc run; with a "
            + "scenario file, list sizes in it (sizes: [...])")
      }
      scenario = try parser.parse(file: scenarioFile).narrowed(backends: backends, workloads: workloads)
    } else if !backends.isEmpty && !workloads.isEmpty {
      scenario = try Scenario.adHoc(
        backends: backends, workloads: workloads, sizes: sizes,
        backendRegistry: backendRegistry, workloadRegistry: workloadRegistry)
    } else {
      guard sizes.isEmpty else {
        throw ScenarioError(
          file: "command line", path: "--size", message: "an ad-hoc run needs --backend and --workload")
      }
      scenario = try parser.parse(file: try BundledScenarios.path("default.yaml"))
        .narrowed(backends: backends, workloads: workloads)
    }
    scenario = try scenario.filtered(filters).overriding(
      parameters ?? [:], workloads: workloadRegistry.including(scenario))
    scenario.policy = try scenario.policy.applying(policy)
    if let seed { scenario.seed = seed }
    return scenario
  }
}
