import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore

/// storebench's whole command line: run, report, compare, crash, advise, history, export, list and the rest.
///
/// `storebench` itself is `StoreBench.main(registering: [])`; a team's own package calls
/// ``main(registering:)`` with its backends and gets every command with them beside the standard ones
/// (docs/EXTENDING.md).
public struct StoreBench: ParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "storebench",
    abstract: "Measures how app storage strategies perform on the workloads real apps have.",
    discussion: """
      Exit codes: 0 every row ok (compare: no regression); 1 some row failed (the report is complete, failures \
      are marked), a report or standard output could not be written, or a run folder given as input cannot be \
      used; 2 a regression (compare, ab) or an overhead above the limit; 3 a corrupt or lost store \
      (verify-store); 4 improvements only (compare --fail-on-improvement); 5 underpowered (compare); 6 no \
      strategy meets everything (advise); 7 no answer yet (advise, check: \
      evidence too thin to judge); 64 bad input (nothing is written); 130/143 interrupted.
      """,
    version: StoreBenchVersion.current,
    subcommands: [
      RunCommand.self, ListCommand.self, ColumnsCommand.self, CompareCommand.self, ABCommand.self,
      CheckCommand.self,
      ReportCommand.self, OverheadCommand.self, CrashCommand.self, AdviseCommand.self, ExportCommand.self,
      HistoryCommand.self,
      VerifyStoreCommand.self,
      ChildCommand.self, CountPassCommand.self, PageCacheLayerCommand.self, RecordOutputCommand.self,
    ],
    defaultSubcommand: nil
  )

  /// The one entry point: parses the command line and runs a subcommand with `backends` and `workloads`
  /// registered beside the standard ones, for the whole invocation and in every child process it starts (children
  /// re-run this executable, so they register the same). A name that is already registered is refused (exit 1).
  public static func main(registering backends: [BackendDescriptor], workloads: [any Workload] = []) -> Never {
    let environment: CommandEnvironment
    do {
      environment = try CommandEnvironment(registering: backends, workloads: workloads)
    } catch {
      printError("storebench: \(error)")
      Foundation.exit(StoreBenchExit.failure.rawValue)
    }
    CommandEnvironment.$current.withValue(environment) { main() }
    Foundation.exit(StoreBenchExit.ok.rawValue)
  }

  /// Parses and runs a subcommand; a ``CommandFailure`` becomes its message on standard error and its exit code
  /// (the one error-to-exit-code mapping), any other error is reported by ArgumentParser.
  public static func main() {
    if let (index, shown) = invalidUTF8Argument() {
      printError(
        "storebench: argument \(index) ('\(shown)') is not valid UTF-8; storebench takes paths and names "
          + "as UTF-8 text (rename the file or directory)")
      Foundation.exit(StoreBenchExit.badInput.rawValue)
    }
    // Foundation reads the working directory as a string, replacing bytes that are not UTF-8 (U+FFFD): a relative
    // path would then resolve to another directory (a run published into a new sibling `d\u{FFFD}x/o`).
    if let shown = invalidUTF8WorkingDirectory(), !CommandLine.arguments.dropFirst().allSatisfy(isInformational) {
      printError(
        "storebench: the working directory ('\(shown)') is not valid UTF-8, so relative paths would resolve "
          + "elsewhere; run storebench from a directory whose path is UTF-8 (nothing was read or written)")
      Foundation.exit(StoreBenchExit.badInput.rawValue)
    }
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch let failure as CommandFailure {
      finishStandardOutput()
      printError(failure.message)
      Foundation.exit(failure.exit.rawValue)
    } catch let coded as any ExitCoded {
      finishStandardOutput()
      printError("storebench: \(coded)")
      Foundation.exit(coded.exit.rawValue)
    } catch  where exitCode(for: error) == .success {
      // --help and --version (a clean exit): printed through the one standard-output funnel, so a full disk is
      // exit 1.
      let message = fullMessage(for: error)
      if !message.isEmpty { writeStandardOutput(Data((message + "\n").utf8)) }
      finishStandardOutput()
      Foundation.exit(StoreBenchExit.ok.rawValue)
    } catch {
      finishStandardOutput()
      exit(withError: error)
    }
    finishStandardOutput()
  }
}

/// Writes one line to standard error, control characters escaped (messages quote scenario and store text).
func printError(_ line: String) {
  FileHandle.standardError.write(Data((line.escapingControlCharacters(keepingNewlines: true) + "\n").utf8))
}

/// The working directory's bytes, shown with `\x..` escapes, when they are not valid UTF-8; nil when they are (or
/// when it cannot be read).
func invalidUTF8WorkingDirectory() -> String? {
  var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
  guard getcwd(&buffer, buffer.count) != nil else { return nil }
  let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
  guard String(validating: bytes, as: UTF8.self) == nil else { return nil }
  return shownBytes(bytes)
}

/// `bytes` as printable text: ASCII as it is, every other byte as `\xNN`.
private func shownBytes(_ bytes: some Sequence<UInt8>) -> String {
  bytes.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : String(format: "\\x%02x", $0) }.joined()
}

/// An argument that reads and writes nothing (help, the version).
private func isInformational(_ argument: String) -> Bool {
  ["--help", "-h", "help", "--version"].contains(argument)
}

/// Every argument must be UTF-8: Swift decodes invalid bytes as U+FFFD, so a path such as `out/bad\xff` would
/// silently name a different file. Returns the position and a printable form of the first argument that is not.
func invalidUTF8Argument() -> (index: Int, text: String)? {
  for index in 1..<Int(CommandLine.argc) {
    guard let pointer = CommandLine.unsafeArgv[index] else { continue }
    if String(validatingCString: pointer) == nil {
      let bytes = UnsafeBufferPointer(
        start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
      return (index, shownBytes(bytes))
    }
  }
  return nil
}
