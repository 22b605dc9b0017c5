import Foundation
import StoreBenchAnalysis
import StoreBenchContract

/// The answer of `storebench advise`: every candidate strategy judged against the profile — its budgets at their
/// percentiles, the durability need by the crash trials' measured class, and its cost per day (the profile's
/// frequencies times the measured medians, with a bootstrap interval) — and the one recommendation: the cheapest
/// strategy that meets everything (among those whose cost cannot be told from the cheapest's, the one with the
/// strongest
/// durability class). Strategies whose cost cannot be told apart from the recommendation's are named as tied.
public struct Advice: Sendable {
  /// One operation of one strategy, as measured.
  public struct OperationResult: Sendable {
    public let operation: AppProfile.Operation
    /// Seconds per operation, one value per measured repetition.
    public let perOp: [Double]
    /// The budget's percentile of one operation, in seconds (``judgement``'s figure), and how it was taken.
    public let atPercentile: Double?
    public let percentileBasis: String
    /// The percentile's evidence as the one budget rule judges it (``BudgetJudgement``), in seconds.
    public var judgement: BudgetJudgement?
    public let writtenBytes: Double?
    public let syncs: Double?
    /// Set when the row did not run (unsupported, failed).
    public var problem: String?
    /// The noise flags of the operation's repetitions (`contended`: the machine was busy with other work).
    public var flags: [String] = []
    /// The repetitions the percentile rests on (the extension's: those in which it was exercised; nil: all
    /// measured repetitions).
    public var evidence: Int?
    /// Set when the budget's rules stopped the strategy on this operation: the evidence, in a sentence.
    public var dropped: String?
    /// The median wall-clock seconds of one of its repetitions (harness included): what another costs.
    public var repetitionSeconds: Double?
    /// The measured repetitions.
    public var repetitions: Int { perOp.count }
    /// The repetitions a verdict on this operation's budget rests on.
    public var evidenceRepetitions: Int { evidence ?? repetitions }
  }

  /// A budget's outcome for one strategy, by the one rule `check --budgets` judges by (``BudgetJudgement``): met when
  /// the percentile's judged value (the upper end of its median's interval where it has one) is within the budget,
  /// only on the repetitions the first look needs (``AdvicePlan/minimumRepetitions``); on fewer, not measured
  /// enough — nothing else decides.
  public struct BudgetCheck: Sendable {
    public let operation: AppProfile.Operation
    public let budget: AppProfile.Budget
    public let measured: Double?
    /// The evidence the outcome rests on, in seconds.
    public var judgement: BudgetJudgement?
    /// The repetitions the figure rests on, and the fewest a verdict needs.
    public var repetitions = 0
    public var minimum = 0
    /// The budget's rules stopped the strategy here: a miss no further repetition can undo, or one on the
    /// early-drop rule's evidence (``LatencyBudget``); the sentence says which.
    public var dropped: String?

    public enum Outcome: Sendable, Equatable { case met, missed, notMeasuredEnough }

    public var outcome: Outcome {
      if dropped != nil { return .missed }
      guard let judgement else { return .notMeasuredEnough }
      switch judgement.outcome(limit: budget.milliseconds / 1_000) {
      case .kept: return .met
      case .broken: return .missed
      case .notMeasuredEnough: return .notMeasuredEnough
      }
    }
    /// The value the budget is held against, in seconds.
    public var judged: Double? { judgement?.judged }
    public var met: Bool { outcome == .met }
  }

  public enum Verdict: Sendable, Equatable {
    case recommended, tied, costlier
    /// Meets everything measured so far, while another strategy is not measured enough to be judged: no answer
    /// yet, so no recommendation either.
    case candidate
    /// Some deciding figure rests on fewer repetitions than a verdict needs, and nothing measured rules it out.
    case notMeasuredEnough
    case missesBudget, failsNeed, cannotRun
  }

