import Foundation
import StoreBenchAnalysis

/// What growth does to an answer (`growth:` in the profile): the profile measured again at the size its growth
/// reaches — or, when this machine cannot hold a run that large, at the largest size it can, said plainly — judged the
/// same way, and set beside today's answer: whether the recommendation holds, and where within the horizon it
/// changes or a budget is first missed. Sizes between the two measured ones are estimated on the straight line
/// through both measurements, and said to be estimates.
public struct AdviceGrowth: Sendable {
  /// The sizes involved, as advise recorded them (`growth.json`).
  public struct Sizes: Codable, Sendable, Equatable {
    public var today: Int
    public var horizon: Int
    /// What was measured: the horizon, or the largest size this machine could hold.
    public var measured: Int
    public var recordsPerDay: Int
    public var horizonDays: Int
    /// Why the horizon itself was not measured (the run's own refusal), when it was not.
    public var limit: String?

    public init(today: Int, horizon: Int, measured: Int, recordsPerDay: Int, horizonDays: Int, limit: String?) {
      (self.today, self.horizon, self.measured) = (today, horizon, measured)
      (self.recordsPerDay, self.horizonDays, self.limit) = (recordsPerDay, horizonDays, limit)
    }
  }

  public let sizes: Sizes
  public let today: Advice
  public let grown: Advice

  public init(sizes: Sizes, today: Advice, grown: Advice) {
    (self.sizes, self.today, self.grown) = (sizes, today, grown)
  }

  /// The size at which a quantity measured as `atToday` today and `atGrown` at the measured size reaches `target`
  /// on the straight line through both; nil unless it is below the target today and at or above it there.
  public static func crossing(_ atToday: Double, _ atGrown: Double, target: Double, from today: Int, to grown: Int)
    -> Int?
  {
    guard atToday < target, atGrown >= target, atGrown > atToday else { return nil }
    return today + Int((Double(grown - today) * (target - atToday) / (atGrown - atToday)).rounded(.up))
  }

  /// "about 512,000 records (day 156 at 2,000 a day)": an estimate, to three significant digits.
  func place(_ size: Int) -> String {
    let day = Int((Double(size - sizes.today) / Double(sizes.recordsPerDay)).rounded(.up))
    return "about \(Self.count(Self.threeDigits(size, .toNearestOrAwayFromZero))) records (day \(day) at "
      + "\(Self.count(sizes.recordsPerDay)) a day)"
  }

  /// `value` to three significant digits (463,281 → 463,000 down, 463,000 to nearest; 877 stays 877).
  public static func threeDigits(_ value: Int, _ rule: FloatingPointRoundingRule) -> Int {
    var unit = 1
    while value / unit >= 1_000 { unit *= 10 }
    return Int((Double(value) / Double(unit)).rounded(rule)) * unit
  }

  static func count(_ value: Int) -> String { MarkdownTable.grouped(Double(value)) }

  private func same(_ a: Advice.Strategy, _ b: Advice.Strategy) -> Bool {
    a.backend == b.backend && a.variant == b.variant
  }

  /// The strategy at the measured size that is `strategy` today.
  private func grownTwin(_ strategy: Advice.Strategy) -> Advice.Strategy? {
    grown.strategies.first { same($0, strategy) }
  }

  /// Budgets a strategy meets today and misses at the measured size, each with the estimated size it is first
  /// missed at.
  func firstMissed(_ strategy: Advice.Strategy) -> [String] {
    guard let twin = grownTwin(strategy) else { return [] }
    return strategy.budgets.compactMap { check -> String? in
      guard check.met, let now = check.measured,
        let later = twin.budgets.first(where: { $0.operation == check.operation }), !later.met,
        let then = later.measured
      else { return nil }
      let limit = check.budget.milliseconds / 1_000
      let at = Self.crossing(now, then, target: limit, from: sizes.today, to: sizes.measured)
      return
        "\(check.operation.rawValue) p\(check.budget.percentile) (\(Advice.number(check.budget.milliseconds)) ms; "
        + "measured \(Advice.time(now)) today, \(Advice.time(then)) at \(Self.count(sizes.measured)))"
        + (at.map { ", first missed at \(place($0))" } ?? "")
    }
  }

