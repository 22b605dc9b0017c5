import Foundation
import StoreBenchAnalysis
import StoreBenchContract
import StoreBenchStatistics

/// `storebench history check`: the steps in every series (``EDivisive`` over the log of the values, so a step is a
/// ratio), and the newest commit tested on its own against the history before it.
///
/// The newest test: the baseline is the prior points since the last step before them (at least `minHistory`). Its
/// centre is their median (in log), its spread the drift between runs the history shows (1.4826 × MAD, or the
/// standard deviation when larger, never below `floor`); the newest run's own repetitions give its standard error
/// (1.2533 × sd(log repetitions) / √n). t = (log newest − centre) / √(spread²/k + max(spread, own)²), judged against
/// Student's t with k − 1 degrees of freedom (the spread is estimated from k runs). The one-sided p-values of all
/// tested series pass Benjamini–Hochberg at `falseDiscovery`; a regression also needs the ratio to
/// exceed 1 + `minChange`. A series with fewer prior points says "not enough history", by name.
/// Counts per operation are often 0 (no renames): their series are read as log(value + offset), the offset a
/// hundredth of a count (one byte for bytes), so 0 → 1 rename per operation is a step and 0 → 0.0001 is not.
public struct HistoryCheck: Sendable {
  public var detector = EDivisive()
  /// Steps smaller than this (as a ratio − 1) are not reported, nor is a newest commit that moved less.
  public var minChange = 0.05
  public var minHistory = 5
  public var falseDiscovery = 0.01
  /// The smallest between-run spread assumed (log units): counts have none, and no series is quieter than 1%.
  public var floor = 0.01

  public init() {}

  /// A step: where a new level starts in one series.
  public struct Step: Sendable {
    public var key: HistorySeries.Key
    /// The first run of the new level.
    public var first: HistoryRun
    /// The last run before it.
    public var previous: HistoryRun
    /// After ÷ before (medians of the two levels; counts with the metric's offset, so 0 → 1 has a ratio), with a
    /// 95% bootstrap interval.
    public var ratio: Double
    public var interval: ClosedRange<Double>
    /// The medians of the two levels, as measured.
    public var levels: (before: Double, after: Double)
    public var before: Int
    public var after: Int
  }

  /// The newest commit's verdict on one series.
  public struct Newest: Sendable {
    public enum Verdict: String, Sendable {
      case regression, improvement, unchanged
      case notEnoughHistory = "not enough history"
      /// A regression or improvement an entry of the accepted-changes file lets pass.
      case accepted
    }
    public var key: HistorySeries.Key
    public var run: HistoryRun
    public var verdict: Verdict
    public var ratio: Double?
    public var z: Double?
    public var p: Double?
    public var baseline: Int
    /// The history's level and the newest value, as measured.
    public var levels: (before: Double, after: Double)?
    /// The accepted change that let it pass, and the direction it went (nil: none).
    public var accepted: (match: AcceptedChanges.Match, direction: AcceptedChanges.Direction)?
  }

  public struct Result: Sendable {
    public var steps: [Step]
    public var newest: [Newest]
    /// How many time series of each machine and scenario were long enough to scan for steps: each is tested on its
    /// own at α, so about α of them show a step by chance.
    public var scannedTimeSeries: [String: Int] = [:]
    public var regressions: [Newest] { newest.filter { $0.verdict == .regression } }
    /// The accepted-changes file's entries that matched nothing, said in the text and on the page.
    public var warnings: [String] = []

    /// The result with each regression or improvement of the newest commit that an entry accepts turned
    /// `accepted` (its reason kept); an entry that matched nothing becomes a warning.
    public func accepting(_ changes: AcceptedChanges) -> Result {
      var result = self
      var used: Set<String> = []
      var commit: String?
      for index in result.newest.indices {
        let item = result.newest[index]
        commit = commit ?? item.run.commit
        let direction: AcceptedChanges.Direction? =
          switch item.verdict {
          case .regression: .regression
          case .improvement: .improvement
          default: nil
          }
        guard let direction,
          let entry = changes.match(
            workload: item.key.workload, backend: item.key.backend, variant: item.key.variant,
            metric: item.key.metric.sampleColumn.rawValue, direction: direction, commit: item.run.commit)
        else { continue }
        used.insert(entry.path)
        result.newest[index].verdict = .accepted
        result.newest[index].accepted = (AcceptedChanges.Match(path: entry.path, reason: entry.reason), direction)
      }
      result.warnings += changes.unmatched(used: used, commit: commit)
      return result
    }
  }