  /// One candidate and its judgement.
  public struct Strategy: Sendable {
    public let backend: String
    public let variant: String
    /// The strategy for people: its deciding settings and those off their defaults (`sqlite [journal=wal …]`).
    public let label: String
    public let operations: [OperationResult]
    public let budgets: [BudgetCheck]
    /// Seconds of storage work per day: median, and the 95% bootstrap interval.
    public let costPerDay: Double?
    public let costInterval: (low: Double, high: Double)?
    public let bytesPerDay: Double?
    public let syncsPerDay: Double?
    public let durability: DurabilityClass?
    /// How old a save a power cut can take, judged when the profile gives a loss window.
    public let lossWindow: LossWindow?
    /// With another process in the profile: lost updates and refusals on the shared store (``SharingCheck``).
    public let sharing: SharingCheck?
    /// Set when the need is met only on too few crash trials: "4 kills without a loss; 8 needed".
    public var thinDurability: String?
    public let meetsNeed: Bool
    public var verdict = Verdict.costlier
    /// Cost relative to the recommendation: median ratio and its 95% interval.
    public var ratio: (median: Double, low: Double, high: Double)?
    public var meetsBudgets: Bool { budgets.allSatisfy(\.met) }
    /// A budget missed on enough repetitions.
    public var missesABudget: Bool { budgets.contains { $0.outcome == .missed } }
    /// What the strategy's verdict still needs: "save p99: not measured enough (n=1; 8 needed)".
    public var missingEvidence: [String] {
      budgets.filter { $0.outcome == .notMeasuredEnough }.map { check in
        let more = secondsToDecide(check).map { "; about \(Advice.time($0)) more" } ?? ""
        let what =
          check.operation == .extensionWork
          ? "not exercised enough (the extension worked beside the app in \(check.repetitions) "
            + "repetitions; \(check.minimum) needed\(more))"
          : "not measured enough (n=\(check.repetitions); \(check.minimum) needed\(more))"
        return "\(check.operation.rawValue) p\(check.budget.percentile): \(what)"
      }
        + (sharing.flatMap { $0.outcome == .notMeasuredEnough ? "sharing: \($0.missing)" : nil }.map { [$0] }
          ?? []) + (thinDurability.map { ["durability: not measured enough (\($0))"] } ?? [])
    }
    public var runs: Bool { operations.allSatisfy { $0.problem == nil && !$0.perOp.isEmpty } }

    /// Seconds of measuring that would bring `check`'s operation to its first look: the repetitions it lacks at
    /// what one of them cost (nil when none was measured).
    public func secondsToDecide(_ check: BudgetCheck) -> Double? {
      guard let result = operations.first(where: { $0.operation == check.operation }),
        let cost = result.repetitionSeconds
      else { return nil }
      // The extension is exercised in some repetitions only: as many more as it lacked, at that share.
      let share =
        result.repetitions > 0 && check.repetitions > 0
        ? Double(result.repetitions) / Double(check.repetitions) : 1
      return Double(max(check.minimum - check.repetitions, 0)) * share * cost
    }

    /// Seconds that would decide every figure it still lacks (``secondsToDecide(_:)``), nil when unknown.
    public var secondsToDecide: Double? {
      let open = budgets.filter { $0.outcome == .notMeasuredEnough }
      let each = open.compactMap { secondsToDecide($0) }
      return each.count == open.count && !open.isEmpty ? each.reduce(0, +) : nil
    }
  }

  public let profile: AppProfile
  /// What measured each operation (``AdvicePlan/Measure/unit``).
  public let measures: [AdvicePlan.Measure]
  /// The repetitions an operation needs before an interval is printed beside its figures (the first look of
  /// advise's scenario, ``AdvicePlan/minimumRepetitions``).
  public let minimumRepetitions: Int
  public var strategies: [Strategy]
  public let notConsidered: [(candidate: String, reason: String)]
  public var recommendation: Strategy? { strategies.first { $0.verdict == .recommended } }
  /// No recommendation because some strategy is not measured enough to be judged (exit 7, not 6).
  public var noAnswerYet: Bool { strategies.contains { $0.verdict == .notMeasuredEnough } }

