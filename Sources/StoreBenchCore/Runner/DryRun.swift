import Foundation

/// `storebench run --dry-run`: the plan and what bounds its duration, without running or writing anything.
enum DryRun {
  /// Starting and finishing a run outside any case: the binary's fingerprint, machine facts, the disk floors at both
  /// ends and the reports (1.8 s for a one-row run here, release build; scripts/check-dry-run-bound checks the
  /// whole).
  static let startAndFinishSeconds = 2.5

  static func describe(
    _ scenario: Scenario,
    cases: [RunPlan.PlannedCase],
    workloads: WorkloadRegistry, bound dataBound: ResourceBound
  ) -> String {
    var lines = ["scenario \(scenario.name) (\(scenario.file)): \(cases.count) cases; \(scenario.policy)", ""]
    for item in cases {
      let backend = item.backend.map { "\($0.backend) [\($0.variant)]" } ?? "process"
      lines.append("  \(item.workload) \(item.parameters) — \(backend)")
    }
    let policy = scenario.policy
    // What counts in no case's cap is added to the bound: generating the data, starting and finishing the run
    // (the binary's fingerprint, machine facts, the disk floors at both ends, the reports), and the repetition a
    // case is in when its cap is reached (at least its floor: filling and verifying its records).
    let outsideCases = dataBound.generationSeconds + Self.startAndFinishSeconds
    let perCase = policy.caseSeconds.map {
      Double(cases.count) * $0 + outsideCases + dataBound.repetitionFloorSeconds
    }
    var bound: String
    switch (perCase, policy.budgetSeconds) {
    case (let perCase?, let budget?):
      bound =
        "at most about \(MarkdownTable.clock(min(perCase, budget + outsideCases) * 1.1)) ("
        + (perCase <= budget
          ? "\(cases.count) cases × \(MarkdownTable.clock(policy.caseSeconds!)) each, under the budget of \(MarkdownTable.clock(budget))"
          : "the budget of \(MarkdownTable.clock(budget)), less than \(cases.count) cases × \(MarkdownTable.clock(policy.caseSeconds!)) each")
        + ", and 10% for the repetitions under way when it is spent; one slow repetition may overrun its case's cap)"
    case (let perCase?, nil):
      bound =
        "at most about \(MarkdownTable.clock(perCase * 1.1)) (\(cases.count) cases × \(MarkdownTable.clock(policy.caseSeconds!)) each; "
        + "one slow repetition may overrun its case's cap)"
    case (nil, let budget?):
      bound =
        "at most about \(MarkdownTable.clock(budget * 1.1 + outsideCases)) (the budget), after one measured repetition of every case"
    case (nil, nil):
      bound =
        "not bounded: no case cap and no budget (set --case-seconds or --budget); "
        + "\(policy.warmup) warm-up and \(policy.minimum)–\(policy.maximum) repetitions per case"
    }
    bound +=
      "; included: generating the data (about \(MarkdownTable.clock(dataBound.generationSeconds))) and starting and "
      + "finishing the run (\(MarkdownTable.clock(Self.startAndFinishSeconds)))"
    lines += ["", dataBound.description, "estimated duration: \(bound)", "dry run: nothing was run or written"]
    return lines.joined(separator: "\n") + "\n"
  }
}
