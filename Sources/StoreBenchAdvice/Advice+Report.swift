import Foundation
import StoreBenchAnalysis
import StoreBenchContract

/// `advice.md` and `advice.json`: the recommendation first, then the runner-ups with why each lost, the strategies
/// that fail the need, and where every number was measured.
extension Advice {
  /// Where the answer was measured: machine, file system, date, build.
  public struct Provenance: Sendable {
    public var host: String
    public var cpu: String
    public var cores: Int
    public var kernel: String
    public var fileSystem: String
    public var date: String
    public var commit: String
    public var runDirectory: String
    public var crashTrials: String

    public init(
      host: String, cpu: String, cores: Int, kernel: String, fileSystem: String, date: String, commit: String,
      runDirectory: String, crashTrials: String
    ) {
      (self.host, self.cpu, self.cores, self.kernel, self.fileSystem) = (host, cpu, cores, kernel, fileSystem)
      (self.date, self.commit, self.runDirectory, self.crashTrials) = (date, commit, runDirectory, crashTrials)
    }
  }

  static func time(_ seconds: Double) -> String {
    if seconds >= 1 { return String(format: "%.2f s", seconds) }
    if seconds >= 0.001 { return String(format: "%.1f ms", seconds * 1_000) }
    return String(format: "%.0f µs", seconds * 1_000_000)
  }

