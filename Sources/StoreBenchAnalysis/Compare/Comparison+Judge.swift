import Foundation
import StoreBenchContract
import StoreBenchMeasure

extension Comparison {
  /// Judges one (row, metric):
  /// - **identical repetitions** on both sides (every repetition of each run gave the same value): the metric is
  ///   deterministic for this row, and its medians are compared against `deterministicThreshold`;
  /// - **paired rounds** (`ab`): the per-round log ratios current/baseline, with the Hodges–Lehmann interval of the
  ///   signed-rank test (``SignedRank``) at `familyAlpha / tests` (Bonferroni over the gate's findings): a
  ///   regression when the interval excludes 1 and the Hodges–Lehmann estimate exceeds 1 + threshold; no drift
  ///   allowance, since both sides ran side by side;
  /// - **separate runs**: the seeded bootstrap interval of the ratio of medians and a Mann-Whitney test; time
  ///   metrics must also exceed the drift between runs (``DriftModel``), else they are `within drift`.
  /// Bytes must differ by at least `minimumBytes` as well as by the threshold, so 0 → 4,096 B on a read-only row
  /// is judged as 4 KiB, not as an infinite ratio.
  static func judge(
    key: ComparisonKey, metric: Metric, baseline: [Double], current: [Double], options: Options,
    drift: DriftModel?, pairs: [Double]?, tests: Int
  ) -> Finding {
    let b = Statistics.median(baseline)!
    let c = Statistics.median(current)!
    let ratio = b == 0 ? (c == 0 ? 1 : .infinity) : c / b
    let worseWhenLarger = metric.column.polarity == .lowerIsBetter
    let bytesScale: Double? =
      switch metric.column.unit {
      case .bytes: 1
      case .kibibytes: 1024
      default: nil
      }
    // Too small a difference in bytes to matter, whatever the ratio.
    let negligibleBytes = bytesScale.map { abs(c - b) * $0 < options.minimumBytes } ?? false
    let isTime = [.seconds, .microseconds, .perSecond].contains(metric.column.unit)
    func finding(_ verdict: Verdict, interval: ClosedRange<Double>? = nil, p: Double? = nil, method: String)
      -> Finding
    {
      let floored = negligibleBytes && verdict != .underpowered && verdict != .unchanged
      var finding = Finding(
        key: key, metric: metric, baselineMedian: b, currentMedian: c, baselineCount: baseline.count,
        currentCount: current.count, ratio: ratio, interval: interval, pValue: p,
        verdict: floored ? .unchanged : verdict)
      finding.method = floored ? method + ", under the byte floor" : method
      return finding
    }
    func classify(low: Double, high: Double, significant: Bool, threshold: Double) -> Verdict {
      let (worse, better) =
        worseWhenLarger
        ? (low > 1 + threshold, high < 1 - threshold)
        : (high < 1 - threshold, low > 1 + threshold)
      if worse && significant { return .regression }
      if better && significant { return .improvement }
      if low >= 1 - threshold && high <= 1 + threshold { return .unchanged }
      return .inconclusive
    }
    // A count judged exactly is held to ±deterministicThreshold, or to the tolerance stated for its row and metric
    // (a count that moves between identical runs: ``CountTolerance``), named in the method.
    let exact = CountTolerance.threshold(
      for: key, metric: metric.name, in: options.countTolerances, exact: options.deterministicThreshold)
    let stated = exact.stated.map { ", ±\(String(format: "%g", $0.fraction * 100))% stated for \($0.rows)" } ?? ""
    if metric.pass != nil {
      // A counting pass counts each row once, exactly where its work is deterministic: the one count per side is
      // compared against the threshold. A workload whose work depends on timing does other work run to run.
      guard !options.timingDependentWorkloads.contains(key.workload) else {
        return finding(.underpowered, method: "counted once; this workload's work depends on timing")
      }
      return finding(
        classify(low: ratio, high: ratio, significant: true, threshold: exact.fraction),
        method: "counted exactly (\(metric.pass!.rawValue) pass)\(stated)")
    }
    if !options.timingDependentWorkloads.contains(key.workload), identical(baseline, current) {
      return finding(
        classify(low: ratio, high: ratio, significant: true, threshold: exact.fraction),
        method: "identical repetitions\(stated)")
    }
    if let pairs {
      let alpha = options.familyAlpha / Double(max(tests, 1))
      guard let interval = SignedRank.interval(pairs, alpha: alpha) else {
        return finding(
          .underpowered,
          method: "paired rounds: \(pairs.count) too few at alpha \(String(format: "%.2g", alpha))")
      }
      let (low, high, estimate) = (exp(interval.low), exp(interval.high), exp(interval.estimate))
      // A change is claimed when the interval excludes "no change" and its estimate is beyond the threshold
      // (significant and material); "unchanged" still needs the whole interval within the threshold.
      let t = options.threshold
      let slower = low > 1 && estimate > 1 + t
      let faster = high < 1 && estimate < 1 - t
      let verdict: Verdict =
        if worseWhenLarger ? slower : faster {
          .regression
        } else if worseWhenLarger ? faster : slower {
          .improvement
        } else {
          classify(low: low, high: high, significant: false, threshold: t)
        }
      return finding(
        verdict, interval: low...high, p: SignedRank.pValue(pairs),
        method: "paired rounds, signed-rank (estimate \(String(format: "%.2f", estimate))×)")
    }
    let seed = options.seed ^ UInt64(truncatingIfNeeded: key.label.hashValueStable)
    let interval = Bootstrap.ratioOfMedians(
      baseline: baseline, current: current, resamples: options.resamples, seed: seed)
    let test = MannWhitney.test(baseline, current)
    var verdict = Verdict.inconclusive
    if let interval, let test, baseline.count >= 2, current.count >= 2 {
      let significant = test.pValue < options.alpha
      verdict = classify(
        low: interval.lowerBound, high: interval.upperBound, significant: significant,
        threshold: options.threshold)
      if isTime, let drift, verdict == .regression || verdict == .improvement {
        let widened = (1 + options.threshold) * (1 + drift.allowance) - 1
        let beyond = classify(
          low: interval.lowerBound, high: interval.upperBound, significant: significant, threshold: widened)
        if beyond != verdict { verdict = .withinDrift }
      }
    }
    if verdict == .inconclusive && MannWhitney.smallestPValue(baseline.count, current.count) >= options.alpha {
      verdict = .underpowered
    }
    return finding(
      verdict, interval: interval, p: test?.pValue,
      method: isTime && drift != nil
        ? "bootstrap + Mann-Whitney, drift ±\(Int((drift!.allowance * 100).rounded()))%"
        : "bootstrap + Mann-Whitney")
  }
}