  /// Judges the rows of `table` (the run of `plan`'s scenario) with the crash results `crashes` ("backend
  /// [variant]");
  /// `label` names a strategy for people.
  public init(
    plan: AdvicePlan, table: SampleTable, crashes: [String: CrashResult],
    promise: (String, String) -> DurabilityPromise?,
    label: (String, String) -> String = { "\($0) [\($1)]" }, resamples: Int = 2_000
  ) {
    profile = plan.profile
    measures = plan.measures
    minimumRepetitions = AdvicePlan.minimumRepetitions
    notConsidered = plan.notConsidered
    var byStrategy: [String: (backend: String, variant: String, rows: [SampleTable.Row])] = [:]
    var order: [String] = []
    for row in table.rows {
      let key = "\(row.key.backend) [\(row.key.variant)]"
      if plan.declaredShort.contains(key) { continue }
      if byStrategy[key] == nil { order.append(key) }
      byStrategy[key, default: (row.key.backend, row.key.variant, [])].rows.append(row)
    }
    var rng = SplitMix64(seed: 0x6164_7669)
    strategies = order.map { key in
      let (backend, variant, rows) = byStrategy[key]!
      var operations = plan.measures.map { measure in
        let measured = rows.filter { $0.key.workload == measure.workload }
        let budget = plan.profile.budgets[measure.operation]
        var result = Self.result(measure, rows: measured, percentile: budget?.percentile)
        result.dropped = budget.flatMap {
          BudgetDropEvidence.sentence(rows: measured, measure: measure, budget: $0)
        }
        return result
      }
      // A strategy its budget's rules dropped leaves its other operations unmeasured, or short: say why.
      if let out = operations.first(where: { $0.dropped != nil }) {
        for index in operations.indices
        where operations[index].dropped == nil
          && operations[index].perOp.count
            < AdvicePlan.minimumRepetitions
        {
          operations[index].problem =
            "not measured further: the strategy misses its \(out.operation.rawValue) budget"
        }
      }
      let budgets = plan.profile.budgets.sorted { $0.key < $1.key }.map { operation, budget in
        BudgetCheck(
          operation: operation, budget: budget,
          measured: operations.first { $0.operation == operation }?.atPercentile,
          judgement: operations.first { $0.operation == operation }?.judgement,
          repetitions: operations.first { $0.operation == operation }?.evidenceRepetitions ?? 0,
          minimum: AdvicePlan.minimumRepetitions,
          dropped: operations.first { $0.operation == operation }?.dropped)
      }
      let runs = operations.allSatisfy { $0.problem == nil && !$0.perOp.isEmpty }
      let cost = runs ? Self.cost(operations, perDay: plan.profile.perDay, resamples: resamples, rng: &rng) : nil
      let declared = promise(backend, variant)
      let durability = declared.map { DurabilityClass(declared: $0, crash: crashes[key]) }
      let window = plan.profile.lossWindowMilliseconds.map { _ in
        LossWindow(crash: crashes[key], cadence: plan.profile.cadence)
      }
      let sharing = plan.operation(of: .extensionWork).flatMap {
        SharingCheck(rows: rows, profile: plan.profile, workload: $0.workload)
      }
      let meets =
        Self.meetsNeed(plan.profile, durability: durability, window: window) && sharing?.outcome != .fails
      let perDay = plan.profile.perDay
      var strategy = Strategy(
        backend: backend, variant: variant, label: label(backend, variant), operations: operations,
        budgets: budgets,
        costPerDay: cost?.median, costInterval: cost.map { ($0.low, $0.high) },
        bytesPerDay: runs ? Self.daily(operations, perDay, \.writtenBytes) : nil,
        syncsPerDay: runs ? Self.daily(operations, perDay, \.syncs) : nil,
        durability: durability, lossWindow: window, sharing: sharing, meetsNeed: meets)
      if meets { strategy.thinDurability = Self.thinDurability(crashes[key], need: plan.profile.need) }
      return strategy
    }
    judge(resamples: resamples, rng: &rng)
  }

