import ArgumentParser
import Foundation
import StoreBenchCore

struct CompareCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compare",
    abstract: "Compare two runs row by row: a noise-aware regression gate for CI.",
    discussion: """
      BASELINE and CURRENT are run directories or samples.csv files; rows are matched by (scenario, \
      workload, backend, variant, size, parameters, dataset fingerprint); rows whose parameters or data \
      differ are named, never compared. For each metric: the ratio of medians CURRENT/BASELINE with a \
      seeded bootstrap 95% confidence interval and a Mann-Whitney U p-value. A regression needs the whole \
      interval beyond the threshold and p < alpha. A metric whose repetitions are identical in both runs is \
      compared by median with its own threshold; bytes must also differ by --minimum-bytes. Two separate \
      runs drift apart on time: time must also exceed the drift measured between them (or --drift), else it \
      is 'within drift'; gate time with `storebench ab` (interleaved, paired rounds), as scripts/ci-regress does.
      Counted costs (syncs_per_op, files_created_per_op, written_bytes_per_op by default) are judged the \
      same way, exactly when their repetitions are identical; counts of runs counted on other file systems, \
      or not counted, are named and left out (--require-counts: exit 1). Crash results are compared too: \
      BASELINE and CURRENT may be two durability*.csv files of `storebench crash`, and run folders holding \
      them are compared on them as well; a variant whose measured class weakens, or that loses acknowledged \
      writes in an image where it lost none, is a regression even if it got faster. \
      The gate never passes on nothing: rows missing, failed, unsupported or emptied on either side, no rows \
      in common, a header-only, cut-short, duplicated or interrupted run all exit 1, listed first.
      Exit codes: 0 no regression; 1 unreadable, incomplete or mismatched input, or rows missing or failed \
      in CURRENT; 2 regression; 4 improvements only (with --fail-on-improvement); 5 underpowered: some row \
      could not show a regression with so few repetitions (unless --allow-underpowered); 64 usage.
      """
  )

  @Argument(help: "The baseline run directory or samples.csv.") var baseline: String
  @Argument(help: "The current run directory or samples.csv.") var current: String
  @OptionGroup var judging: CompareOptions

  func run() throws {
    throw ExitCode(
      Self.compare(
        baseline: baseline, current: current, options: judging.comparisonOptions,
        csv: judging.csv, failOnImprovement: judging.failOnImprovement,
        allowUnderpowered: judging.allowUnderpowered, json: judging.json, filters: judging.filters,
        page: judging.page, accepted: judging.accepted))
  }

  /// Runs a comparison, prints it, and returns the exit code (shared with `ab`). `confirm` (ab's confirm pass) may
  /// replace the first comparison's flagged findings before the accepted changes (`accepted`, a file) are applied.
  static func compare(
    baseline: String, current: String, options: Comparison.Options, csv: String?,
    failOnImprovement: Bool, allowUnderpowered: Bool, json: Bool = false, filters: [String] = [],
    page: SummaryOptions, accepted: AcceptedChangesOption = .init(),
    confirm: ((Comparison) throws -> Comparison)? = nil
  ) -> Exit {
    if CrashInputs.isCrashFile(baseline) || CrashInputs.isCrashFile(current) {
      return compareCrashes(baseline: baseline, current: current, failOnImprovement: failOnImprovement)
    }
    let durability: DurabilityComparison?
    do {
      durability = try CrashInputs.runFolders(baseline, current)
    } catch {
      printError("storebench compare: \(error)")
      return .failure
    }
    var comparison: Comparison
    // The accepted-changes file is an input too: no page or CSV is ever written over it.
    let inputs = SampleTable.inputFiles(baseline) + SampleTable.inputFiles(current) + accepted.inputs
    let acceptedChanges: AcceptedChanges?
    do {
      acceptedChanges = try accepted.read()
    } catch {
      printError("storebench compare: --accepted: \(error)")
      return .badInput
    }
    do {
      if let csv { try StandaloneOutput.check(URL(fileURLWithPath: csv), inputs: inputs) }
    } catch {
      printError("storebench compare: --csv: \(error)")
      return .badInput
    }
    do {
      try page.checkTarget(inputs: inputs, command: "compare")
    } catch {
      printError(error.message)
      return error.exit
    }
    do {
      var before = try SampleTable(path: baseline, columns: CommandEnvironment.current.columns)
      var after = try SampleTable(path: current, columns: CommandEnvironment.current.columns)
      // Variants recorded before a setting existed are named as today (the setting at its default).
      let registry = CommandEnvironment.current.registry()
      before.upgradeVariants(registry.currentVariantText)
      after.upgradeVariants(registry.currentVariantText)
      try before.requireComplete()
      try after.requireComplete()
      if !filters.isEmpty {
        let kept = try Scenario.rows(before.rows.map(\.key) + after.rows.map(\.key), filtered: filters)
        before.keepRows { kept.contains($0) }
        after.keepRows { kept.contains($0) }
      }
      comparison = Comparison(baseline: before, current: after, options: options)
      if let confirm { comparison = try confirm(comparison) }
      if let acceptedChanges {
        comparison = acceptedChanges.apply(
          to: comparison, commit: after.environment?["git_commit"] as? String)
      }
      if let csv { try StandaloneOutput.write(CompareReport.csv(comparison), to: URL(fileURLWithPath: csv)) }
    } catch let failure as CommandFailure {
      printError(failure.message)
      return failure.exit
    } catch {
      printError("storebench compare: \(error)")
      return .failure
    }
    do {
      try page.write(inputs: inputs, command: "compare") {
        CompareReport.summary(
          comparison, durability: durability, underpoweredAllowed: allowUnderpowered, fullReport: $0)
      }
    } catch {
      printError(error.message)
      return error.exit
    }
    // Warnings and problems are in the report (stdout) once; stderr only names the outcome.
    if json {
      guard let data = try? CompareReport.json(comparison, options: options) else { return .failure }
      writeStandardOutput(data)
    } else {
      print(CompareReport.markdown(comparison, options: options), terminator: "")
      if let durability { print(durability.markdown, terminator: "") }
    }
    if !comparison.problems.isEmpty {
      printError(
        "storebench compare: the gate cannot pass: \(comparison.problems.count) problem(s), listed first above")
      return .failure
    }
    if comparison.hasRegression || durability?.hasRegression == true { return .regression }
    if comparison.hasUnderpowered && !allowUnderpowered {
      printError(
        "storebench compare: some rows have too few repetitions to show a regression at alpha "
          + "\(options.alpha) (underpowered); add repetitions or pass --allow-underpowered")
      return .underpowered
    }
    if failOnImprovement && (comparison.hasImprovement || durability?.hasImprovement == true) {
      return .improvement
    }
    return .ok
  }

  /// Two crash result files (`durability*.csv`): the durability gate alone.
  static func compareCrashes(baseline: String, current: String, failOnImprovement: Bool) -> Exit {
    let durability: DurabilityComparison
    do {
      guard CrashInputs.isCrashFile(baseline) && CrashInputs.isCrashFile(current) else {
        throw CompareError(
          "compare two crash result files (durability*.csv of `storebench crash`), or two run folders")
      }
      durability = DurabilityComparison(
        baseline: try CrashResult.read(files: [URL(fileURLWithPath: baseline)]),
        current: try CrashResult.read(files: [URL(fileURLWithPath: current)]))
    } catch {
      printError("storebench compare: \(error)")
      return .failure
    }
    print("### storebench compare: durability\n" + durability.markdown, terminator: "")
    guard durability.compared > 0 else {
      printError("storebench compare: no variant was crash-tested in both files")
      return .failure
    }
    if durability.hasRegression { return .regression }
    return failOnImprovement && durability.hasImprovement ? .improvement : .ok
  }
}

