import ArgumentParser
import Foundation
import StoreBenchCore

/// This repository's own page tooling, kept out of the product (`storebench` does not link it): the claims lint over
/// every committed page and the renderer of the generated blocks of README.md and docs/. `scripts/test` runs
/// `lint-claims`, `scripts/regenerate-pages` runs `render-blocks`; both read the committed runs through the product's
/// own reader and renderer (``RunFolder``, ``DecisionReport``).
@main
struct StoreBenchPages: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "StoreBenchPages",
    abstract: "Checks and renders this repository's published pages (development only).",
    subcommands: [LintClaimsCommand.self, RenderBlocksCommand.self])

  /// Parses and runs a subcommand; a ``PageFailure`` is its message on standard error and its exit code.
  static func main() {
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch let failure as PageFailure {
      printError(failure.message)
      Foundation.exit(failure.exit.rawValue)
    } catch {
      exit(withError: error)
    }
  }
}

/// A page command that failed: its message and exit code.
struct PageFailure: Error {
  let exit: StoreBenchExit
  let message: String
}

extension ParsableCommand {
  /// Runs `body`; an error it throws becomes a ``PageFailure`` naming the command.
  func failing<T>(_ exit: StoreBenchExit, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let failure as PageFailure {
      throw failure
    } catch {
      throw PageFailure(exit: exit, message: "\(Self.configuration.commandName ?? ""): \(error)")
    }
  }
}

/// One line on standard error.
func printError(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }

/// `path` as a folder URL; a path that is not a folder is bad input (nothing to check is not a pass).
func packageFolder(_ path: String, command: String) throws -> URL {
  let url = URL(fileURLWithPath: path, isDirectory: true)
  var isDirectory: ObjCBool = false
  guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
    throw PageFailure(exit: .badInput, message: "\(command): \(path) is not a folder")
  }
  return url
}
