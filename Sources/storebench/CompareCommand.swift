import ArgumentParser
import Foundation
import StoreBenchCore

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two runs row by row: a noise-aware regression gate for CI.",
        discussion: """
            BASELINE and CURRENT are run directories or samples.csv files; rows are matched by (scenario, \
            workload, backend, variant, size). For each metric: the ratio of medians CURRENT/BASELINE with a \
            seeded bootstrap 95% confidence interval and a Mann-Whitney U p-value. A regression needs the whole \
            interval beyond the threshold and p < alpha; deterministic metrics (write_bytes, store_bytes, \
            store_alloc_bytes, ops) are compared by median with their own threshold.
            Exit codes: 0 no regression; 2 regression; 4 improvements only (with --fail-on-improvement); \
            1 unreadable input; 64 usage.
            """
    )

    @Argument(help: "The baseline run directory or samples.csv.") var baseline: String
    @Argument(help: "The current run directory or samples.csv.") var current: String
    @OptionGroup var judging: CompareOptions

    func run() throws {
        throw ExitCode(Self.compare(baseline: baseline, current: current, options: judging.comparisonOptions,
                                    csv: judging.csv, failOnImprovement: judging.failOnImprovement))
    }

    /// Runs a comparison, prints it, and returns the exit code (shared with `ab`).
    static func compare(baseline: String, current: String, options: Comparison.Options, csv: String?,
                        failOnImprovement: Bool) -> Exit {
        let comparison: Comparison
        do {
            comparison = Comparison(baseline: try SampleTable(path: baseline), current: try SampleTable(path: current),
                                    options: options)
            if let csv { try AtomicFile.write(CompareReport.csv(comparison), to: URL(fileURLWithPath: csv)) }
        } catch {
            printError("storebench compare: \(error)")
            return .failure
        }
        print(CompareReport.markdown(comparison, options: options), terminator: "")
        for warning in comparison.warnings { printError("warning: \(warning)") }
        if comparison.hasRegression { return .regression }
        if failOnImprovement && comparison.hasImprovement { return .improvement }
        return .ok
    }
}

/// How `compare` and `ab` judge differences.
struct CompareOptions: ParsableArguments {
    @Option(name: .customLong("metric"), help: "Metric to judge (repeatable; default: wall_s, store_bytes, ops).")
    var metrics: [String] = []
    @Option(help: "Relative change that matters, e.g. 5% or 0.05.") var threshold = Fraction(0.05)
    @Option(help: "Significance level of the Mann-Whitney test.") var alpha = 0.01
    @Option(help: "Threshold of the deterministic metrics, e.g. 1% (0 = exact).") var deterministicThreshold = Fraction(0.01)
    @Option(help: "Bootstrap resamples (at least 2000).") var resamples = 2000
    @Option(help: "Seed of the bootstrap.") var bootstrapSeed: UInt64 = 42
    @Option(help: "Also write the findings as CSV to this file.") var csv: String?
    @Flag(help: "Exit 4 when there are improvements and no regression.") var failOnImprovement = false

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
        options.alpha = alpha
        options.resamples = resamples
        options.seed = bootstrapSeed
        return options
    }
}