/// Where `compare` finds crash results.
enum CrashInputs {
  /// A crash result file: a CSV file whose header has `storebench crash`'s `acked_batches` (durability*.csv).
  static func isCrashFile(_ path: String) -> Bool {
    guard path.hasSuffix(".csv"), let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    let head = String(decoding: (try? handle.read(upToCount: 4096)) ?? Data(), as: UTF8.self)
    return head.prefix { $0 != "\n" }.split(separator: ",").contains("acked_batches")
  }

  /// The run folders' crash results compared, when both have some; nil when neither has (one side only: an error,
  /// so a gate never passes on durability it did not compare).
  static func runFolders(_ baseline: String, _ current: String) throws -> DurabilityComparison? {
    func folder(_ path: String) -> URL { SampleTable.inputFiles(path)[0].deletingLastPathComponent() }
    let before = CrashResult.files(in: folder(baseline))
    let after = CrashResult.files(in: folder(current))
    if before.isEmpty && after.isEmpty { return nil }
    guard !before.isEmpty && !after.isEmpty else {
      throw CompareError(
        "crash results (durability*.csv) in \(before.isEmpty ? "current" : "baseline") only: "
          + "run `storebench crash --out` for both, or compare the samples of folders without them")
    }
    return DurabilityComparison(
      baseline: try CrashResult.read(files: before), current: try CrashResult.read(files: after))
  }
}

