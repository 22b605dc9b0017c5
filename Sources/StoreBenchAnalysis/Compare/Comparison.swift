import Foundation
import StoreBenchContract
import StoreBenchMeasure

/// Compares two sets of samples row by row and metric by metric, noise-aware.
public struct Comparison {
  /// A metric `compare` can judge: a numeric sample column with a polarity (``ReportColumns``).
  public struct Metric: Sendable {
    public let column: ReportColumn
    /// The sample column the metric reads.
    public let id: SampleColumn
    public var name: String { column.name }
    /// A counted cost (``CountedCost``), total or per operation.
    public var isCount: Bool { id.countedCost != nil }
    /// The counting pass that counts the metric (nil: the timed repetitions do, or it is not a count).
    public var pass: CountingPass? { id.countedCost?.cost.pass }

    /// Deterministic metrics are compared by median with their own threshold, without statistics:
    /// they catch regressions that timing noise hides.
    public var deterministic: Bool { column.deterministic }

    /// Every sample column of `columns` that is a number and has a better direction (a workload's declared
    /// columns included).
    public static func all(in columns: ColumnSet = .standard) -> [Metric] {
      columns.samples
        .filter { $0.isNumeric && $0.polarity != .neither && $0.aggregation != .key }
        .compactMap { column in
          guard case .sample(let id) = column.id else { return nil }
          return Metric(column: column, id: id)
        }
    }

    /// The metric a user named on the command line (`wall_s`), nil when `columns` has none.
    public static func named(_ name: String, in columns: ColumnSet = .standard) -> Metric? {
      all(in: columns).first { $0.name == name }
    }

    /// The metric of the standard sample column `id` (a programming error when the column is no metric).
    public static func of(_ id: SampleColumn) -> Metric {
      guard let metric = all().first(where: { $0.id == id }) else {
        preconditionFailure("\(id) is not a metric")
      }
      return metric
    }
  }

  /// Ordered as reports list them: regressions first.
  public enum Verdict: String, Sendable, Comparable, CaseIterable {
    /// `underpowered`: the difference is not within the threshold, and with this few repetitions a side no
    /// result could be significant. `within drift`: two separate runs differ by more than the threshold, but by
    /// no more than the drift between separate runs allows (gate time with `storebench ab`).
    case regression, underpowered, improvement
    case withinDrift = "within drift"
    case inconclusive, unchanged
    /// A regression or improvement that an entry of the accepted-changes file lets pass, with its reason.
    case accepted

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
    /// How it was judged: "identical repetitions", "paired rounds, signed-rank", "bootstrap + Mann-Whitney",
    /// "bytes".
    public var method = ""
    /// `ab`'s confirm pass: what the first pass said of a finding it flagged (nil: not flagged, or not `ab`).
    public var confirmation: ConfirmPass.FirstLook?
    /// The accepted change that let this regression or improvement pass, with its reason (nil: none matched).
    public var accepted: AcceptedChanges.Match?

    /// The finding's identity: its row and metric.
    public var id: ID { ID(key: key, metric: metric.name) }

    /// A finding's identity across two comparisons of the same rows (`ab`'s first and confirm passes).
    public struct ID: Hashable, Sendable {
      public let key: ComparisonKey
      public let metric: String
    }
  }

  public struct Options: Sendable {
    public var metrics: [Metric] = [
      .of(.wallSeconds), .of(.storeBytes), .of(.ops), .of(.syncsPerOp),
      .of(.writtenBytesPerOp), .of(.filesCreatedPerOp),
    ]
    /// Counts that cannot be compared (a side not counted, counted on another file system or another way) are a
    /// problem (exit 1) rather than a warning: for a gate that must stand on them.
    public var requireCounts = false
    /// Relative change that matters (0.05 = 5%).
    public var threshold = 0.05
    public var alpha = 0.01
    /// The threshold of metrics whose repetitions are identical in both runs (0 = exact).
    public var deterministicThreshold = 0.01
    /// Counts that move between identical runs more than `deterministicThreshold`, with the tolerance stated for
    /// them (``CountTolerance``; `compare --count-tolerance`).
    public var countTolerances: [CountTolerance] = []
    /// The smallest difference in bytes that matters, whatever the ratio (a page or two of a store is noise).
    public var minimumBytes = 65_536.0
    /// Time metrics of two separate runs: the drift between runs to allow beyond the threshold (0.3 = 30%);
    /// nil: measured from the rows themselves (``DriftModel``). Ignored when `paired`.
    public var drift: Double?
    /// The sides are interleaved rounds of one job (`storebench ab`): repetition r of BASELINE ran beside
    /// repetition r of CURRENT. Time is then judged on the paired ratios, with no drift allowance.
    public var paired = false
    /// Paired rounds: how many consecutive repetitions of each side make one round (`ab --reps-per-round`);
    /// each side's round is the median of its repetitions.
    public var repetitionsPerRound = 1
    /// The error the whole gate allows over its paired findings (Bonferroni over rows).
    public var familyAlpha = 0.05
    public var resamples = 2000
    public var seed: UInt64 = 42
    /// Workloads whose counts depend on timing (several processes at once: `shared`): even identical repetitions
    /// of their rows are judged statistically, never as deterministic counts (the workload registry says which,
    /// ``Workload/resultDependsOnTiming``).
    public var timingDependentWorkloads: Set<String> = []
    /// Judge only these findings (nil: every row and metric): `ab`'s confirm pass judges what its first pass flagged,
    /// Bonferroni over them alone.
    public var only: Set<Finding.ID>?
    public init() {}
  }