  /// Whether a strategy's durability keeps the profile's need: its class keeps `power-loss` (or `kill`); with a
  /// loss window, a class that survives a killed app and a power cut whose lost saves are no older than the window.
  static func meetsNeed(_ profile: AppProfile, durability: DurabilityClass?, window: LossWindow?) -> Bool {
    guard let promise = durability?.promise else { return false }
    if promise.keeps(atLeast: profile.need == .powerLoss ? .durable : .survivesKill) { return true }
    guard let limit = profile.lossWindowMilliseconds, let window else { return false }
    return promise.keeps(atLeast: .survivesKill) && window.meets(limit)
  }

  /// Why a clean crash result is too thin to carry the need: fewer clean trials than the first look (8) of the
  /// need's fault (kills; random power cuts — enumerated states are exhaustive within the model); nil otherwise.
  static func thinDurability(_ crash: CrashResult?, need: AppProfile.Need) -> String? {
    let minimum = AdvicePlan.minimumRepetitions
    if let kill = crash?.kill, !kill.lostSomething, kill.trials < minimum {
      return "\(kill.trials) kill\(kill.trials == 1 ? "" : "s") without a loss; \(minimum) needed"
    }
    guard need == .powerLoss, let cut = crash?.synced ?? crash?.prefix, cut.enumerated == nil,
      !cut.lostSomething, cut.trials < minimum
    else { return nil }
    return "\(cut.trials) cut\(cut.trials == 1 ? "" : "s") without a loss; \(minimum) needed"
  }

  /// Orders the strategies and gives each its verdict.
  private mutating func judge(resamples: Int, rng: inout SplitMix64) {
    for index in strategies.indices {
      let strategy = strategies[index]
      // A budget missed comes first: a strategy dropped on one leaves its other operations unmeasured.
      strategies[index].verdict =
        strategy.missesABudget
        ? .missesBudget
        : !strategy.runs
          ? .cannotRun
          : !strategy.meetsNeed
            ? .failsNeed : !strategy.missingEvidence.isEmpty ? .notMeasuredEnough : .costlier
    }
    // A recommendation needs every strategy judged: one not measured enough might be the cheapest.
    if noAnswerYet {
      for index in strategies.indices where strategies[index].verdict == .costlier {
        strategies[index].verdict = .candidate
      }
    }
    let rank: (Strategy) -> Double = { $0.costPerDay ?? .infinity }
    strategies.sort { a, b in
      a.verdict == b.verdict ? rank(a) < rank(b) : Self.order(a.verdict) < Self.order(b.verdict)
    }
    guard let cheapest = strategies.firstIndex(where: { $0.verdict == .costlier }) else { return }
    // Among the strategies whose cost cannot be told from the cheapest's, the strongest durability class wins
    // (then the lower cost), as the report picks among tied rows.
    var winner = cheapest
    for index in strategies.indices where index != cheapest && strategies[index].verdict == .costlier {
      guard
        let ratio = Self.ratio(
          strategies[index], to: strategies[cheapest], perDay: profile.perDay,
          resamples: resamples, rng: &rng),
        Self.isTie(ratio) || !carries(strategies[index], strategies[cheapest])
      else { continue }
      if let stronger = strategies[index].durability?.promise,
        let current = strategies[winner].durability?.promise,
        stronger < current
      {
        winner = index
      }
    }
    strategies[winner].verdict = .recommended
    let best = strategies[winner]
    for index in strategies.indices where index != winner && strategies[index].runs {
      let ratio = Self.ratio(strategies[index], to: best, perDay: profile.perDay, resamples: resamples, rng: &rng)
      strategies[index].ratio = ratio
      if strategies[index].verdict == .costlier, let ratio, Self.isTie(ratio) || !carries(strategies[index], best) {
        strategies[index].verdict = .tied
      }
    }
    strategies.sort { a, b in
      a.verdict == b.verdict ? rank(a) < rank(b) : Self.order(a.verdict) < Self.order(b.verdict)
    }
  }

