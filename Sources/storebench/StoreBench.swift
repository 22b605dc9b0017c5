import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore

@main
struct StoreBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storebench",
        abstract: "Measures how app storage strategies perform on the workloads real apps have.",
        discussion: """
            Exit codes: 0 every row ok; 1 some row failed (the report is complete, failures are marked) or the \
            report could not be written; 64 bad input (nothing is written).
            """,
        version: StoreBenchVersion.current,
        subcommands: [RunCommand.self, ListCommand.self, ColumnsCommand.self, CompareCommand.self, ABCommand.self, ReportCommand.self, OverheadCommand.self, CrashCommand.self,
                      VerifyStoreCommand.self,
                      ChildCommand.self],
        defaultSubcommand: nil
    )
}

/// Writes one line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
