import Foundation
import StoreBenchContract
import StoreBenchMeasure

/// Compares two sets of samples row by row and metric by metric, noise-aware.
public struct Comparison {
    /// A metric `compare` can judge: a numeric sample column with a polarity (``ReportColumns``).
    public struct Metric: Sendable {
        public let column: ReportColumn
        public var name: String { column.name }
        /// Deterministic metrics are compared by median with their own threshold, without statistics:
        /// they catch regressions that timing noise hides.
        public var deterministic: Bool { column.deterministic }

        /// Every sample column that is a number and has a better direction.
        public static let all: [Metric] = ReportColumns.samples
            .filter { $0.isNumeric && $0.polarity != .neither && $0.aggregation != .key }
            .map { Metric(column: $0) }

        public static func named(_ name: String) -> Metric? { all.first { $0.name == name } }
    }

    /// Ordered as reports list them: regressions first.
    public enum Verdict: String, Sendable, Comparable, CaseIterable {
        /// `underpowered`: the difference is not within the threshold, and with this few repetitions a side no
        /// result could be significant (``MannWhitney/smallestPValue(_:_:)`` ≥ alpha).
        case regression, underpowered, improvement, inconclusive, unchanged

        public static func < (a: Self, b: Self) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// One judged (row, metric).
    public struct Finding: Sendable {
        public let key: ComparisonKey
        public let metric: Metric
        public let baselineMedian: Double
        public let currentMedian: Double
        public let baselineCount: Int
        public let currentCount: Int
        public let ratio: Double
        public let interval: ClosedRange<Double>?
        public let pValue: Double?
        public let verdict: Verdict
    }

    public struct Options: Sendable {
        public var metrics: [Metric] = [Metric.named("wall_s")!, Metric.named("store_bytes")!, Metric.named("ops")!]
        /// Relative change that matters (0.05 = 5%).
        public var threshold = 0.05
        public var alpha = 0.01
        /// The threshold of deterministic metrics (0 = exact).
        public var deterministicThreshold = 0.01
        public var resamples = 2000
        public var seed: UInt64 = 42
        public init() {}
    }

    public let findings: [Finding]
    public let warnings: [String]
    /// Why the gate cannot pass whatever the numbers say: rows missing or failed on the current side, no row in
    /// common. Listed first in the report; `compare` exits 1 when there is any.
    public let problems: [String]

    public init(baseline: SampleTable, current: SampleTable, options: Options) {
        var findings: [Finding] = []
        var warnings: [String] = []
        var problems: [String] = []
        for key in baseline.keys.subtracting(current.keys).sorted() { problems.append("missing in current: \(key.label)") }
        let failed = Set(current.rows.filter { $0.status == .failed }.map { ComparisonKey($0.key) })
        for key in failed.sorted() { problems.append("failed in current: \(key.label)") }
        if baseline.keys.intersection(current.keys).isEmpty {
            problems.insert("no row of \(current.source) matches a row of \(baseline.source) "
                            + "(renamed scenario, workloads or variants?)", at: 0)
        }
        for key in current.keys.subtracting(baseline.keys).sorted() { warnings.append("only in current: \(key.label)") }
        for metric in options.metrics {
            let before = baseline.values(of: metric.name), after = current.values(of: metric.name)
            for key in Set(before.keys).intersection(after.keys).sorted() {
                findings.append(Self.judge(key: key, metric: metric, baseline: before[key]!, current: after[key]!,
                                           options: options))
            }
        }
        warnings += EnvironmentDifference.warnings(baseline.environment, current.environment)
        self.findings = findings.sorted { ($0.verdict, $0.key, $0.metric.name) < ($1.verdict, $1.key, $1.metric.name) }
        self.warnings = warnings
        self.problems = problems
    }

    static func judge(key: ComparisonKey, metric: Metric, baseline: [Double], current: [Double],
                      options: Options) -> Finding {
        let b = Statistics.median(baseline)!, c = Statistics.median(current)!
        let ratio = b == 0 ? (c == 0 ? 1 : .infinity) : c / b
        let worseWhenLarger = metric.column.polarity == .lowerIsBetter
        func classify(low: Double, high: Double, significant: Bool, threshold: Double) -> Verdict {
            let (worse, better) = worseWhenLarger ? (low > 1 + threshold, high < 1 - threshold)
                : (high < 1 - threshold, low > 1 + threshold)
            if worse && significant { return .regression }
            if better && significant { return .improvement }
            if low >= 1 - threshold && high <= 1 + threshold { return .unchanged }
            return .inconclusive
        }
        if metric.deterministic {
            let verdict = classify(low: ratio, high: ratio, significant: true, threshold: options.deterministicThreshold)
            return Finding(key: key, metric: metric, baselineMedian: b, currentMedian: c, baselineCount: baseline.count,
                           currentCount: current.count, ratio: ratio, interval: nil, pValue: nil, verdict: verdict)
        }
        let seed = options.seed ^ UInt64(truncatingIfNeeded: key.label.hashValueStable)
        let interval = Bootstrap.ratioOfMedians(baseline: baseline, current: current, resamples: options.resamples, seed: seed)
        let test = MannWhitney.test(baseline, current)
        var verdict = Verdict.inconclusive
        if let interval, let test, baseline.count >= 2, current.count >= 2 {
            verdict = classify(low: interval.lowerBound, high: interval.upperBound, significant: test.pValue < options.alpha,
                               threshold: options.threshold)
        }
        if verdict == .inconclusive && MannWhitney.smallestPValue(baseline.count, current.count) >= options.alpha {
            verdict = .underpowered
        }
        return Finding(key: key, metric: metric, baselineMedian: b, currentMedian: c, baselineCount: baseline.count,
                       currentCount: current.count, ratio: ratio, interval: interval, pValue: test?.pValue, verdict: verdict)
    }

    public var hasRegression: Bool { findings.contains { $0.verdict == .regression } }
    public var hasUnderpowered: Bool { findings.contains { $0.verdict == .underpowered } }
    public var hasImprovement: Bool { findings.contains { $0.verdict == .improvement } }
}

extension String {
    /// FNV-1a of the text: a hash that is the same in every process (Swift's `hashValue` is seeded per run).
    var hashValueStable: UInt64 {
        var hash = FNV1a()
        hash.combine(self)
        return hash.value
    }
}

/// Differences between two runs' environments that make a comparison less trustworthy.
enum EnvironmentDifference {
    static let fields = ["storebench_version", "git_commit", "host", "cpu_model", "cores", "kernel",
                         "build_configuration", "swift_version", "workdir_filesystem"]

    static func warnings(_ a: [String: Any]?, _ b: [String: Any]?) -> [String] {
        guard let a, let b else {
            return a == nil && b == nil ? [] : ["environment.json is missing on one side: environments not compared"]
        }
        var warnings: [String] = []
        for field in fields where "\(a[field] ?? "-")" != "\(b[field] ?? "-")" {
            warnings.append("environment differs: \(field): \(a[field] ?? "-") vs \(b[field] ?? "-")")
        }
        let libA = a["libraries"] as? [String: String] ?? [:], libB = b["libraries"] as? [String: String] ?? [:]
        for name in Set(libA.keys).union(libB.keys).sorted() where !name.hasSuffix("compile_options") && libA[name] != libB[name] {
            warnings.append("environment differs: library \(name): \(libA[name] ?? "-") vs \(libB[name] ?? "-")")
        }
        if libA["sqlite_compile_options"] != libB["sqlite_compile_options"] {
            warnings.append("environment differs: SQLite compile options")
        }
        return warnings
    }
}