  /// Whether both strategies have the repetitions a verdict on their cost ratio needs (every operation at least
  /// ``minimumRepetitions``); without them the two cannot be told apart, and are tied.
  func carries(_ a: Strategy, _ b: Strategy) -> Bool {
    min(Self.fewest(a), Self.fewest(b)) >= minimumRepetitions
  }

  /// Tied: the cost ratio is not shown to differ, equivalent or indistinguishable (docs/MEASURING.md).
  static func isTie(_ ratio: (median: Double, low: Double, high: Double)) -> Bool {
    !TieMargin.standard.verdict(low: ratio.low, high: ratio.high).isDifference
  }

  private static func order(_ verdict: Verdict) -> Int {
    [.recommended, .tied, .costlier, .candidate, .notMeasuredEnough, .missesBudget, .failsNeed, .cannotRun]
      .firstIndex(of: verdict)!
  }

  /// One operation's figures from its rows (one per repetition).
  static func result(_ measure: AdvicePlan.Measure, rows: [SampleTable.Row], percentile: Int?) -> OperationResult {
    let ok = rows.filter { $0.status == .ok }
    guard !ok.isEmpty else {
      let problem =
        rows.first.map { $0.status == .unsupported ? "unsupported: \($0.error)" : "failed: \($0.error)" }
        ?? "not measured (the run stopped before this row)"
      return OperationResult(
        operation: measure.operation, perOp: [], atPercentile: nil, percentileBasis: "",
        writtenBytes: nil, syncs: nil, problem: problem)
    }
    let perOp: [Double] = ok.compactMap { row in
      guard let wall = row.values[.wallSeconds] else { return nil }
      if measure.wholeRepetition { return wall + (row.values[.firstReadSeconds] ?? 0) }
      guard let ops = row.values[.ops], ops > 0 else { return nil }
      return wall / ops
    }
    var judgement: BudgetJudgement?
    var basis = ""
    var exercised: Int?
    if let percentile {
      // The extension's own operations where the profile's other process is judged (its latency columns).
      let columns: [SampleColumn] =
        measure.operation == .extensionWork
        ? [.extensionP50, .extensionP90, .extensionP99] : [.p50, .p90, .p99]
      let column = percentile == 50 ? columns[0] : percentile == 90 ? columns[1] : columns[2]
      let recorded = ok.compactMap { $0.values[column].map { $0 / 1_000_000 } }
      if measure.operation == .extensionWork {
        // Only the extension's own latencies say how long it waited: a repetition in which it ran no operation
        // (the app finished first) has none, and the app's time per operation is no stand-in.
        judgement = BudgetJudgement(recorded, basis: .median)
        exercised = recorded.count
        basis =
          recorded.isEmpty
          ? "the extension was not exercised in \(ok.count) repetition\(ok.count == 1 ? "" : "s")"
          : "p\(percentile) of the extension's operations that arrived while the app worked (from their "
            + "arrival), median of the \(recorded.count) of \(ok.count) repetitions in which it was exercised"
      } else if !measure.wholeRepetition, recorded.count == ok.count, !recorded.isEmpty {
        let ops = Int(ok.compactMap { $0.values[.ops] }.min() ?? 0)
        judgement = BudgetJudgement(recorded, basis: .median)
        basis = "p\(percentile) of \(ops) operations, median of \(ok.count) repetitions"
      } else if !perOp.isEmpty {
        // Nearest rank over the repetitions: with fewer than 100, p99 is the slowest one.
        judgement = BudgetJudgement(perOp, basis: .percentile(percentile))
        let rank = max(1, Int((Double(percentile) / 100 * Double(perOp.count)).rounded(.up)))
        basis = rank >= perOp.count ? "the slowest of \(perOp.count)" : "p\(percentile) of \(perOp.count)"
      }
    }
    let atPercentile = judgement?.figure
    var result = OperationResult(
      operation: measure.operation, perOp: perOp, atPercentile: atPercentile, percentileBasis: basis,
      writtenBytes: Statistics.median(ok.compactMap { $0.values[.writtenBytesPerOp] }),
      syncs: Statistics.median(ok.compactMap { $0.values[.syncsPerOp] }), problem: nil)
    result.evidence = exercised
    result.judgement = judgement
    result.repetitionSeconds = Statistics.median(ok.compactMap { $0.values[.repetitionSeconds] })
    if let statistics = Statistics(perOp) {
      let wall = ok.compactMap { $0.values[.wallSeconds] }.reduce(0, +)
      result.flags = NoiseFlags.flags(
        statistics: statistics, medianLoad: Statistics.median(ok.compactMap { $0.values[.loadAverage] }),
        wallTotal: wall, otherCPUTotal: ok.compactMap { $0.values[.otherCPUSeconds] }.reduce(0, +),
        target: AdvicePlan.targetPrecision
      ).filter { $0 == "contended" }
    }
    return result
  }