  /// Checks every series. `newestSamples` gives the newest run's repetitions of a row (wall times), for its own
  /// error.
  public func check(_ series: [HistorySeries], newestSamples: (HistorySeries.Point) -> [Double] = { _ in [] })
    -> Result
  {
    var steps: [Step] = []
    var newest: [Newest] = []
    var rng = SplitMix64(seed: 0x7374_6570)
    // The newest run of each machine and scenario: the commit under test.
    var latest: [String: HistoryRun] = [:]
    for s in series {
      for point in s.points where latest[s.key.group].map({ $0.order < point.run.order }) ?? true {
        latest[s.key.group] = point.run
      }
    }
    var scanned: [String: Int] = [:]
    let fewest = detector.fewestPointsForAStep
    for s in series {
      if s.key.metric == .time, s.points.count >= fewest { scanned[s.key.group, default: 0] += 1 }
      let offset = s.key.metric.offset
      if s.points.allSatisfy({ $0.value >= 0 && $0.value + offset > 0 }) {
        let logs = s.points.map { log($0.value + offset) }
        let boundaries = detector.changePoints(logs)
        for split in boundaries {
          let before = segment(of: split, in: s.points.count, boundaries: boundaries, side: .before).map {
            s.points[$0].value
          }
          let after = segment(of: split, in: s.points.count, boundaries: boundaries, side: .after).map {
            s.points[$0].value
          }
          let a = before.map { $0 + offset }
          let b = after.map { $0 + offset }
          let ratio = median(b) / median(a)
          guard abs(ratio - 1) >= minChange else { continue }
          steps.append(
            Step(
              key: s.key, first: s.points[split].run, previous: s.points[split - 1].run,
              ratio: ratio, interval: Self.bootstrapRatio(a, b, rng: &rng),
              levels: (median(before), median(after)), before: a.count, after: b.count))
        }
      }
      guard let last = s.points.last, last.run.id == latest[s.key.group]?.id else { continue }
      newest.append(judgeNewest(s, samples: newestSamples(last)))
    }
    return Result(
      steps: steps, newest: Self.adjust(newest, falseDiscovery: falseDiscovery, minChange: minChange),
      scannedTimeSeries: scanned)
  }

  private enum Side { case before, after }

  /// The indices of the level just before or just after `split`, bounded by the neighbouring change points.
  private func segment(of split: Int, in count: Int, boundaries: [Int], side: Side) -> Range<Int> {
    switch side {
    case .before: return (boundaries.last { $0 < split } ?? 0)..<split
    case .after: return split..<(boundaries.first { $0 > split } ?? count)
    }
  }

  private func judgeNewest(_ s: HistorySeries, samples: [Double]) -> Newest {
    let prior = Array(s.points.dropLast())
    let last = s.points[s.points.count - 1]
    let offset = s.key.metric.offset
    guard prior.count >= minHistory, last.value + offset > 0, prior.allSatisfy({ $0.value + offset > 0 }) else {
      return Newest(key: s.key, run: last.run, verdict: .notEnoughHistory, baseline: prior.count)
    }
    let priorLogs = prior.map { log($0.value + offset) }
    let levelStart = detector.changePoints(priorLogs).last ?? 0
    let base = Array(priorLogs[levelStart...])
    guard base.count >= minHistory else {
      return Newest(key: s.key, run: last.run, verdict: .notEnoughHistory, baseline: base.count)
    }
    let centre = median(base)
    let mad = 1.4826 * median(base.map { abs($0 - centre) })
    let spread = max(mad, standardDeviation(base), floor)
    var own = 0.0
    if !s.key.metric.isCount, samples.count >= 2, samples.allSatisfy({ $0 > 0 }) {
      own = 1.2533 * standardDeviation(samples.map { log($0) }) / Double(samples.count).squareRoot()
    }
    let error = (spread * spread / Double(base.count) + pow(max(spread, own), 2)).squareRoot()
    let newest = log(last.value + offset)
    let z = (newest - centre) / error
    let p = StudentT.upperTail(z, degrees: Double(base.count - 1))
    return Newest(
      key: s.key, run: last.run, verdict: .unchanged, ratio: exp(newest - centre), z: z, p: p,
      baseline: base.count, levels: (median(prior[levelStart...].map(\.value)), last.value))
  }

  /// Benjamini–Hochberg over the tested series' one-sided p-values (slower and faster tested alike).
  static func adjust(_ newest: [Newest], falseDiscovery: Double, minChange: Double) -> [Newest] {
    var result = newest
    let tested = result.indices.filter { result[$0].z != nil }
    // Two one-sided families: regressions (p) and improvements (1 − p), each at the same rate.
    for slower in [true, false] {
      let ranked = tested.sorted { pValue(result[$0], slower) < pValue(result[$1], slower) }
      let m = Double(ranked.count)
      var cutoff = -1
      for (rank, index) in ranked.enumerated()
      where pValue(result[index], slower) <= Double(rank + 1) / m * falseDiscovery {
        cutoff = rank
      }
      guard cutoff >= 0 else { continue }
      for index in ranked[...cutoff] {
        let ratio = result[index].ratio ?? 1
        if slower, ratio > 1 + minChange { result[index].verdict = .regression }
        if !slower, ratio < 1 / (1 + minChange) { result[index].verdict = .improvement }
      }
    }
    return result
  }

  private static func pValue(_ newest: Newest, _ slower: Bool) -> Double {
    guard let p = newest.p else { return 1 }
    return slower ? p : 1 - p
  }

  /// A 95% percentile-bootstrap interval of median(after) / median(before).
  static func bootstrapRatio(_ before: [Double], _ after: [Double], rng: inout SplitMix64) -> ClosedRange<Double> {
    var ratios: [Double] = []
    for _ in 0..<999 {
      let a = median((0..<before.count).map { _ in before[Int(rng.next() % UInt64(before.count))] })
      let b = median((0..<after.count).map { _ in after[Int(rng.next() % UInt64(after.count))] })
      ratios.append(b / a)
    }
    ratios.sort()
    return ratios[24]...ratios[974]
  }
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return .nan }
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func standardDeviation(_ values: [Double]) -> Double {
  guard values.count >= 2 else { return 0 }
  let mean = values.reduce(0, +) / Double(values.count)
  return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count - 1)).squareRoot()
}