  public let findings: [Finding]
  public let warnings: [String]
  /// Why the gate cannot pass whatever the numbers say: rows missing, failed or emptied on either side, rows whose
  /// parameters or data differ, no row in common. Listed first in the report; `compare` exits 1 when there is any.
  public let problems: [String]
  /// The drift allowed between the two runs' times (nil: paired, or no time metric).
  public let drift: DriftModel?

  public init(baseline: SampleTable, current: SampleTable, options: Options) {
    var findings: [Finding] = []
    var warnings: [String] = []
    var problems: [String] = []
    let currentLoose = Dictionary(grouping: current.keys, by: \.loose)
    for key in baseline.keys.subtracting(current.keys).sorted() {
      if let others = currentLoose[key.loose] {
        problems.append(
          "not compared: \(key.label) measured other work in current (parameters '\(others[0].parameters)', "
            + "data \(others[0].dataset) vs '\(key.parameters)', data \(key.dataset))")
      } else {
        problems.append("missing in current: \(key.label)")
      }
    }
    let before = baseline.statuses
    let after = current.statuses
    for (key, status) in after.sorted(by: { $0.key < $1.key }) where status == .failed {
      problems.append("failed in current: \(key.label)")
    }
    for (key, status) in before.sorted(by: { $0.key < $1.key }) where status == .failed {
      problems.append("failed in baseline: \(key.label) (nothing to compare it with)")
    }
    for (key, status) in before.sorted(by: { $0.key < $1.key }) where status == .ok {
      if let now = after[key], now != .ok && now != .failed {
        problems.append("ok in baseline, \(now.rawValue) in current: \(key.label)")
      }
    }
    if baseline.keys.intersection(current.keys).isEmpty {
      problems.insert(
        "no row of \(current.source) matches a row of \(baseline.source) "
          + "(renamed scenario, workloads or variants?)", at: 0)
    }
    for key in current.keys.subtracting(baseline.keys).sorted()
    where currentLoose[key.loose] != nil
      && !baseline.keys.contains(where: { $0.loose == key.loose })
    {
      warnings.append("only in current: \(key.label)")
    }
    let drift =
      options.paired
      ? nil
      : DriftModel(
        baseline: baseline.values(of: .wallSeconds), current: current.values(of: .wallSeconds),
        fixed: options.drift)
    var judged: [(ComparisonKey, Metric, [Double], [Double])] = []
    var metrics = options.metrics
    func notCompared(_ reason: String) {
      if options.requireCounts { problems.append(reason) } else { warnings.append(reason) }
    }
    if metrics.contains(where: { $0.isCount && $0.pass == nil }),
      let reason = CostCounters.Availability.incomparability(
        baseline: baseline.counters, current: current.counters)
    {
      metrics.removeAll { $0.isCount && $0.pass == nil }
      notCompared("counts not compared: \(reason)")
    }
    for pass in CountingPass.allCases where metrics.contains(where: { $0.pass == pass }) {
      if let reason = CostCounters.Availability.passIncomparability(
        pass, baseline: baseline.counters, current: current.counters)
      {
        metrics.removeAll { $0.pass == pass }
        notCompared("\(pass.rawValue) counts not compared: \(reason)")
      }
    }
    for metric in metrics {
      let beforeValues = baseline.values(of: metric.id)
      let afterValues = current.values(of: metric.id)
      for key in Set(beforeValues.keys).intersection(after.keys.filter { after[$0] == .ok }).sorted() {
        guard let now = afterValues[key], !now.isEmpty else {
          problems.append("\(metric.name) of \(key.label): values in baseline, none in current")
          continue
        }
        if let only = options.only, !only.contains(Finding.ID(key: key, metric: metric.name)) { continue }
        judged.append((key, metric, beforeValues[key]!, now))
      }
    }
    // Bonferroni over the findings the paired rounds judge (identical repetitions need no statistics).
    let pairedCount = max(judged.filter { !Self.identical($0.2, $0.3) }.count, 1)
    for (key, metric, b, c) in judged {
      // Rounds are paired only for `ab`: two separate runs' repetition numbers mean nothing to each other.
      let pairs =
        options.paired
        ? Self.pairs(
          baseline.byRepetition(metric.id, key), current.byRepetition(metric.id, key),
          perRound: options.repetitionsPerRound) : nil
      findings.append(
        Self.judge(
          key: key, metric: metric, baseline: b, current: c, options: options, drift: drift,
          pairs: pairs, tests: pairedCount))
    }
    if let drift, drift.rows > 0, abs(log(drift.shift)) > log(1 + options.threshold) {
      let factor = String(format: "%.2f×", drift.shift >= 1 ? drift.shift : 1 / drift.shift)
      warnings.append(
        "current is \(factor) \(drift.shift >= 1 ? "slower" : "faster") throughout (the median over "
          + "\(drift.rows) rows): machine drift between the runs, or a change that affects everything; "
          + "only `storebench ab` (interleaved) can tell")
    }
    warnings += EnvironmentDifference.warnings(baseline.environment, current.environment)
    self.findings = findings.sorted { ($0.verdict, $0.key, $0.metric.name) < ($1.verdict, $1.key, $1.metric.name) }
    self.warnings = warnings
    self.problems = problems
    self.drift = drift
  }

