import Foundation
import StoreBenchAnalysis
import StoreBenchCore

/// What advise knows before it measures: a short probe of every row — two repetitions of a few operations each,
/// held to the budgets — gives each row's cost of a repetition here and now (the first, which fills the store, and
/// a later one, which starts from a copy of it), and the strategies that already miss a budget. From those,
/// ``fit(available:)`` says whether the run's budget buys the first look (8 repetitions) of every operation of every
/// strategy still in contention, and, when it does not, the budget it would need and what to leave out to fit.
public struct AdviceProbe: Sendable {
  /// Operations of a probe repetition (a workload of many operations; one whose repetition is the operation runs
  /// it whole).
  public static let operations = 10
  public static let repetitions = 2
  /// Slack on the estimate: the rates move (log standard deviation 0.2–0.3 on fsync-heavy rows here).
  public static let slack = 1.25

  /// One row's estimate.
  public struct Row: Sendable {
    public let strategy: String
    public let operation: AppProfile.Operation
    /// Seconds of the run's first repetition (its fill, or a copy of the probe's) and of each later one, at the
    /// plan's full size.
    public let first: Double
    public let later: Double
    /// The probe's budget rules dropped the strategy on this operation (or the row failed).
    public let misses: Bool
    /// Seconds per operation (a repetition's timed part over its operations).
    public let perOperation: Double
  }

  public let plan: AdvicePlan
  public let rows: [Row]
  /// Seconds the probe took: its repetitions' (the advise command sets its whole wall-clock time).
  public var seconds: Double

  /// The probe's scenario: the plan's, each workload of many operations cut to ``operations``, two repetitions,
  /// no precision target.
  public static func scenario(_ plan: AdvicePlan) throws -> Scenario {
    try plan.scenario(
      name: "advise-probe-\(plan.profile.name)", budgetSeconds: max(plan.profile.runSeconds, 60),
      repetitions: (repetitions, repetitions), precision: false
    ) { measure in
      var parameters = measure.parameters
      if !measure.wholeRepetition, measure.operation != .extensionWork,
        let count = parameters[ParameterName.count.text]
      {
        // A batch's records are one operation (`save_batch`): the probe keeps whole ones.
        parameters[ParameterName.count.text] = min(count, operations * batch(of: parameters))
      }
      return parameters
    }
  }

  /// Records per app operation of a row's parameters: its `batch` (`save_batch`), or 1.
  static func batch(of parameters: [String: Int]) -> Int { max(parameters[ParameterName.batch.text] ?? 1, 1) }

  /// The estimates from the probe's samples. `fillsKept`: the run starts from copies of the stores the probe
  /// filled (``RunRequest/keptFills``), so its first repetition of a row costs what a later one does.
  public init(plan: AdvicePlan, probe table: SampleTable, fillsKept: Bool = false) {
    self.plan = plan
    var rows: [Row] = []
    var seconds = 0.0
    for measure in plan.measures {
      // The full run's operations: its count, in batches where a batch is one operation (`save_batch`).
      let full =
        Double(measure.parameters[ParameterName.count.text] ?? 1) / Double(Self.batch(of: measure.parameters))
      var byStrategy: [String: [SampleTable.Row]] = [:]
      for row in table.rows where row.key.workload == measure.workload {
        byStrategy[row.key.strategy, default: []].append(row)
        seconds += row.values[.repetitionSeconds] ?? 0
      }
      for (strategy, samples) in byStrategy.sorted(by: { $0.key < $1.key }) {
        let ordered = samples.sorted { $0.repetition < $1.repetition }
        let cost = ordered.map { $0.values[.repetitionSeconds] ?? 0 }
        let walls = ordered.map { ($0.values[.wallSeconds] ?? 0) }
        let ops = ordered.map { max($0.values[.ops] ?? 1, 1) }
        let perOperation = zip(walls, ops).map { $0 / $1 }.max() ?? 0
        // A repetition's harness (open, fill or copy, verify) is its time less its timed part.
        let overhead = zip(cost, walls).map { max($0 - $1, 0) }
        let scale = measure.wholeRepetition || measure.operation == .extensionWork ? 1 : full
        let timed = measure.wholeRepetition ? (walls.max() ?? 0) : perOperation * scale
        // Out only on the rules that drop a strategy (a miss no repetition can undo, or the early-drop
        // rule's evidence): a probe repetition of 10 operations is cut by one over a p99 budget, which the
        // run's 100 allow.
        let misses = ordered.contains { row in
          row.budgetStop == BudgetStop.dropped.rawValue || row.budgetStop == BudgetStop.certain.rawValue
        }
        let failed = ordered.contains { $0.status != .ok }
        rows.append(
          Row(
            strategy: strategy, operation: measure.operation,
            first: (fillsKept ? overhead.last ?? 0 : overhead.first ?? 0) + timed,
            later: (overhead.last ?? 0) + timed,
            misses: misses || failed, perOperation: perOperation))
      }
    }
    self.rows = rows
    self.seconds = seconds
  }

  /// The strategies the probe leaves in contention (none of their operations already misses a budget or fails).
  public var contenders: [String] {
    let out = Set(rows.filter(\.misses).map(\.strategy))
    return Array(Set(rows.map(\.strategy)).subtracting(out)).sorted()
  }

  /// Seconds the first look (``AdvicePlan/minimumRepetitions``) of every operation of `strategy` takes.
  public func firstLook(_ strategy: String) -> Double {
    let n = Double(AdvicePlan.minimumRepetitions)
    return rows.filter { $0.strategy == strategy }.reduce(0) { $0 + $1.first + (n - 1) * $1.later } * Self.slack
  }

  /// Seconds stopping a strategy the probe saw miss takes: about its probe again.
  public func dropCost(_ strategy: String) -> Double {
    rows.filter { $0.strategy == strategy }.reduce(0) { $0 + $1.first + $1.later } * Self.slack
  }

  /// The probe's storage time a day of `strategy` (the profile's frequencies × seconds per operation).
  public func costPerDay(_ strategy: String) -> Double {
    rows.filter { $0.strategy == strategy }.reduce(0) {
      $0 + $1.perOperation * (plan.profile.perDay[$1.operation] ?? 0)
    }
  }

  /// Whether `available` seconds buy the first look of every contender, and if not what would.
  public struct Fit: Sendable {
    public let needed: Double
    public let available: Double
    public let contenders: [String]
    /// The costliest contenders (by the probe's cost a day) to leave out so the rest fit.
    public let drop: [String]
    public var fits: Bool { needed <= available }
  }

  public func fit(available: Double, fixed: Double = 5) -> Fit {
    let contenders = contenders
    let out = Set(rows.map(\.strategy)).subtracting(contenders)
    let dropping = out.reduce(0) { $0 + dropCost($1) }
    let needed = fixed + dropping + contenders.reduce(0) { $0 + firstLook($1) }
    var drop: [String] = []
    var total = needed
    for strategy in contenders.sorted(by: { costPerDay($0) > costPerDay($1) }) where total > available {
      drop.append(strategy)
      total -= firstLook(strategy)
    }
    return Fit(needed: needed, available: available, contenders: contenders, drop: drop)
  }
}
