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
            Exit codes: 0 every row ok (compare: no regression); 1 some row failed (the report is complete, failures \
            are marked), a report could not be written, or an input file was unreadable; 2 a regression (compare, \
            ab) or an overhead above the limit; 3 a corrupt or lost store (verify-store); 4 improvements only \
            (compare --fail-on-improvement); 64 bad input (nothing is written).
            """,
        version: StoreBenchVersion.current,
        subcommands: [RunCommand.self, ListCommand.self, ColumnsCommand.self, CompareCommand.self, ABCommand.self, ReportCommand.self, OverheadCommand.self, CrashCommand.self,
                      VerifyStoreCommand.self,
                      ChildCommand.self, PageCacheLayerCommand.self],
        defaultSubcommand: nil
    )

    /// Parses and runs a subcommand; a ``CommandFailure`` becomes its message on standard error and its exit code
    /// (the one error-to-exit-code mapping), any other error is reported by ArgumentParser.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as CommandFailure {
            printError(failure.message)
            Foundation.exit(failure.exit.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}

/// Writes one line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
