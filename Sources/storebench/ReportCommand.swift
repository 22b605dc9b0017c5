import ArgumentParser
import Foundation
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
        for sample in table.samples() { builder.add(sample) }
        let summary = MarkdownTable.render(builder.summary)
        print(summary, terminator: "")
        let document = RunReport.markdown(summary: summary, environment: table.environment,
                                          charts: RunReport.charts(in: directory.appendingPathComponent("charts")))
        try failing(.failure) { try AtomicFile.write(Data(document.utf8), to: directory.appendingPathComponent("report.md")) }
        printError("wrote \(directory.appendingPathComponent("report.md").path)")
    }
}
