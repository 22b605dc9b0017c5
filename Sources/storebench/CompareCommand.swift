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
        throw ExitCode(Self.compare(baseline: baseline, current: current, options: try judging.comparisonOptions(),
                                    csv: judging.csv, failOnImprovement: judging.failOnImprovement))
    }

    /// Runs a comparison, prints it, and returns the exit code (shared with `ab`).
    static func compare(baseline: String, current: String, options: Comparison.Options, csv: String?,
                        failOnImprovement: Bool) -> Int32 {
        let comparison: Comparison
        do {
            comparison = Comparison(baseline: try SampleTable(path: baseline), current: try SampleTable(path: current),
                                    options: options)
            if let csv { try AtomicFile.write(CompareReport.csv(comparison), to: URL(fileURLWithPath: csv)) }
        } catch {
            printError("error: \(error)")
            return 1
        }
        print(CompareReport.markdown(comparison, options: options), terminator: "")
        for warning in comparison.warnings { printError("warning: \(warning)") }
        if comparison.hasRegression { return 2 }
        if failOnImprovement && comparison.hasImprovement { return 4 }
        return 0
    }
}

/// How `compare` and `ab` judge differences.
struct CompareOptions: ParsableArguments {
    @Option(name: .customLong("metric"), help: "Metric to judge (repeatable; default: wall_s, store_bytes, ops).")
    var metrics: [String] = []
    @Option(help: "Relative change that matters, e.g. 5% or 0.05.") var threshold = "5%"
    @Option(help: "Significance level of the Mann-Whitney test.") var alpha = 0.01
    @Option(help: "Threshold of the deterministic metrics, e.g. 1% (0 = exact).") var deterministicThreshold = "1%"
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
        _ = try comparisonOptions()
    }

    /// "5%" → 0.05, "0.05" → 0.05.
    static func fraction(_ text: String, _ option: String) throws -> Double {
        let isPercent = text.hasSuffix("%")
        guard let value = Double(isPercent ? String(text.dropLast()) : text), value.isFinite, value >= 0 else {
            throw ValidationError("\(option) must be a non-negative number or percentage, got '\(text)'")
        }
        return isPercent ? value / 100 : value
    }

    func comparisonOptions() throws -> Comparison.Options {
        var options = Comparison.Options()
        if !metrics.isEmpty { options.metrics = metrics.compactMap(Comparison.Metric.named) }
        options.threshold = try Self.fraction(threshold, "--threshold")
        options.deterministicThreshold = try Self.fraction(deterministicThreshold, "--deterministic-threshold")
        options.alpha = alpha
        options.resamples = resamples
        options.seed = bootstrapSeed
        return options
    }
}
