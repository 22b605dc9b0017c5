import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore

/// The child side of every parent–child exchange (hidden): launches, the crash writer and checker, verify-store.
/// Its one argument is a ``ChildRequest`` as JSON; it answers with one JSON line (``ChildAnswer``).
struct ChildCommand: ParsableCommand {
    static let configuration = CommandConfiguration.internal(
        "child", abstract: "Internal: do one child request (JSON) and answer with one JSON line.")

    @Argument(help: "The request, as JSON.") var request: String

    func run() throws {
        let answer = try ChildRequest(argument: request).perform(registry: CommandEnvironment.current.registry())
        writeStandardOutput(Data((answer.line + "\n").utf8))
    }
}
