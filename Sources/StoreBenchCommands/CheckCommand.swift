import ArgumentParser
import Foundation
import StoreBenchCore

/// `storebench check --budgets FILE RUN`: absolute limits on a run's rows, for a CI gate.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Hold a run's rows to absolute budgets (a latency percentile, syncs or bytes per operation, bytes a day, store size, peak memory).",
        discussion: """
            BUDGETS is a YAML file of limits, each on the rows its workload, backend and variant globs match \
            (docs/COMPARING.md, "Budgets"). A latency, count or bytes per operation is judged on the upper end of its \
            median's 95% interval, or on the median with its n where the row has too few repetitions for one; a size \
            on its largest repetition. Prints every judgement as Markdown; --summary FILE also writes the short page \
            a CI step shows (the verdict, then only the broken budgets). \
            Exit codes: 0 every budget kept; 1 the run folder cannot be used; 2 a budget broken (or a row it covers \
            failed); 64 a bad budgets file, a budget that matches no row or a metric the run did not record.
            """
    )

    @Option(help: "The budgets file (YAML).") var budgets: String
    @Argument(help: "The run directory to judge.") var runDirectory: String
    @Option(help: "Also write the CI page's summary (Markdown) to this file.") var summary: String?
    @Option(help: "The link or path of the full report the summary points to (default: the run directory).")
    var reportLink: String?

    func run() throws {
        let check = try failing(.badInput) { () throws -> BudgetCheck in
            let file = try BudgetFile.read(budgets)
            let folder = try RunFolder(runDirectory)
            if let summary {
                // A summary storebench would refuse to write (an input, a symlink, a path too long) is bad input.
                do {
                    try AtomicFile.checkTarget(
                        URL(fileURLWithPath: summary), inputs: folder.files + [URL(fileURLWithPath: budgets)])
                } catch {
                    throw CommandFailure(exit: .badInput, message: "storebench check: --summary: \(error)")
                }
            }
            return try BudgetCheck(file, run: folder)
        }
        if let summary {
            try failing(.failure) {
                try AtomicFile.write(
                    Data(check.summary(fullReport: reportLink ?? runDirectory).utf8), to: URL(fileURLWithPath: summary),
                    inputs: [URL(fileURLWithPath: budgets), URL(fileURLWithPath: runDirectory)])
            }
        }
        print(check.markdown(), terminator: "")
        if !check.broken.isEmpty { throw ExitCode(.regression) }
    }
}

extension CheckCommand: Exemplified {
    static var example: [String] { ["check", "--budgets", "{BUDGETS}", "{RUN}", "--summary", "{OUT}"] }
    static var output: OutputShape { .file }
}
