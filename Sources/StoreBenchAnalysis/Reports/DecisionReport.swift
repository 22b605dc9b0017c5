import Foundation
import StoreBenchContract
import StoreBenchMeasure

/// The first screen of `report.md`: which strategy to pick, generated from the run's numbers alone, claiming only
/// what they show.
///
/// - **Like with like.** Per workload, rows are ranked together only when their size, parameters and data are the
///   same. The main group, the one that answers, ran the scenario's own parameters: a limit only lowers a
///   parameter, so it is the group with the largest value of every parameter (``mainGroup(_:)``), however many
///   limited rows there are; rows a scenario limited are ranked apart, never against it.
/// - **Ties.** The row with the lowest median among those with an interval is the fastest; every other row is
///   judged by the bootstrap interval of its ratio of medians against it, in the one vocabulary (``RatioVerdict``):
///   *equivalent* (within the tie margin), *indistinguishable* (includes 1, wider than the margin) or *slower*.
///   The first two are *tied* with the fastest. Rows with too few repetitions for an interval neither win nor tie.
///   Among tied rows the answer picks the stronger durability class and says which kind of tie it is.
/// - **Durability** is each variant's ``DurabilityClass``: declared, lowered by any loss `storebench crash`
///   measured of that exact variant, and marked measured or declared. A workload that writes nothing is ranked by
///   speed alone; its class is a property of the store, not a cost.
/// - The in-memory floor is shown as a reference, never recommended.
public struct DecisionReport {
  /// A ranked strategy of one workload.
  struct Entry {
    let key: ComparisonKey
    let walls: [Double]
    let median: Double
    /// The median's interval at the run's level (nil: too few repetitions).
    let interval: MedianInterval?
    let durability: DurabilityClass
    let crash: CrashResult?
    let storeBytes: Double?
    let memoryKiB: Double?
    let label: String
    /// The share of the row's repetition time spent filling its store (nil: not recorded).
    let prepareShare: Double?
    /// Medians of the counted costs per operation (``DecisionReport/costColumns``); absent where not counted.
    let costs: [SampleColumn: Double]
    /// The counted costs every repetition gave identically: exact, no spread to show.
    let exactCosts: Set<SampleColumn>
    /// Medians of what the workload reports beside its time (its ``WorkloadFigures``), where it does.
    let figures: [SampleColumn: Double]

    var isFloor: Bool { durability.promise == .none }
    var hasInterval: Bool { interval != nil }
  }

  /// Rows of one workload with equal size, parameters and data.
  struct Group {
    let size: Int
    let parameters: String
    /// By median, fastest first.
    let entries: [Entry]
  }

  struct Workload {
    let name: String
    /// The workload leaves its store unchanged: durability costs nothing there.
    let readOnly: Bool
    /// The main group first, then the others by size.
    let groups: [Group]
  }

  let workloads: [Workload]
  let seed: UInt64
  /// The smallest number of repetitions with an interval at the run's level.
  let minimumCount: Int
  /// How close to 1 a ratio's interval must lie to be called equivalent.
  let margin: TieMargin
  /// The rule an answer is judged settled by (``AnswerRule``), and each workload's answers under it, by name.
  let rule: AnswerRule
  let races: [String: Race]
  /// What each workload reports beside its time, by workload name (``WorkloadFigures``).
  let figureDeclarations: [String: WorkloadFigures]
  /// The columns the run was read by (a figure's unit).
  let columns: ColumnSet
  /// Each pair's bootstrap interval, computed once: the answer, the recommendations and the rankings ask for the
  /// same pairs many times, and each is seeded, so the first answer is every answer.
  private let intervals = IntervalCache()

  private final class IntervalCache {
    var byPair: [[ComparisonKey]: ClosedRange<Double>?] = [:]
  }