  /// "16.7", "100", "0.25": a budget or frequency as written.
  static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%g", value)
  }

  static func bytes(_ value: Double) -> String {
    let units = ["B", "KB", "MB", "GB", "TB"]
    var value = value
    var unit = 0
    while value >= 1_000 && unit < units.count - 1 {
      value /= 1_000
      unit += 1
    }
    return unit == 0 ? "\(Int(value)) B" : String(format: "%.1f %@", value, units[unit])
  }

  /// The fewest measured repetitions of any of the strategy's operations.
  static func fewest(_ strategy: Strategy) -> Int { strategy.operations.map(\.repetitions).min() ?? 0 }

  /// "2.31 s a day (95% interval 2.20–2.45 s)"; without the interval when an operation has fewer repetitions than
  /// ``minimumRepetitions`` (a resample of 3 repetitions says little about spread), naming it.
  func cost(_ strategy: Strategy) -> String {
    guard let cost = strategy.costPerDay else { return "not costed" }
    let short = strategy.operations.filter { $0.repetitions < minimumRepetitions }
    if let first = short.min(by: { $0.repetitions < $1.repetitions }) {
      return
        "\(Self.time(cost)) a day (n=\(first.repetitions) on \(first.operation.rawValue): too few repetitions "
        + "for an interval)"
    }
    let interval = strategy.costInterval.map { " (95% interval \(Self.time($0.low))–\(Self.time($0.high)))" } ?? ""
    return "\(Self.time(cost)) a day\(interval)"
  }

  /// " (95% interval up to 14.0 ms)": the value a budget is held against, where it is not the figure itself.
  static func upperEnd(_ check: BudgetCheck) -> String {
    guard let judgement = check.judgement, judgement.interval != nil else { return "" }
    return " (95% interval up to \(near(judgement.judged, check.budget.milliseconds / 1_000)))"
  }

  /// `seconds` as ``time(_:)`` writes it, with the µs shown when it is within 1% of `limit` (so "5.001 ms" and
  /// "5 ms" do not read as the same figure).
  static func near(_ seconds: Double, _ limit: Double) -> String {
    abs(seconds - limit) < limit * 0.01 ? String(format: "%.3f ms", seconds * 1_000) : time(seconds)
  }

  static func budgets(_ strategy: Strategy) -> String {
    let out = strategy.budgets.first { $0.dropped != nil }
    return strategy.budgets.map { check in
      let limit = "\(Self.number(check.budget.milliseconds)) ms"
      if let out, check.dropped == nil, check.outcome == .notMeasuredEnough {
        return "\(check.operation.rawValue): not measured further (the strategy misses its "
          + "\(out.operation.rawValue) budget)"
      }
      guard let measured = check.measured else { return "\(check.operation.rawValue): not measured" }
      let basis = strategy.operations.first { $0.operation == check.operation }?.percentileBasis ?? ""
      // A figure from fewer repetitions than a verdict needs is shown, never judged against its budget.
      let relation =
        switch check.outcome {
        case .met: "≤"
        case .missed: ">"
        case .notMeasuredEnough: "vs"
        }
      let thin = check.outcome == .notMeasuredEnough ? "; not measured enough: \(check.minimum) needed" : ""
      if check.dropped != nil {
        return
          "\(check.operation.rawValue) p\(check.budget.percentile) > \(limit) (stopped early: see the verdict)"
      }
      return
        "\(check.operation.rawValue) p\(check.budget.percentile) \(time(measured))\(Self.upperEnd(check)) \(relation) "
        + "\(limit) (\(basis)\(thin))"
    }.joined(separator: "; ")
  }

  /// "1.26× [1.08–1.42] slower": the cost ratio against the recommendation in the one vocabulary (``RatioClaim``).
  func claim(_ strategy: Strategy) -> String? {
    guard let ratio = strategy.ratio, let best = recommendation else { return nil }
    return RatioClaim(
      ratio: ratio.median, interval: ratio.low...ratio.high, counts: (Self.fewest(strategy), Self.fewest(best)),
      minimumCount: minimumRepetitions
    ).text
  }

  /// Why `strategy` is not the recommendation, in one sentence.
  public func reason(_ strategy: Strategy) -> String {
    switch strategy.verdict {
    case .recommended: return "recommended"
    case .tied:
      return "tied: its cost a day is " + (claim(strategy) ?? "not comparable") + " against the recommendation's"
    case .candidate:
      return "meets everything measured, but the answer waits for the strategies not measured enough"
    case .notMeasuredEnough:
      return "not measured enough to judge: " + strategy.missingEvidence.joined(separator: "; ")
    case .costlier:
      return "costlier: "
        + (claim(strategy).map { "its cost a day is \($0) against the recommendation's" }
          ?? "more storage time a day")
    case .missesBudget:
      return "misses "
        + strategy.budgets.filter { $0.outcome == .missed }.map { check in
          if let dropped = check.dropped {
            return "\(check.operation.rawValue) p\(check.budget.percentile) (budget "
              + "\(Self.number(check.budget.milliseconds)) ms): \(dropped)"
          }
          guard let measured = check.measured else {
            let why = strategy.operations.first { $0.operation == check.operation }?.percentileBasis ?? ""
            return "\(check.operation.rawValue) (no figure\(why.isEmpty ? "" : ": " + why))"
          }
          let over = (check.judged ?? measured) * 1_000 / check.budget.milliseconds
          return
            "\(check.operation.rawValue): p\(check.budget.percentile) \(Self.time(measured))\(Self.upperEnd(check)), "
            + (over < 1.05
              ? "over the \(Self.number(check.budget.milliseconds)) ms budget"
              : String(format: "%.1f× the %@ ms budget", over, Self.number(check.budget.milliseconds)))
        }.joined(separator: "; ")
        // A store that also loses the extension's updates says so: a budget is not its only failure.
        + (strategy.sharing.map {
          $0.outcome != .fails
            ? ""
            : "; and fails the need (one store for the app and its "
              + "extension): \($0.phrase)"
        } ?? "")
    case .failsNeed:
      if let sharing = strategy.sharing, sharing.outcome == .fails {
        return "fails the need (one store for the app and its extension): \(sharing.phrase)"
      }
      // With a loss window, the durability cell beside the verdict holds the class and the window.
      return "fails the need (\(profile.needPhrase))"
        + (strategy.lossWindow == nil ? ": " + (strategy.durability?.label ?? "no durability known") : "")
    case .cannotRun:
      return "cannot run the profile: "
        + strategy.operations.compactMap { result in
          result.problem.map { "\(result.operation.rawValue) \($0)" }
            ?? (result.perOp.isEmpty ? "\(result.operation.rawValue) not measured" : nil)
        }.joined(separator: "; ")
    }
  }

  /// The answer as Markdown; `chart` is a path relative to the answer's folder, when drawn; `growth`, the answer
  /// again at the grown size, when the profile grows.
  /// `powerCut`: what a power cut can take from the strategies that lost saves (``UnsyncedEvidence/section(crashes:label:)``).
  public func markdown(
    _ provenance: Provenance, chart: String?, growth: AdviceGrowth? = nil, powerCut: [String] = []
  ) -> String {
    var lines = [ClaimSyntax.renderedMarker("advice"), "# storebench advise: \(profile.name)", ""]
    if !profile.description.isEmpty { lines += ["_\(profile.description)_", ""] }
    if let best = recommendation {
      lines += [
        "**Recommendation: \(best.label)**", "",
        "It meets every budget (\(Self.budgets(best).isEmpty ? "none given" : Self.budgets(best))), "
          + "\(best.durability?.label ?? "durability unknown")"
          + (best.lossWindow.map { " (\($0.phrase))" } ?? "") + ", and costs \(cost(best)) of storage time"
          + (best.bytesPerDay.map { ", \(Self.bytes($0)) written" } ?? "")
          + (best.syncsPerDay.map { String(format: " and %.0f syncs", $0) } ?? "") + " a day."
          + (best.sharing.map { " With its extension on the same store: \($0.phrase)." } ?? ""),
      ]
      let tied = strategies.filter { $0.verdict == .tied }
      if !tied.isEmpty {
        lines += [
          "",
          "Tied with it (their cost ratio is equivalent, within ±10%, or indistinguishable: its interval "
            + "includes 1, or an operation has fewer than \(minimumRepetitions) repetitions to tell them "
            + "apart; the recommendation is the tied strategy with the strongest durability class): "
            + tied.map { "**\($0.label)**" }.joined(separator: ", ") + ".",
        ]
      }
    } else if noAnswerYet {
      let thin = strategies.filter { $0.verdict == .notMeasuredEnough }
      lines += [
        "**No answer yet: \(thin.count) of \(strategies.count) strategies are not measured enough to be "
          + "judged**, and any of them might be the cheapest that meets everything. A budget met or missed, "
          + "no lost update and a recommendation each need \(minimumRepetitions) repetitions (the first "
          + "look); what each strategy still needs is in its verdict below. Ask again with more "
          + "`run_seconds`"
          + (thin.allSatisfy { $0.secondsToDecide != nil }
            ? " (about \(Self.time(thin.reduce(0) { $0 + ($1.secondsToDecide ?? 0) })) more would decide "
              + "them at the rates measured: "
              + thin.map { "\($0.label) \(Self.time($0.secondsToDecide ?? 0))" }.joined(separator: ", ")
              + ")"
            : "") + ", or with fewer candidates."
      ]
    } else {
      lines += [
        "**No strategy meets everything this profile asks.** Each one's failure is below; relax a budget, "
          + "the durability need, or the data size, and ask again."
      ]
    }
    lines += [
      "",
      "Need: \(profile.needPhrase)"
        + (profile.processes.map {
          "; an extension shares the store: no lost update, at most \(Self.number($0.refusedPercent))% of "
            + "operations refused"
        } ?? "") + ". A day: "
        + profile.perDay.sorted { $0.key < $1.key }
        .filter { $0.value > 0 }.map { "\(Self.number($0.value)) × \($0.key.phrase)" }.joined(separator: ", ")
        + ".",
    ]
    if let chart { lines += ["", "![The strategies' times per operation](\(chart))"] }
    lines += [
      "", "## Every strategy", "",
      "| strategy | cost a day (95% interval) | budgets | durability | verdict |", "|---|---|---|---|---|",
    ]
    for strategy in strategies {
      lines.append(
        "| \(strategy.label) | \(cost(strategy)) | \(Self.budgets(strategy)) | "
          + "\(strategy.durability?.label ?? "unknown")"
          + (strategy.lossWindow.map { "; \($0.phrase)" } ?? "") + " | \(reason(strategy)) |")
    }
    if !notConsidered.isEmpty {
      lines += [
        "",
        "Not considered: " + notConsidered.map { "\($0.candidate) (\($0.reason))" }.joined(separator: "; ")
          + ".",
      ]
    }
    if !powerCut.isEmpty { lines += [""] + powerCut.dropLast() }
    lines += [
      "", "## Per operation", "", "What one operation is (the workload and the unit of work that timed it):", "",
    ]
    for measure in measures {
      lines.append("- **\(measure.operation.rawValue)**: \(measure.unit).")
    }
    lines += [
      "",
      "| strategy | " + measures.map(\.operation.rawValue).joined(separator: " | ") + " |",
      "|---|" + String(repeating: "---:|", count: measures.count),
    ]
    for strategy in strategies {
      let cells = strategy.operations.map { result in
        // At the level of advise's look schedule: a row may stop at any of its looks.
        guard result.problem == nil, let statistics = Statistics(result.perOp, schedule: AdvicePlan.schedule)
        else { return "–" }
        let claim = MedianClaim(
          median: statistics.median, interval: statistics.medianInterval.map { $0.low...$0.high },
          count: result.repetitions, minimumCount: minimumRepetitions)
        return claim.text + (result.flags.isEmpty ? "" : " ⚠ " + result.flags.joined(separator: ", "))
      }
      lines.append("| \(strategy.label) | " + cells.joined(separator: " | ") + " |")
    }
    let counted = strategies.filter { $0.operations.contains { $0.syncs != nil } }
    if !counted.isEmpty {
      lines += [
        "", "Syncs (fsync, fdatasync, msync) per operation, the median over the repetitions:", "",
        "| strategy | " + measures.map(\.operation.rawValue).joined(separator: " | ") + " |",
        "|---|" + String(repeating: "---:|", count: measures.count),
      ]
      for strategy in counted {
        let cells = strategy.operations.map { result in
          result.syncs.map { String(format: "%.3g", $0) } ?? "–"
        }
        lines.append("| \(strategy.label) | " + cells.joined(separator: " | ") + " |")
      }
    }
    lines += [
      "",
      "The median time of one operation over the measured repetitions, with the distribution-free 95% interval "
        + "of that median and the repetitions (an operation with fewer than \(minimumRepetitions) shows none); "
        + "⚠ contended: the machine was busy with other work while it was measured. The cost a day is each operation's "
        + "frequency times its median, summed; its interval resamples every operation's repetitions together "
        + "(2,000 resamples). A cost ratio is *slower* when its interval lies above 1 and outside the ±10% tie "
        + "margin, *equivalent* when it lies within it, *indistinguishable* when it includes 1 but is wider "
        + "(not settled); the last two are tied (docs/MEASURING.md).",
    ]
    lines += growth?.lines ?? []
    lines += [
      "", "## Measured on this machine", "",
      "Everything above was measured here, on \(provenance.date): \(provenance.host), \(provenance.cpu) "
        + "(\(provenance.cores) cores), kernel \(provenance.kernel), file system \(provenance.fileSystem), "
        + "storebench \(provenance.commit). Run: `\(provenance.runDirectory)`; crash trials: \(provenance.crashTrials). "
        + "What carries over to iOS and macOS, and what to re-run there: docs/PLATFORMS.md in the storebench repository.",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// The answer as advice.json's bytes.
  public func json(_ provenance: Provenance, growth: AdviceGrowth? = nil) throws -> Data {
    try record(provenance, growth: growth).encoded()
  }

  /// The answer as advice.json's typed record.
  public func record(_ provenance: Provenance, growth: AdviceGrowth? = nil) -> AdviceRecord {
    AdviceRecord(
      profile: profile.name, profileFile: profile.file, need: profile.need.rawValue,
      recommendation: NullOr(recommendation.map { .init(backend: $0.backend, variant: $0.variant) }),
      answer: recommendation != nil ? "recommendation" : noAnswerYet ? "no-answer-yet" : "no-strategy",
      strategies: strategies.map(record),
      notConsidered: notConsidered.map { .init(candidate: $0.candidate, reason: $0.reason) },
      measuredOn: .init(
        host: provenance.host, cpu: provenance.cpu, kernel: provenance.kernel, date: provenance.date,
        storebench: provenance.commit, run: provenance.runDirectory, cores: provenance.cores,
        fileSystem: provenance.fileSystem, crashTrials: provenance.crashTrials),
      lossWindowMilliseconds: profile.lossWindowMilliseconds, growth: growth?.record)
  }

  private func record(_ strategy: Strategy) -> AdviceRecord.Strategy {
    AdviceRecord.Strategy(
      backend: strategy.backend, variant: strategy.variant, verdict: "\(strategy.verdict)", reason: reason(strategy),
      meetsBudgets: strategy.meetsBudgets, meetsNeed: strategy.meetsNeed, costPerDay: strategy.costPerDay,
      costInterval: strategy.costInterval.map { [$0.low, $0.high] },
      costRatio: strategy.ratio.map { [$0.median, $0.low, $0.high] }, writtenBytesPerDay: strategy.bytesPerDay,
      syncsPerDay: strategy.syncsPerDay,
      durability: strategy.durability.map {
        .init(promise: $0.promise.rawValue, measured: $0.measured, evidence: $0.evidence)
      },
      lossWindow: strategy.lossWindow?.record,
      sharing: strategy.sharing.map { sharing in
        .init(
          lostUpdates: sharing.lostUpdates, refusals: sharing.refusals, operations: sharing.operations,
          refusedPercent: sharing.refusedPercent, allowedRefusedPercent: sharing.allowedPercent,
          repetitions: sharing.repetitions, exercisedRepetitions: sharing.exercised, outcome: "\(sharing.outcome)",
          met: sharing.met)
      },
      budgets: strategy.budgets.map { check in
        .init(
          operation: check.operation.rawValue, percentile: check.budget.percentile,
          budgetMilliseconds: check.budget.milliseconds, measuredMilliseconds: check.measured.map { $0 * 1_000 },
          judgedMilliseconds: check.judged.map { $0 * 1_000 }, met: check.met, outcome: "\(check.outcome)",
          repetitions: check.repetitions)
      },
      operations: strategy.operations.map { result in
        .init(
          operation: result.operation.rawValue, perOperation: result.perOp, repetitions: result.repetitions,
          noise: result.flags, unit: measures.first { $0.operation == result.operation }?.unit,
          syncsPerOperation: result.syncs, problem: result.problem)
      })
  }
}
