import Foundation

/// The scenarios shipped in `scenarios/`, found from the working directory or from the storebench executable
/// (`<package>/.build/<configuration>/storebench`), so `storebench run` works outside the repository.
public enum BundledScenarios {
    /// Where `name` is looked for, in order.
    static func candidates(_ name: String) -> [URL] {
        var places = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("scenarios")]
        if let executable = RunningExecutable.url {
            var directory = executable.deletingLastPathComponent()
            for _ in 0..<4 {
                places.append(directory.appendingPathComponent("scenarios"))
                directory = directory.deletingLastPathComponent()
            }
        }
        return places.map { $0.appendingPathComponent(name) }
    }

    /// The path of the bundled scenario `name`; throws naming every place looked at.
    public static func path(_ name: String) throws -> String {
        let places = candidates(name)
        if let found = places.first(where: { FileManager.default.fileExists(atPath: $0.path) }) { return found.path }
        throw ScenarioError(file: name, path: "", message: "the bundled scenario is not in "
                            + places.map(\.path).joined(separator: ", ") + "; pass --scenario FILE, or --backend and --workload")
    }
}

/// `storebench run --dry-run`: the plan and what bounds its duration, without running or writing anything.
enum DryRun {
    static func describe(_ scenario: Scenario, cases: [(workload: String, parameters: WorkloadParameters, backend: Scenario.BackendEntry?)],
                         workloads: WorkloadRegistry) -> String {
        var lines = ["scenario \(scenario.name) (\(scenario.file)): \(cases.count) cases; \(scenario.policy)", ""]
        for item in cases {
            let backend = item.backend.map { "\($0.backend) [\($0.variant)]" } ?? "process"
            lines.append("  \(item.workload) \(item.parameters) — \(backend)")
        }
        let policy = scenario.policy
        let perCase = policy.caseSeconds.map { Double(cases.count) * $0 }
        var bound: String
        switch (perCase, policy.budgetSeconds) {
        case let (perCase?, budget?):
            bound = "at most about \(Runner.clock(min(perCase, budget) * 1.1)) (\(cases.count) cases × \(Runner.clock(policy.caseSeconds!)) "
                + "each, within the budget of \(Runner.clock(budget)); one slow repetition may overrun its case's cap)"
        case let (perCase?, nil):
            bound = "at most about \(Runner.clock(perCase * 1.1)) (\(cases.count) cases × \(Runner.clock(policy.caseSeconds!)) each; "
                + "one slow repetition may overrun its case's cap)"
        case let (nil, budget?):
            bound = "at most about \(Runner.clock(budget * 1.1)) (the budget), after one measured repetition of every case"
        case (nil, nil):
            bound = "not bounded: no case cap and no budget (set --case-seconds or --budget); "
                + "\(policy.warmup) warm-up and \(policy.minimum)–\(policy.maximum) repetitions per case"
        }
        lines += ["", "estimated duration: \(bound)", "dry run: nothing was run or written"]
        return lines.joined(separator: "\n") + "\n"
    }
}
