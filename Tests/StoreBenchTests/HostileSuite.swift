import ArgumentParser
import Foundation
import Testing

@testable import StoreBenchCommands

/// One command of a command tree, as the hostile suite sees it: how it is invoked, its example, what it writes, the
/// long options it declares (from ArgumentParser's own description of it, `_dumpHelp()`), and whether it runs long.
struct CommandEntry: Sendable, CustomStringConvertible {
  let path: [String]
  let example: [String]?
  let exampleExits: Set<Int32>
  let output: OutputShape
  let options: Set<String>
  let longRunning: Bool

  var description: String { path.joined(separator: " ") }
  var hasForce: Bool { options.contains("force") }
}

/// The commands of a tree, derived from its configuration (recursively), never from a hand list: a new subcommand is
/// in the suite by existing.
enum CommandTree {
  static func entries(_ root: any ParsableCommand.Type) -> [CommandEntry] {
    walk(root, path: [])
  }

  private static func walk(_ command: any ParsableCommand.Type, path: [String]) -> [CommandEntry] {
    command.configuration.subcommands.filter { $0.configuration.shouldDisplay }.flatMap { sub -> [CommandEntry] in
      let name = sub.configuration.commandName ?? "\(sub)".lowercased()
      if !sub.configuration.subcommands.isEmpty { return walk(sub, path: path + [name]) }
      let exemplified = sub as? any Exemplified.Type
      return [
        CommandEntry(
          path: path + [name], example: exemplified?.example, exampleExits: exemplified?.exampleExits ?? [0],
          output: exemplified?.output ?? .none,
          options: longOptions(sub), longRunning: sub is any LongRunning.Type)
      ]
    }
  }

  /// The long option names a command declares, read from ArgumentParser's JSON description of it.
  static func longOptions(_ command: any ParsableCommand.Type) -> Set<String> {
    guard let json = try? JSONSerialization.jsonObject(with: Data(command._dumpHelp().utf8)) as? [String: Any],
      let described = json["command"] as? [String: Any],
      let arguments = described["arguments"] as? [[String: Any]]
    else { return [] }
    var names: Set<String> = []
    for argument in arguments {
      for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
        if let text = name["name"] as? String { names.insert(text) }
      }
    }
    return names
  }
}

/// One hostile case: a command, what is done to it, and (in the runner) what must hold after.
struct HostileCase: Sendable, CustomTestStringConvertible {
  enum Kind: String, Sendable, CaseIterable {
    /// The example as given, then again with standard output on a full disk.
    case exampleAndFullDisk = "example, then stdout on /dev/full"
    case symlink = "output is a symlink"
    case device = "output is a device"
    case fifo = "output is a FIFO"
    case input = "output is one of its inputs"
    case longPath = "output path over PATH_MAX"
    case nonUTF8 = "output path not UTF-8"
    case userFolder = "output is a folder of the user's files"
    case recordedFile = "output is a file another storebench folder lists"
    case interrupt = "SIGINT midway"
    case stoppedChildren = "its children stopped (SIGSTOP), then SIGINT"
    case crlfInputs = "inputs saved with CRLF line ends"
    case nonUTF8Directory = "working directory not UTF-8"
    case sqlOutside = "a workload file's SQL reaching another database"
  }

  let command: CommandEntry
  let kind: Kind

  var testDescription: String { "\(command): \(kind.rawValue)" }

  /// The cases of every command of `root` that takes the matching option or plays the matching part.
  static func derive(_ root: any ParsableCommand.Type) -> [HostileCase] {
    CommandTree.entries(root).flatMap { entry -> [HostileCase] in
      guard let example = entry.example else { return [] }
      var kinds: [Kind] = [.exampleAndFullDisk, .nonUTF8Directory]
      if entry.output != .none {
        kinds += [.symlink, .device, .fifo, .longPath, .nonUTF8]
        let readsInput = example.contains {
          ["{RUN}", "{DB}", "{SCENARIO}", "{PROFILE}", "{BUDGETS}"].contains($0)
        }
        if readsInput { kinds.append(.input) }
      }
      if entry.output == .folder { kinds.append(.userFolder) }
      if entry.output == .file { kinds.append(.recordedFile) }
      if example.contains(where: { ["{RUN}", "{SCENARIO}", "{PROFILE}", "{BUDGETS}"].contains($0) }) {
        kinds.append(.crlfInputs)
      }
      if example.contains("{SCENARIO}") { kinds.append(.sqlOutside) }
      if entry.longRunning { kinds += [.interrupt, .stoppedChildren] }
      return kinds.map { HostileCase(command: entry, kind: $0) }
    }
  }
}

/// A test-only root: storebench's own commands and one more that exists only in the test target, to prove that a new
/// command gets the hostile cases without the suite being edited.
struct ThrowawayRoot: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "storebench", subcommands: StoreBench.configuration.subcommands + [ThrowawayCommand.self])
}

struct ThrowawayCommand: LongRunning {
  static let configuration = CommandConfiguration(
    commandName: "throwaway", abstract: "A command the suite never heard of.")
  @Option var out: String
  @Flag var force = false
  static var example: [String] { ["throwaway", "--scenario", "{SCENARIO}", "--out", "{OUT}"] }
  static var output: OutputShape { .folder }
}
