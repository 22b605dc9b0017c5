import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print a run's Markdown summary and write RUN_DIR/report.md with its charts and environment."
    )

    @Argument(help: "A run directory (with samples.csv).") var runDirectory: String

    func run() throws {
        let directory = URL(fileURLWithPath: runDirectory)
        let table = try failing(.failure) { try SampleTable(path: directory.path) }
        var builder = SummaryBuilder()
        // Rows in a stable order (workload, size, backend, variant), not the first round's shuffle.
        let samples = table.samples().sorted {
            ($0.key.workload, $0.key.size, $0.key.backend, $0.key.variant) < ($1.key.workload, $1.key.size, $1.key.backend, $1.key.variant)
        }
        for sample in samples { builder.add(sample) }
        let summary = MarkdownTable.render(builder.summary)
        let registry = BackendRegistry.standard()
        let durability = try? String(contentsOf: directory.appendingPathComponent("durability.csv"), encoding: .utf8)
        let decision = DecisionReport(table: table, promise: { backend, variant in
            (try? registry.resolve(backend: backend, settings: variant)).map { $0.0.promise($0.1) }
        }, crashes: durability.map(CrashResult.read(csv:)) ?? [:], label: { backend, variant in
            // Settings at their defaults are left out of the name.
            guard let (descriptor, resolved) = try? registry.resolve(backend: backend, settings: variant) else { return "\(backend) [\(variant)]" }
            let changed = resolved.settings.filter { setting in descriptor.axes.first { $0.name == setting.name }?.defaultValue != setting.value }
            return changed.isEmpty ? backend : "\(backend) [\(changed.map { "\($0.name)=\($0.value)" }.joined(separator: " "))]"
        }, workloadOrder: WorkloadRegistry.standard.names)
        print(decision.answer)
        print(summary, terminator: "")
        let document = RunReport.markdown(summary: summary, environment: table.environment,
                                          charts: RunReport.charts(in: directory.appendingPathComponent("charts")),
                                          decision: decision)
        try failing(.failure) { try AtomicFile.write(Data(document.utf8), to: directory.appendingPathComponent("report.md")) }
        printError("wrote \(directory.appendingPathComponent("report.md").path)")
    }
}