/// How much two separate runs drift apart on time, measured from their rows: one run is often slower throughout
/// (the machine, the host, the page cache), and rows wobble around that. The allowance is the common shift plus
/// three robust standard deviations of the rows' log ratios around it (1.4826 × MAD), so that a run-wide drift and
/// the spread rows show between A/A runs do not pass for regressions. A real change of one row stands out beyond it;
/// a change smaller than the drift needs `storebench ab`, which interleaves both builds and needs no allowance.
public struct DriftModel: Sendable {
  /// The relative drift allowed beyond the threshold (0.3: 30%).
  public let allowance: Double
  /// The common shift of current over baseline (median ratio of row medians).
  public let shift: Double
  /// Rows the model was measured on (0 when given).
  public let rows: Int

  init?(baseline: [ComparisonKey: [Double]], current: [ComparisonKey: [Double]], fixed: Double?) {
    if let fixed {
      (allowance, shift, rows) = (fixed, 1, 0)
      return
    }
    let logs = Set(baseline.keys).intersection(current.keys).compactMap { key -> Double? in
      guard let b = Statistics.median(baseline[key]!), let c = Statistics.median(current[key]!), b > 0, c > 0
      else { return nil }
      return log(c / b)
    }
    guard !logs.isEmpty else { return nil }
    let center = Statistics.median(logs)!
    let mad = Statistics.median(logs.map { abs($0 - center) })!
    // With few rows the spread is unknown: at least 10% either way.
    let spread = max(3 * 1.4826 * mad, logs.count < 8 ? 0.1 : 0)
    allowance = exp(abs(center) + spread) - 1
    shift = exp(center)
    rows = logs.count
  }
}

extension SampleTable {
  /// The ok values of `metric` of one row by repetition number (for pairing the rounds of `ab`).
  func byRepetition(_ metric: SampleColumn, _ key: ComparisonKey) -> [Int: Double] {
    var values: [Int: Double] = [:]
    for row in rows where row.status == .ok && row.comparisonKey == key {
      if let value = row.values[metric] { values[row.repetition] = value }
    }
    return values
  }
}