/// How `compare` and `ab` judge differences.
struct CompareOptions: ParsableArguments {
  @Option(
    name: .customLong("metric"),
    help: ArgumentHelp(
      "Metric to judge (repeatable; default: wall_s, store_bytes, ops, syncs_per_op, written_bytes_per_op, files_created_per_op)."
    ))
  var metrics: [String] = []
  @Flag(
    help:
      "Counts that cannot be compared (a side not counted, or counted on another file system) fail the gate (exit 1) instead of a warning."
  )
  var requireCounts = false
  @Option(
    name: .customLong("filter"),
    help: ArgumentHelp(
      "Judge only the rows whose backend[variant] or workload matches this glob (* and ?; repeatable), as "
        + "`run --filter` keeps cases.", valueName: "glob"))
  var filters: [String] = []
  @Option(help: "Relative change that matters, e.g. 5% or 0.05.") var threshold = Fraction(0.05)
  @Option(help: "Significance level of the Mann-Whitney test.") var alpha = 0.01
  @Option(help: "Threshold of metrics whose repetitions are identical in both runs, e.g. 1% (0 = exact).")
  var deterministicThreshold = Fraction(0.01)
  @Option(
    name: .customLong("count-tolerance"),
    help: ArgumentHelp(
      "A stated tolerance for a count that moves between identical runs (repeatable): ROWS:METRIC=PERCENT, ROWS a "
        + "glob over workload or backend[variant] as --filter, e.g. 'lookup:instructions_per_op=3%'.",
      valueName: "rows:metric=percent"),
    transform: { text in
      guard let tolerance = CountTolerance(parsing: text) else {
        throw ValidationError(
          "expected ROWS:METRIC=PERCENT (a percent under 100), e.g. 'lookup:instructions_per_op=3%'")
      }
      return tolerance
    })
  var countTolerances: [CountTolerance] = []
  @Option(help: "The smallest difference in bytes that counts.") var minimumBytes = 65_536
  @Option(
    help: "Separate runs: the time drift to allow beyond the threshold, e.g. 30% (default: measured from the rows)."
  )
  var drift: Fraction?
  @Option(help: "Bootstrap resamples (at least 2000).") var resamples = 2000
  @Option(help: "Seed of the bootstrap.") var bootstrapSeed: UInt64 = 42
  @Option(help: "Also write the findings as CSV to this file.") var csv: String?
  @OptionGroup var accepted: AcceptedChangesOption
  @Flag(help: "Exit 4 when there are improvements and no regression.") var failOnImprovement = false
  @Flag(help: "Print the findings as JSON instead of Markdown.") var json = false
  @Flag(help: "Exit 0 rather than 5 when some rows are underpowered (too few repetitions to show a regression).")
  var allowUnderpowered = false
  @OptionGroup var page: SummaryOptions

  func validate() throws {
    let columns = CommandEnvironment.current.columns
    for name in metrics where Comparison.Metric.named(name, in: columns) == nil {
      throw ValidationError(
        "unknown metric '\(name)'; known: "
          + Comparison.Metric.all(in: columns).map(\.name).joined(separator: ", "))
    }
    for tolerance in countTolerances {
      guard let metric = Comparison.Metric.named(tolerance.metric, in: columns), metric.isCount else {
        throw ValidationError(
          "--count-tolerance '\(tolerance)': '\(tolerance.metric)' is not a counted metric; known: "
            + Comparison.Metric.all(in: columns).filter(\.isCount).map(\.name).joined(separator: ", "))
      }
    }
    guard alpha > 0, alpha <= 1 else { throw ValidationError("--alpha must be in (0, 1]") }
    guard resamples >= 2000 else { throw ValidationError("--resamples must be at least 2000") }
  }

  var comparisonOptions: Comparison.Options {
    var options = Comparison.Options()
    if !metrics.isEmpty {
      options.metrics = metrics.compactMap { name in
        Comparison.Metric.named(name, in: CommandEnvironment.current.columns)
      }
    }
    options.threshold = threshold.value
    options.deterministicThreshold = deterministicThreshold.value
    options.countTolerances = countTolerances
    options.minimumBytes = Double(minimumBytes)
    options.drift = drift?.value
    options.requireCounts = requireCounts
    options.alpha = alpha
    options.resamples = resamples
    options.seed = bootstrapSeed
    options.timingDependentWorkloads = Set(
      CommandEnvironment.current.workloads().workloads.filter(\.resultDependsOnTiming).map(\.name))
    return options
  }
}
