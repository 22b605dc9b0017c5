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
        throw ExitCode(Self.compare(baseline: baseline, current: current, options: judging.comparisonOptions,
                                    csv: judging.csv, failOnImprovement: judging.failOnImprovement,
                                    allowUnderpowered: judging.allowUnderpowered, json: judging.json))
    }

    /// Runs a comparison, prints it, and returns the exit code (shared with `ab`).
    static func compare(baseline: String, current: String, options: Comparison.Options, csv: String?,
                        failOnImprovement: Bool, allowUnderpowered: Bool, json: Bool = false) -> Exit {
        let comparison: Comparison
        if let csv {
            do {
                try AtomicFile.checkTarget(URL(fileURLWithPath: csv), inputs: SampleTable.inputFiles(baseline) + SampleTable.inputFiles(current))
            } catch {
                printError("storebench compare: --csv: \(error)")
                return .badInput
            }
        }
        do {
            let before = try SampleTable(path: baseline), after = try SampleTable(path: current)
            try before.requireComplete()
            try after.requireComplete()
            comparison = Comparison(baseline: before, current: after, options: options)
            if let csv { try AtomicFile.write(CompareReport.csv(comparison), to: URL(fileURLWithPath: csv)) }
        } catch {
            printError("storebench compare: \(error)")
            return .failure
        }
        // Warnings and problems are in the report (stdout) once; stderr only names the outcome.
        if json {
            guard let data = try? CompareReport.json(comparison, options: options) else { return .failure }
            FileHandle.standardOutput.write(data)
        } else {
            print(CompareReport.markdown(comparison, options: options), terminator: "")
        }
        if !comparison.problems.isEmpty {
            printError("storebench compare: the gate cannot pass: \(comparison.problems.count) problem(s), listed first above")
            return .failure
        }
        if comparison.hasRegression { return .regression }
        if comparison.hasUnderpowered && !allowUnderpowered {
            printError("storebench compare: some rows have too few repetitions to show a regression at alpha "
                       + "\(options.alpha) (underpowered); add repetitions or pass --allow-underpowered")
            return .underpowered
        }
        if failOnImprovement && comparison.hasImprovement { return .improvement }
        return .ok
    }
}

/// How `compare` and `ab` judge differences.
struct CompareOptions: ParsableArguments {
    @Option(name: .customLong("metric"), help: ArgumentHelp(
        "Metric to judge (repeatable; default: wall_s, store_bytes, ops, syncs_per_op, written_bytes_per_op, files_created_per_op)."))
    var metrics: [String] = []
    @Flag(help: "Counts that cannot be compared (a side not counted, or counted on another file system) fail the gate (exit 1) instead of a warning.")
    var requireCounts = false
    @Option(help: "Relative change that matters, e.g. 5% or 0.05.") var threshold = Fraction(0.05)
    @Option(help: "Significance level of the Mann-Whitney test.") var alpha = 0.01
    @Option(help: "Threshold of metrics whose repetitions are identical in both runs, e.g. 1% (0 = exact).")
    var deterministicThreshold = Fraction(0.01)
    @Option(help: "The smallest difference in bytes that counts.") var minimumBytes = 65_536
    @Option(help: "Separate runs: the time drift to allow beyond the threshold, e.g. 30% (default: measured from the rows).")
    var drift: Fraction?
    @Option(help: "Bootstrap resamples (at least 2000).") var resamples = 2000
    @Option(help: "Seed of the bootstrap.") var bootstrapSeed: UInt64 = 42
    @Option(help: "Also write the findings as CSV to this file.") var csv: String?
    @Flag(help: "Exit 4 when there are improvements and no regression.") var failOnImprovement = false
    @Flag(help: "Print the findings as JSON instead of Markdown.") var json = false
    @Flag(help: "Exit 0 rather than 5 when some rows are underpowered (too few repetitions to show a regression).")
    var allowUnderpowered = false

    func validate() throws {
        for name in metrics where Comparison.Metric.named(name) == nil {
            throw ValidationError("unknown metric '\(name)'; known: \(Comparison.Metric.all.map(\.name).joined(separator: ", "))")
        }
        guard alpha > 0, alpha <= 1 else { throw ValidationError("--alpha must be in (0, 1]") }
        guard resamples >= 2000 else { throw ValidationError("--resamples must be at least 2000") }
    }

    var comparisonOptions: Comparison.Options {
        var options = Comparison.Options()
        if !metrics.isEmpty { options.metrics = metrics.compactMap(Comparison.Metric.named) }
        options.threshold = threshold.value
        options.deterministicThreshold = deterministicThreshold.value
        options.minimumBytes = Double(minimumBytes)
        options.drift = drift?.value
        options.requireCounts = requireCounts
        options.alpha = alpha
        options.resamples = resamples
        options.seed = bootstrapSeed
        return options
    }
}