  /// A comparison made of parts: `ab`'s first pass with its confirmed findings, accepted changes applied.
  public init(findings: [Finding], warnings: [String], problems: [String], drift: DriftModel?) {
    self.findings = findings.sorted { ($0.verdict, $0.key, $0.metric.name) < ($1.verdict, $1.key, $1.metric.name) }
    self.warnings = warnings
    self.problems = problems
    self.drift = drift
  }

  /// Whether each side's repetitions all gave one value (at least two each: one repetition proves nothing).
  static func identical(_ baseline: [Double], _ current: [Double]) -> Bool {
    baseline.count >= 2 && current.count >= 2 && Set(baseline).count == 1 && Set(current).count == 1
  }

  /// The log ratios log(current/baseline) of the rounds both sides have (`ab`): repetitions 1…k are round 1,
  /// k+1…2k round 2, and so on; each side's round is the median of its repetitions in it.
  static func pairs(_ baseline: [Int: Double], _ current: [Int: Double], perRound: Int = 1) -> [Double] {
    func rounds(_ values: [Int: Double]) -> [Int: Double] {
      Dictionary(grouping: values, by: { ($0.key - 1) / max(perRound, 1) }).compactMapValues {
        Statistics.median($0.map(\.value))
      }
    }
    let b = rounds(baseline)
    let c = rounds(current)
    return b.keys.sorted().compactMap { round in
      guard let before = b[round], let after = c[round], before > 0, after > 0 else { return nil }
      return log(after / before)
    }
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
  static let fields = [
    "storebench_version", "git_commit", "host", "cpu_model", "cores", "kernel",
    "build_configuration", "swift_version", "workdir_filesystem",
  ]

  static func warnings(_ a: [String: Any]?, _ b: [String: Any]?) -> [String] {
    guard let a, let b else {
      return a == nil && b == nil ? [] : ["environment.json is missing on one side: environments not compared"]
    }
    var warnings: [String] = []
    for field in fields where "\(a[field] ?? "-")" != "\(b[field] ?? "-")" {
      warnings.append("environment differs: \(field): \(a[field] ?? "-") vs \(b[field] ?? "-")")
    }
    let libA = a["libraries"] as? [String: String] ?? [:]
    let libB = b["libraries"] as? [String: String] ?? [:]
    for name in Set(libA.keys).union(libB.keys).sorted()
    where !name.hasSuffix("compile_options") && libA[name] != libB[name] {
      warnings.append("environment differs: library \(name): \(libA[name] ?? "-") vs \(libB[name] ?? "-")")
    }
    for name in Set(libA.keys).union(libB.keys).sorted()
    where name.hasSuffix("compile_options") && libA[name] != libB[name] {
      warnings.append("environment differs: \(name.replacingOccurrences(of: "_", with: " "))")
    }
    return warnings
  }
}
