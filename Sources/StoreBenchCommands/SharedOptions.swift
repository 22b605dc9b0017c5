import ArgumentParser
import StoreBenchCore

/// `--workdir`, shared by every command that makes private work directories.
struct WorkDirectoryOption: ParsableArguments {
  @Option(help: "Where private work directories are made; must be a real disk (default: $TMPDIR or /var/tmp).")
  var workdir: String?
}

/// `--seed`, shared by the commands that generate data.
struct SeedOption: ParsableArguments {
  @Option(help: "Seed for the generated data and any random order (default: the scenario's; 42 without one).")
  var seed: UInt64?
}

/// `--out` and `--force`, shared by the commands that write a run directory.
struct OutputOptions: ParsableArguments {
  @Option(help: "Output directory, new or empty (default: results/<UTC timestamp>-<host>[-crash]/).")
  var out: String?

  @Flag(help: "Replace the run already in --out (recognised by its environment.json or durability.environment.json).")
  var force = false

  func validate() throws {
    if let out, out.isEmpty { throw ValidationError("--out is empty; name a directory") }
  }
}

/// The repetition policy's overrides (`--reps`, `--warmup`, `--min-reps`, …), checked once.
struct RepetitionOptions: ParsableArguments {
  @Option(
    help:
      "Exactly this many measured repetitions per row, no early stop (overrides the scenario): the scenario's time cap per row is lifted (a --case-seconds given with it applies; a run budget still ends rows once spent)."
  )
  var reps: Int?

  @Option(name: .customLong("min-reps"), help: "Fewest measured repetitions before a row may stop for precision.")
  var minReps: Int?

  @Option(name: .customLong("max-reps"), help: "Most measured repetitions of a row.")
  var maxReps: Int?

  @Option(
    name: .customLong("target-precision"),
    help: "A row stops once its median's 95% interval is within ± this fraction of the median (0.05: ±5%).")
  var targetPrecision: Double?

  @Option(name: .customLong("case-seconds"), help: "Time cap per row over all its repetitions, in seconds.")
  var caseSeconds: Double?

  @Option(
    name: .customLong("budget"), help: "Seconds the whole run may take before rows stop at one measured repetition."
  )
  var budgetSeconds: Double?

  @Option(help: "Warm-up repetitions per row (overrides the scenario).")
  var warmup: Int?

  /// The overrides as the scenario's policy takes them.
  var overrides: RepetitionPolicy.Overrides {
    var overrides = RepetitionPolicy.Overrides()
    (overrides.repetitions, overrides.warmup, overrides.minimum, overrides.maximum) = (
      reps, warmup, minReps, maxReps
    )
    (overrides.targetPrecision, overrides.caseSeconds, overrides.budgetSeconds) = (
      targetPrecision, caseSeconds, budgetSeconds
    )
    return overrides
  }

  var isEmpty: Bool { overrides == RepetitionPolicy.Overrides() }

  func validate() throws {
    if let reps, !(1...1000).contains(reps) { throw ValidationError("--reps must be in 1...1000, got \(reps)") }
    if let warmup, !(0...100).contains(warmup) {
      throw ValidationError("--warmup must be in 0...100, got \(warmup)")
    }
    if reps != nil, minReps != nil || maxReps != nil {
      throw ValidationError("--reps fixes the count; use it alone or use --min-reps/--max-reps")
    }
    for (flag, value) in [("--min-reps", minReps), ("--max-reps", maxReps)] {
      if let value, !(1...1000).contains(value) {
        throw ValidationError("\(flag) must be in 1...1000, got \(value)")
      }
    }
    if let targetPrecision, !(0.001...0.5).contains(targetPrecision) {
      throw ValidationError("--target-precision must be in 0.001...0.5 (0.05 is ±5%), got \(targetPrecision)")
    }
    for (flag, value) in [("--case-seconds", caseSeconds), ("--budget", budgetSeconds)] {
      if let value, !(value > 0 && value.isFinite) {
        throw ValidationError("\(flag) must be a positive number of seconds")
      }
    }
  }
}
