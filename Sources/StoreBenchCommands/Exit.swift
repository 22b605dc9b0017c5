import ArgumentParser
import Foundation
import StoreBenchCore

typealias Exit = StoreBenchExit

/// A command that failed: its message, printed once on standard error by ``StoreBench/main()``, and its exit code.
struct CommandFailure: Error {
  let exit: Exit
  let message: String
}

extension ExitCode {
  init(_ exit: Exit) { self.init(exit.rawValue) }
}

extension StoreBenchExit {
  /// The one mapping from an error to an exit code: a ``CommandFailure`` carries its own; a typed error that knows
  /// what it means (``ExitCoded``: a refused output, an unusable run folder, a bad scenario, a history's bad
  /// argument) exits the same way from every command; ArgumentParser's usage errors are bad input; anything else
  /// exits with `fallback`, the command's word for an error it did not expect.
  static func `for`(_ error: any Error, fallback: StoreBenchExit) -> StoreBenchExit {
    switch error {
    case let failure as CommandFailure: failure.exit
    case let coded as any ExitCoded: coded.exit
    case is ValidationError: .badInput
    default: fallback
    }
  }
}

extension ParsableCommand {
  /// Runs `body`; an error it throws becomes a ``CommandFailure`` with a message naming the command and the exit
  /// code ``StoreBenchExit/for(_:fallback:)`` chooses (`exit` only for errors that do not say their own).
  func failing<T>(_ exit: Exit, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let failure as CommandFailure {
      throw failure
    } catch {
      let parent = Self.self is any HistorySubcommand.Type ? "history " : ""
      throw CommandFailure(
        exit: Exit.for(error, fallback: exit),
        message: "storebench \(parent)\(Self.configuration.commandName ?? ""): \(error)")
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
