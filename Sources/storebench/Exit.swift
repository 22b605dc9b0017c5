import ArgumentParser
import StoreBenchCore
import Foundation

typealias Exit = StoreBenchExit

/// A command that failed: its message, printed once on standard error by ``StoreBench/main()``, and its exit code.
struct CommandFailure: Error {
    let exit: Exit
    let message: String
}

extension ExitCode {
    init(_ exit: Exit) { self.init(exit.rawValue) }
}

extension ParsableCommand {
    /// Runs `body`; an error it throws becomes a ``CommandFailure`` with `exit` and a message naming the command.
    func failing<T>(_ exit: Exit, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            let parent = Self.self is any HistorySubcommand.Type ? "history " : ""
            throw CommandFailure(exit: exit, message: "storebench \(parent)\(Self.configuration.commandName ?? ""): \(error)")
        }
    }
}

/// A subcommand of `storebench history`: its errors name both words.
protocol HistorySubcommand {}

/// A share given as a percentage (`5%`) or a fraction (`0.05`).
struct Fraction: ExpressibleByArgument, CustomStringConvertible, Sendable {
    let value: Double

    init(_ value: Double) { self.value = value }

    init?(argument: String) {
        let isPercent = argument.hasSuffix("%")
        guard let number = Double(isPercent ? String(argument.dropLast()) : argument), number.isFinite, number >= 0
        else { return nil }
        value = isPercent ? number / 100 : number
    }

    var description: String { "\(value * 100)%".replacingOccurrences(of: ".0%", with: "%") }
}
