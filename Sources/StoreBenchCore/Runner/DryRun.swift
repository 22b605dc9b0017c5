import Foundation

/// `storebench run --dry-run`: the plan and what bounds its duration, without running or writing anything.
enum DryRun {
    static func describe(_ scenario: Scenario, cases: [(workload: String, parameters: WorkloadParameters, backend: Scenario.BackendEntry?)],
                         workloads: WorkloadRegistry, bound dataBound: ResourceBound) -> String {
        var lines = ["scenario \(scenario.name) (\(scenario.file)): \(cases.count) cases; \(scenario.policy)", ""]
        for item in cases {
            let backend = item.backend.map { "\($0.backend) [\($0.variant)]" } ?? "process"
            lines.append("  \(item.workload) \(item.parameters) — \(backend)")
        }
        let policy = scenario.policy
        // Data generation comes before the first repetition and counts in no case's cap: it is added to the bound.
        let generation = dataBound.generationSeconds
        let perCase = policy.caseSeconds.map { Double(cases.count) * $0 + generation }
        var bound: String
        switch (perCase, policy.budgetSeconds) {
        case let (perCase?, budget?):
            bound = "at most about \(Runner.clock(min(perCase, budget + generation) * 1.1)) (" + (perCase <= budget
                ? "\(cases.count) cases × \(Runner.clock(policy.caseSeconds!)) each, under the budget of \(Runner.clock(budget))"
                : "the budget of \(Runner.clock(budget)), less than \(cases.count) cases × \(Runner.clock(policy.caseSeconds!)) each")
                + ", and 10% for the repetitions under way when it is spent; one slow repetition may overrun its case's cap)"
        case let (perCase?, nil):
            bound = "at most about \(Runner.clock(perCase * 1.1)) (\(cases.count) cases × \(Runner.clock(policy.caseSeconds!)) each; "
                + "one slow repetition may overrun its case's cap)"
        case let (nil, budget?):
            bound = "at most about \(Runner.clock(budget * 1.1 + generation)) (the budget), after one measured repetition of every case"
        case (nil, nil):
            bound = "not bounded: no case cap and no budget (set --case-seconds or --budget); "
                + "\(policy.warmup) warm-up and \(policy.minimum)–\(policy.maximum) repetitions per case"
        }
        if generation >= 0.05 { bound += "; generating the data first: about \(Runner.clock(generation)), included" }
        lines += ["", dataBound.description, "estimated duration: \(bound)", "dry run: nothing was run or written"]
        return lines.joined(separator: "\n") + "\n"
    }
}