  /// `promise` gives a variant's declared class (nil: unknown backend, "may lose"); `crashes` the measured results
  /// by "backend [variant]" (``CrashResult/read(files:)``). `label` names a variant for people (its settings that
  /// decide durability and speed, defaults included). `readOnly` names the workloads that write nothing; `figures`
  /// gives, by workload name, what each reports beside its time.
  public init(
    table: SampleTable, promise: (String, String) -> DurabilityPromise?, crashes: [String: CrashResult],
    label: (String, String) -> String = { "\($0) [\($1)]" }, workloadOrder: [String] = [],
    readOnly: Set<String> = [], figures: [String: WorkloadFigures] = [:], seed: UInt64 = 42,
    margin: TieMargin = .standard
  ) {
    figureDeclarations = figures
    columns = table.columns
    let schedule = table.lookSchedule
    var order: [String] = []
    var walls: [String: [ComparisonKey: [Double]]] = [:]
    for row in table.rows where row.status == .ok {
      guard let wall = row.values[.wallSeconds] else { continue }
      let key = row.comparisonKey
      if walls[key.workload] == nil { order.append(key.workload) }
      walls[key.workload, default: [:]][key, default: []].append(wall)
    }
    let stores = table.values(of: .storeBytes).compactMapValues(Statistics.median)
    let memory = table.values(of: .memoryGrowthKiB).compactMapValues(Statistics.median)
    let prepared = table.values(of: .prepareSeconds).mapValues { $0.reduce(0, +) }
    let costValues = Dictionary(
      uniqueKeysWithValues: Self.costColumns.map { column in (column, table.values(of: column)) })
    let costMedians = costValues.mapValues { $0.compactMapValues(Statistics.median) }
    let figureMedians = Dictionary(
      Set(figures.values.flatMap(\.columns)).map { column in
        (column, table.values(of: column).compactMapValues(Statistics.median))
      }, uniquingKeysWith: { first, _ in first })
    let repeated = table.values(of: .repetitionSeconds).mapValues { $0.reduce(0, +) }
    let rank = { (name: String) in workloadOrder.firstIndex(of: name) ?? workloadOrder.count }
    order.sort { (rank($0), $0) < (rank($1), $1) }
    workloads = order.map { workload in
      let entries = walls[workload]!.map { key, values -> Entry in
        let crash = crashes["\(key.backend) [\(key.variant)]"]
        let declared = promise(key.backend, key.variant) ?? .mayLose
        let statistics = Statistics(values, schedule: schedule)!
        return Entry(
          key: key, walls: values, median: statistics.median, interval: statistics.medianInterval,
          durability: DurabilityClass(declared: declared, crash: crash), crash: crash,
          storeBytes: stores[key], memoryKiB: memory[key], label: label(key.backend, key.variant),
          prepareShare: repeated[key].flatMap { total in total > 0 ? prepared[key].map { $0 / total } : nil },
          costs: costMedians.compactMapValues { $0[key] },
          exactCosts: Set(
            costValues.compactMap { column, values in
              values[key].flatMap { Set($0).count == 1 ? column : nil }
            }),
          figures: figureMedians.compactMapValues { $0[key] })
      }
      let grouped = Dictionary(grouping: entries) {
        GroupID(size: $0.key.size, parameters: $0.key.parameters, dataset: $0.key.dataset)
      }
      let main = Self.mainGroup(grouped.mapValues { $0.filter { !$0.isFloor }.count })
      let groups = grouped.sorted { a, b in
        (a.key != main ? 1 : 0, a.key.size, a.key.parameters) < (
          b.key != main ? 1 : 0, b.key.size, b.key.parameters
        )
      }.map { id, members in
        Group(
          size: id.size, parameters: id.parameters,
          entries: members.sorted { ($0.median, $0.label) < ($1.median, $1.label) })
      }
      return Workload(name: workload, readOnly: readOnly.contains(workload), groups: groups)
    }
    self.seed = seed
    self.margin = margin
    minimumCount = schedule.minimumCount
    let rule = table.answerRule(margin: margin)
    self.rule = rule
    races = Dictionary(
      uniqueKeysWithValues: workloads.map { [minimumCount] workload in
        (workload.name, Race(workload, rule: rule, leaderMinimum: minimumCount))
      })
  }

  /// Rows of one workload are compared when these agree.
  public struct GroupID: Hashable, Sendable {
    public let size: Int
    public let parameters: String
    public let dataset: String
    public init(size: Int, parameters: String, dataset: String) {
      (self.size, self.parameters, self.dataset) = (size, parameters, dataset)
    }
  }

  /// The group that ran the scenario's own parameters, given each group's row count (the floor aside). A limit
  /// only lowers a parameter, so that group holds the largest value of every parameter ("count=100 stored=20000"
  /// over "count=10 stored=20000"), however many limited rows outnumber it. Only when no single group does (every
  /// row limited, or groups differing in data alone) do the most rows, then the larger size, decide.
  public static func mainGroup(_ counts: [GroupID: Int]) -> GroupID? {
    func values(_ parameters: String) -> [String: String] {
      Dictionary(
        parameters.split(separator: " ").map { pair -> (String, String) in
          let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
          return (parts[0], parts.count > 1 ? parts[1] : "")
        }
      ) { first, _ in first }
    }
    func covers(_ a: [String: String], _ b: [String: String]) -> Bool {
      b.allSatisfy { name, value in
        guard let mine = a[name] else { return false }
        if let x = Int(mine), let y = Int(value) { return x >= y }
        return mine == value
      }
    }
    let parsed = counts.keys.map { ($0, values($0.parameters)) }
    let dominant = parsed.filter { candidate in parsed.allSatisfy { covers(candidate.1, $0.1) } }.map(\.0)
    let pool = dominant.isEmpty ? Array(counts.keys) : dominant
    return pool.sorted { a, b in (counts[b]!, b.size, a.parameters) < (counts[a]!, a.size, b.parameters) }.first
  }

