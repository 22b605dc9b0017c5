import Foundation

/// A backend named on the command line, optionally with settings: `lmdb`, `sqlite[txn=single,journal=wal]`.
/// Without settings it means the backend's defaults in an ad-hoc run, and every variant of it when it narrows a
/// scenario; with settings, exactly the variants that have those settings.
public struct BackendSpec: Sendable, Equatable, CustomStringConvertible {
  public let backend: String
  public let settings: [String: String]

  /// Parses `name` or `name[key=value,key=value]`; throws a message naming the text.
  public init(parsing text: String) throws {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard let open = trimmed.firstIndex(of: "[") else {
      guard !trimmed.isEmpty, !trimmed.contains("]") else {
        throw ScenarioError(file: "--backend", path: "", message: "'\(text)' is not a backend")
      }
      backend = trimmed
      settings = [:]
      return
    }
    guard trimmed.hasSuffix("]") else {
      throw ScenarioError(
        file: "--backend", path: "",
        message:
          "'\(text)': settings go in brackets, NAME[SETTING=VALUE,…] (storebench list shows each backend's)")
    }
    backend = String(trimmed[..<open])
    var settings: [String: String] = [:]
    for pair in trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)].split(separator: ",") {
      let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
      guard parts.count == 2, !parts[0].isEmpty, settings[parts[0]] == nil else {
        throw ScenarioError(
          file: "--backend", path: "", message: "'\(text)': '\(pair)' is not name=value (once each)")
      }
      settings[parts[0]] = parts[1]
    }
    self.settings = settings
  }

  public var description: String {
    settings.isEmpty
      ? backend : "\(backend)[\(settings.keys.sorted().map { "\($0)=\(settings[$0]!)" }.joined(separator: ","))]"
  }

  /// Whether a scenario's backend entry is one this spec selects (a setting the variant lacks never matches).
  func matches(_ entry: Scenario.BackendEntry) -> Bool {
    entry.backend == backend
      && settings.allSatisfy { name, value in
        entry.variant.settings.contains { $0.name == name && $0.value == value }
      }
  }
}
