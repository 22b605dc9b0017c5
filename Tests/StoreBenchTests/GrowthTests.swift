import Foundation
import StoreBenchAdvice
import StoreBenchBackends
import StoreBenchCore
import StoreBenchStandard
import Testing

/// `growth:` in a profile: parsing, the grown profile, where a line between two measured sizes crosses a limit, and
/// the growth answer on known numbers.
@Suite("Growth")
struct GrowthTests {
  static let growing = """
    name: t
    data: {records: 1000, summary_bytes: 400}
    per_day: {launch: 10, save: 100}
    budgets: {save: {ms: 16.7}, launch: {ms: 100, percentile: p90}}
    durability: power-loss
    growth: {records_per_day: 1000, horizon_days: 4, run_seconds: 900}
    """

  @Test("growth parses strictly; the grown profile has the horizon's records and the growth's run budget")
  func parse() throws {
    let profile = try AdviceTests.profile(Self.growing)
    #expect(profile.growth == AppProfile.Growth(recordsPerDay: 1_000, horizonDays: 4, runSeconds: 900))
    #expect(profile.todaySize == 1_000 && profile.horizonSize == 5_000)
    let grown = profile.grown(to: 5_000)
    #expect(grown.data.records == 5_000 && grown.runSeconds == 900 && grown.growth == nil)
    #expect(grown.data.parameters == profile.data.parameters && grown.perDay == profile.perDay)
    for (text, message) in [
      ("growth: {records_per_day: 10}", "p.yaml: growth.horizon_days: required key is missing"),
      ("growth: {records_per_day: 10, horizon_days: 5, rate: 1}", "p.yaml: growth.rate: unknown key"),
      ("growth: {records_per_day: 0, horizon_days: 5}", "p.yaml: growth.records_per_day"),
      ("growth: {records_per_day: 100000, horizon_days: 365}", "p.yaml: growth: reaches 36501000 records"),
    ] {
      let body = "name: t\ndata: {records: 1000}\nper_day: {save: 1}\ndurability: kill\n" + text
      #expect(throws: ScenarioError.self) { try AdviceTests.profile(body) }
      do { _ = try AdviceTests.profile(body) } catch { #expect("\(error)".hasPrefix(message), "\(error)") }
    }
  }

  @Test("the straight line between two measured sizes: known crossings, none when the limit is not crossed")
  func crossing() {
    #expect(AdviceGrowth.crossing(10, 30, target: 20, from: 100, to: 200) == 150)
    #expect(AdviceGrowth.crossing(10, 30, target: 30, from: 100, to: 200) == 200)
    #expect(AdviceGrowth.crossing(10, 19, target: 20, from: 100, to: 200) == nil)
    #expect(AdviceGrowth.crossing(25, 30, target: 20, from: 100, to: 200) == nil)
    #expect(AdviceGrowth.crossing(-0.2, 1.7, target: 0, from: 1_000, to: 5_000) == 1_422)
  }

  @Test(
    "growth answer on known numbers: the recommendation changes, where the costs cross and where a budget is first missed; a steady profile holds"
  )
  func answer() throws {
    let profile = try AdviceTests.profile(Self.growing)
    let eight = { (value: Double) in [Double](repeating: value, count: 8) }
    let promise: (String, String) -> DurabilityPromise? = { _, _ in .durable }
    let today = Advice(
      plan: AdvicePlan(profile, backends: .standard(), workloads: .standard),
      table: try AdviceTests.table([("a", "v", eight(0.001), eight(0.05)), ("b", "v", eight(0.003), eight(0.05))]
      ),
      crashes: [:], promise: promise, resamples: 500)
    let grownPlan = AdvicePlan(profile.grown(to: 5_000), backends: .standard(), workloads: .standard)
    let grown = Advice(
      plan: grownPlan,
      table: try AdviceTests.table([("a", "v", eight(0.02), eight(0.05)), ("b", "v", eight(0.003), eight(0.05))]),
      crashes: [:], promise: promise, resamples: 500)
    #expect(today.recommendation?.backend == "a" && grown.recommendation?.backend == "b")
    let sizes = AdviceGrowth.Sizes(
      today: 1_000, horizon: 5_000, measured: 5_000, recordsPerDay: 1_000, horizonDays: 4, limit: nil)
    let growth = AdviceGrowth(sizes: sizes, today: today, grown: grown)
    let text = growth.lines.joined(separator: "\n")
    #expect(!growth.holds)
    #expect(text.contains("from 1,000 records today to 5,000 at the horizon"), "\(text)")
    #expect(text.contains("At 5,000 records the recommendation changes to **"), "\(text)")
    // Costs: a 0.6 → 2.5 s a day, b 0.8 → 0.8: the difference crosses 0 at 1,000 + 4,000 × 0.2 / 1.9.
    #expect(text.contains("Their costs a day cross at about 1,420 records (day 1 at 1,000 a day)"), "\(text)")
    // a's save p99 (1.5× the per-operation time here): 1.5 ms → 30 ms over a 16.7 ms budget.
    #expect(
      text.contains(
        "save p99 (16.7 ms; measured 1.5 ms today, 30.0 ms at 5,000), first missed at about 3,130 records (day 3 at 1,000 a day)"
      ), "\(text)")
    let record = growth.record
    #expect(!record.holds && record.measuredRecords == 5_000)

    let steady = AdviceGrowth(sizes: sizes, today: today, grown: today)
    #expect(steady.holds)
    #expect(steady.lines.joined().contains("the recommendation holds"))
    #expect(steady.lines.joined().contains("No strategy that meets its budgets today misses one at 5,000 records."))

    var limited = sizes
    (limited.measured, limited.limit) = (3_000, "the stores would need about 90 GiB")
    let partial = AdviceGrowth(sizes: limited, today: today, grown: today).lines.joined(separator: "\n")
    #expect(partial.contains("cannot hold a run at the horizon's size (the stores would need about 90 GiB)"))
    #expect(partial.contains("the largest it can, 3,000 records, was measured instead"))
  }
}
