import Foundation

/// A budgets file judged on a run folder: each budget on every row its patterns match, on what the row can support —
/// a latency, a count or bytes per operation on the upper end of the median's 95% interval where the row has one, on
/// the median with its n otherwise; a size (store, peak memory) on its largest repetition. A budget is kept or broken
/// only on the first look's repetitions (8), or on repetitions that all gave the same value (an exact count); on
/// fewer it is **not measured enough**: shown, never judged (a failed row breaks it at once).
public struct BudgetCheck: Sendable {
  /// One budget on one row.
  public struct Verdict: Sendable {
    public var budget: BudgetFile.Budget
    /// `open-parent sqlite [journal=wal] 20000`.
    public var row: String
    /// The value the limit is held against, in the metric's unit.
    public var judged: Double?
    /// What was measured, rendered with its evidence: `12.3 ms [11.9–12.8 ms, n=10], judged on 12.8 ms`.
    public var evidence: String
    /// The judged value is within the limit.
    public var kept: Bool
    /// The evidence carries a verdict: enough repetitions, or all of them identical, or a failed row.
    public var decided = true

    public enum Outcome: String, Sendable {
      case kept, broken
      case notMeasuredEnough = "not measured enough"
    }

    public var outcome: Outcome { !decided ? .notMeasuredEnough : kept ? .kept : .broken }
  }

  public var file: String
  public var run: String
  public var verdicts: [Verdict]
  public var broken: [Verdict] { verdicts.filter { $0.outcome == .broken } }
  /// Budgets shown but not judged: too few repetitions for a verdict (exit 7 when none is broken).
  public var undecided: [Verdict] { verdicts.filter { $0.outcome == .notMeasuredEnough } }
  /// The repetitions a verdict needs unless they all agree (the first look).
  public static var minimumRepetitions: Int { MedianInterval.verdictCount }

  /// Judges `budgets` on `run`. A row that failed breaks every budget on it; an unsupported row (it never ran) is
  /// not judged. Throws (bad input) when a budget's patterns match no row of the run or only unsupported ones, or a
  /// matched row has no value for its metric (counted costs not recorded): a budget that judges nothing is an
  /// error, not a pass.
  public init(_ budgets: BudgetFile, run folder: RunFolder) throws {
    file = budgets.file
    run = folder.url.path
    let table = try SampleTable(folder: folder)
    // A row is its workload, strategy and size over every scenario and parameter set the run gave it.
    let rows = Dictionary(grouping: table.rows) { BudgetRow(key: $0.key) }
    let order = table.rows.map { BudgetRow(key: $0.key) }.reduce(into: [BudgetRow]()) { order, row in
      if !order.contains(row) { order.append(row) }
    }
    var verdicts: [Verdict] = []
    for budget in budgets.budgets {
      let matched = order.filter { row in
        Glob.matches(budget.workload, row.workload) && Glob.matches(budget.backend, row.backend)
          && Glob.matches(budget.variant, row.variant)
      }
      guard !matched.isEmpty else {
        throw BudgetError(
          "\(budgets.file): \(budget.path): no row of \(folder.url.path) matches workload '\(budget.workload)', "
            + "backend '\(budget.backend)', variant '\(budget.variant)'")
      }
      // An unsupported row never ran (the backend does not play the workload's roles): not judged, and not a
      // break; a budget that matches nothing else judges nothing, which is an error.
      let judged = matched.filter { key in rows[key]!.contains { $0.status != .unsupported } }
      guard !judged.isEmpty else {
        throw BudgetError(
          "\(budgets.file): \(budget.path): every row of \(folder.url.path) it matches is unsupported "
            + "(\(matched.count) rows): nothing to judge")
      }
      for key in judged { verdicts.append(try Self.judge(budget, key, rows[key]!, budgets.file)) }
    }
    self.verdicts = verdicts
  }

  /// The row a budget judges: a workload on a strategy at a size.
  struct BudgetRow: Hashable {
    let workload, backend, variant: String
    let size: Int

    init(key: RowKey) { (workload, backend, variant, size) = (key.workload, key.backend, key.variant, key.size) }

    /// `open-parent sqlite [journal=wal] 20000`.
    var name: String { "\(workload) \(backend) [\(variant)] \(size)" }
  }

  static func judge(
    _ budget: BudgetFile.Budget, _ key: BudgetRow, _ repetitions: [SampleTable.Row], _ file: String
  ) throws -> Verdict {
    let row = key.name
    let metric = budget.metric
    let unit = metric.unit
    let ok = repetitions.filter { $0.status == (metric.pass == nil ? .ok : .counted) }
    guard !ok.isEmpty else {
      if let pass = metric.pass, repetitions.contains(where: { $0.status == .ok }) {
        throw BudgetError(
          "\(file): \(budget.path): row \(row) has no \(metric.column) (the run did not count it: storebench run "
            + "--count \(pass.rawValue))")
      }
      let first = repetitions[0]
      return Verdict(
        budget: budget, row: row, judged: nil,
        evidence: "the row is \(first.status.rawValue), nothing to judge: \(first.error)", kept: false)
    }
    let factor = metric.scale * (budget.opsPerDay ?? 1)
    var values: [Double] = []
    for repetition in ok {
      guard let value = repetition.values[metric.column], value.isFinite else {
        throw BudgetError(
          "\(file): \(budget.path): row \(row) has no \(metric.column) (the run did not record it: counted "
            + "costs need counters, latency percentiles a workload of many operations)")
      }
      values.append(value * factor)
    }
    // The one rule budgets are judged by (advise's too): ``BudgetJudgement``.
    let judgement = BudgetJudgement(
      values, basis: metric.pass != nil ? .counted : metric.judgedOnLargest ? .largest : .median)!
    let judged = judgement.judged
    var evidence: String
    if let pass = metric.pass {
      evidence = "counted exactly in the \(pass.rawValue) pass: \(unit.format(judged))"
    } else if metric.judgedOnLargest {
      evidence = "largest of n=\(values.count): \(unit.format(judged))"
    } else {
      let (median, interval) = (judgement.figure, judgement.interval)
      if unit == .microseconds {
        evidence =
          MedianClaim(
            median: median / 1e6, interval: interval.map { ($0.low / 1e6)...($0.high / 1e6) },
            count: values.count, minimumCount: MedianInterval.minimumCount
          ).text
      } else if let interval {
        evidence =
          "median \(unit.format(median)) [\(unit.format(interval.low))–\(unit.format(interval.high)), "
          + "n=\(values.count)]"
      } else {
        evidence = "median \(unit.format(median)) (n=\(values.count), no interval)"
      }
      evidence +=
        interval == nil
        ? "; judged on the median"
        : "; judged on the interval's upper end, \(unit.format(judged))"
    }
    if !judgement.decided {
      evidence += "; not measured enough (n=\(values.count); \(minimumRepetitions) needed)"
    }
    return Verdict(
      budget: budget, row: row, judged: judged, evidence: evidence, kept: judged <= budget.limit,
      decided: judgement.decided)
  }
}

/// A budgets file that cannot be judged on the run (exit 64).
public struct BudgetError: Error, CustomStringConvertible, ExitCoded {
  public let description: String
  public init(_ description: String) { self.description = description }
  public var exit: StoreBenchExit { .badInput }
}