  /// Whether the measured size's recommendation is today's, or tied with it there.
  public var holds: Bool {
    guard let now = today.recommendation else { return grown.recommendation == nil }
    guard let twin = grownTwin(now) else { return false }
    return twin.verdict == .recommended || twin.verdict == .tied
  }

  /// The growth section of advice.md.
  public var lines: [String] {
    var lines = [
      "", "## Growth", "",
      "The profile grows by \(Self.count(sizes.recordsPerDay)) records a day for \(sizes.horizonDays) days: from "
        + "\(Self.count(sizes.today)) records today to \(Self.count(sizes.horizon)) at the horizon. "
        + (sizes.measured < sizes.horizon
          ? "This machine cannot hold a run at the horizon's size (\(sizes.limit ?? "refused")); the largest "
            + "it can, \(Self.count(sizes.measured)) records, was measured instead: what is said below "
            + "holds up to that size, not to the horizon."
          : "Every strategy was measured again at \(Self.count(sizes.measured)) records (growth-run/, "
            + "growth-scenario.yaml); the durability classes are today's crash trials'."),
      "",
    ]
    let at = Self.count(sizes.measured)
    switch (today.recommendation, grown.recommendation) {
    case (nil, nil):
      lines.append("No strategy meets everything today, nor at \(at) records.")
    case (nil, let later?):
      lines.append("No strategy meets everything today; at \(at) records **\(later.label)** does.")
    case (let now?, nil):
      lines.append(
        "At \(at) records no strategy meets everything: today's recommendation **\(now.label)** "
          + (grownTwin(now).map { grown.reason($0) } ?? "was not measured there") + ".")
    case (let now?, let later?):
      if same(now, later) {
        lines.append(
          "At \(at) records the recommendation holds: **\(now.label)**, \(grown.cost(later)) "
            + "(today \(today.cost(now))).")
      } else if let twin = grownTwin(now), twin.verdict == .tied {
        lines.append(
          "At \(at) records the recommendation is **\(later.label)**, and today's, **\(now.label)**, is "
            + "\(grown.reason(twin)): the recommendation holds within what the runs can tell apart.")
      } else {
        lines.append(
          "At \(at) records the recommendation changes to **\(later.label)** (\(grown.cost(later))); "
            + "today's, **\(now.label)**, is there "
            + (grownTwin(now).map { grown.reason($0) } ?? "not measured") + ".")
        if let todayLater = today.strategies.first(where: { same($0, later) }),
          let c0 = now.costPerDay, let c1 = grownTwin(now)?.costPerDay,
          let d0 = todayLater.costPerDay, let d1 = later.costPerDay,
          let size = Self.crossing(c0 - d0, c1 - d1, target: 0, from: sizes.today, to: sizes.measured)
        {
          lines.append(
            "Their costs a day cross at \(place(size)), estimated on the straight line between the two "
              + "measured sizes.")
        }
      }
    }
    let missed = today.strategies.filter(\.meetsBudgets).compactMap { strategy -> String? in
      let budgets = firstMissed(strategy)
      return budgets.isEmpty ? nil : "- \(strategy.label): " + budgets.joined(separator: "; ")
    }
    if missed.isEmpty {
      lines += ["", "No strategy that meets its budgets today misses one at \(at) records."]
    } else {
      lines +=
        [
          "",
          "Budgets met today and missed at \(at) records (where first missed: estimated on the straight "
            + "line between the two measured sizes):", "",
        ] + missed
    }
    return lines
  }

  /// The growth part of advice.json.
  public var record: AdviceRecord.Growth {
    AdviceRecord.Growth(
      todayRecords: sizes.today, horizonRecords: sizes.horizon, measuredRecords: sizes.measured,
      recordsPerDay: sizes.recordsPerDay, horizonDays: sizes.horizonDays, holds: holds,
      recommendationAtMeasured: NullOr(grown.recommendation.map { .init(backend: $0.backend, variant: $0.variant) }),
      limit: sizes.limit)
  }
}