  /// Σ over the operations of the profile's frequency a day × `value` of one operation; nil when an operation has no
  /// value (its bytes or syncs were not counted).
  static func daily(
    _ operations: [OperationResult], _ perDay: [AppProfile.Operation: Double],
    _ value: (OperationResult) -> Double?
  ) -> Double? {
    var total = 0.0
    for result in operations {
      guard let one = value(result) else { return nil }
      total += one * (perDay[result.operation] ?? 0)
    }
    return total
  }

  /// Seconds per day: Σ frequency × median seconds per operation, its interval from resampling every operation's
  /// repetitions together.
  static func cost(
    _ operations: [OperationResult], perDay: [AppProfile.Operation: Double], resamples: Int,
    rng: inout SplitMix64
  ) -> (median: Double, low: Double, high: Double) {
    let point = daily(operations, perDay) { Statistics.median($0.perOp) ?? 0 } ?? 0
    var draws: [Double] = []
    draws.reserveCapacity(resamples)
    for _ in 0..<resamples { draws.append(daily(operations, perDay) { resampledMedian($0.perOp, &rng) } ?? 0) }
    draws.sort()
    return (point, Bootstrap.percentile(draws, 0.025), Bootstrap.percentile(draws, 0.975))
  }

  /// The cost ratio `strategy` / `best`, with a 95% interval from resampling both; nil when either cannot be costed.
  static func ratio(
    _ strategy: Strategy, to best: Strategy, perDay: [AppProfile.Operation: Double], resamples: Int,
    rng: inout SplitMix64
  ) -> (median: Double, low: Double, high: Double)? {
    guard let cost = strategy.costPerDay, let bestCost = best.costPerDay, bestCost > 0, strategy.runs else {
      return nil
    }
    var draws: [Double] = []
    for _ in 0..<resamples {
      let denominator = daily(best.operations, perDay) { resampledMedian($0.perOp, &rng) } ?? 0
      let numerator = daily(strategy.operations, perDay) { resampledMedian($0.perOp, &rng) } ?? 0
      if denominator > 0 { draws.append(numerator / denominator) }
    }
    draws.sort()
    return (cost / bestCost, Bootstrap.percentile(draws, 0.025), Bootstrap.percentile(draws, 0.975))
  }

  private static func resampledMedian(_ values: [Double], _ rng: inout SplitMix64) -> Double {
    guard !values.isEmpty else { return 0 }
    let draw = (0..<values.count).map { _ in values[Int(rng.next() % UInt64(values.count))] }
    return Statistics.median(draw) ?? 0
  }
}