  /// The bootstrap interval of `entry`'s median over `best`'s (nil unless both have an interval).
  func ratioInterval(_ entry: Entry, to best: Entry) -> ClosedRange<Double>? {
    guard entry.hasInterval, best.hasInterval else { return nil }
    let pair = [entry.key, best.key]
    if let known = intervals.byPair[pair] { return known }
    let interval = Bootstrap.ratioOfMedians(
      baseline: best.walls, current: entry.walls,
      seed: seed ^ UInt64(truncatingIfNeeded: (entry.label + best.label).hashValueStable))
    intervals.byPair[pair] = interval
    return interval
  }

  /// The claim about `entry`'s time against `best`'s: its ratio of medians, the interval and the verdict.
  func claim(_ entry: Entry, to best: Entry) -> RatioClaim {
    RatioClaim(
      ratio: entry.median / best.median, interval: ratioInterval(entry, to: best),
      counts: (entry.walls.count, best.walls.count), minimumCount: minimumCount, margin: margin)
  }

  /// Whether `entry` is tied with `best`: equivalent or indistinguishable (not shown to differ).
  func isTied(_ entry: Entry, with best: Entry) -> Bool {
    guard entry.key != best.key else { return true }
    guard let verdict = claim(entry, to: best).verdict else { return false }
    return !verdict.isDifference
  }

  /// "1.26× [1.08–1.42] slower" of `entry` against `best` (``RatioClaim/text``).
  func ratio(_ entry: Entry, to best: Entry) -> String {
    entry.key == best.key ? "1×" : claim(entry, to: best).text
  }

  /// The choice for one durability need in a workload's main group.
  struct Choice {
    /// The lowest median among the candidates with an interval.
    let fastest: Entry
    /// Candidates indistinguishable from `fastest` (itself included), fastest first.
    let tied: [Entry]
    /// The pick: among the tied, the strongest durability class (then the lowest median).
    var pick: Entry {
      tied.min { ($0.durability.promise, $0.median) < ($1.durability.promise, $1.median) }!
    }
  }

  /// The choice among the main group's rows with an interval that keep at least `need` (the floor excluded); nil
  /// when there is none.
  func choice(_ workload: Workload, keeping need: DurabilityPromise) -> Choice? {
    guard let main = workload.groups.first else { return nil }
    let candidates = main.entries.filter {
      !$0.isFloor && $0.hasInterval && $0.durability.promise.keeps(atLeast: need)
    }
    guard let fastest = candidates.first else { return nil }
    return Choice(fastest: fastest, tied: candidates.filter { isTied($0, with: fastest) })
  }

  /// The variants the answer names, as "backend [variant]": in every workload, each durability need's pick and the
  /// rows tied with it. `scripts/bench` measures their durability, so no class in the answer rests on a declaration.
  public var namedVariants: Set<String> {
    var named = Set<String>()
    for workload in workloads {
      for need in [DurabilityPromise.mayLose, .survivesKill, .durable] {
        guard let chosen = choice(workload, keeping: need) else { continue }
        for entry in chosen.tied + [workload.readOnly ? chosen.fastest : chosen.pick] {
          named.insert("\(entry.key.backend) [\(entry.key.variant)]")
        }
      }
    }
    return named
  }

  /// The classes of every variant the run measured, for `classes.csv` (the charts read it): header first. `named`:
  /// whether the answer names the variant (``namedVariants``).
  public var classRows: [[String]] {
    var seen = Set<String>()
    let named = namedVariants
    var rows = [
      [
        "backend", "variant", "label", SampleColumn.declaredDurability.rawValue, "durability", "measured",
        "evidence", "named",
      ]
    ]
    for workload in workloads {
      for entry in workload.groups.flatMap(\.entries)
      where seen.insert("\(entry.key.backend) [\(entry.key.variant)]").inserted {
        rows.append([
          entry.key.backend, entry.key.variant, entry.label, entry.durability.declared.rawValue,
          entry.durability.promise.rawValue, entry.durability.measured ? "yes" : "no",
          entry.durability.evidence,
          named.contains("\(entry.key.backend) [\(entry.key.variant)]") ? "yes" : "no",
        ])
      }
    }
    return rows
  }

  /// Declared classes that a measurement contradicts, one warning each.
  public var contradictions: [String] {
    var seen = Set<String>()
    return workloads.flatMap { $0.groups.flatMap(\.entries) }.compactMap { entry in
      guard let text = entry.durability.contradiction, seen.insert(entry.label).inserted else { return nil }
      return "\(entry.label): \(text)"
    }.sorted()
  }
}
