import Foundation

/// The scenarios shipped in `scenarios/`, found from the working directory or from the storebench executable
/// (`<package>/.build/<configuration>/storebench`), so `storebench run` works outside the repository.
public enum BundledScenarios {
  /// Where `name` is looked for, in order.
  static func candidates(_ name: String) -> [URL] {
    var places = [
      URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("scenarios")
    ]
    if let executable = RunningExecutable.url {
      var directory = executable.deletingLastPathComponent()
      for _ in 0..<4 {
        places.append(directory.appendingPathComponent("scenarios"))
        directory = directory.deletingLastPathComponent()
      }
    }
    return places.map { $0.appendingPathComponent(name) }
  }

  /// The path of the bundled scenario `name`; throws naming every place looked at.
  public static func path(_ name: String) throws -> String {
    let places = candidates(name)
    if let found = places.first(where: { FileManager.default.fileExists(atPath: $0.path) }) { return found.path }
    throw ScenarioError(
      file: name, path: "",
      message: "the bundled scenario is not in "
        + places.map(\.path).joined(separator: ", ") + "; pass --scenario FILE, or --backend and --workload")
  }

  /// The absolute path of a scenario file given on the command line: as given (relative to the working
  /// directory), else, for a relative path, the same path below the places bundled scenarios are looked for
  /// (`scenarios/smoke.yaml` works from any directory). Throws naming every place looked at.
  public static func resolve(_ given: String) throws -> String {
    let asGiven = URL(fileURLWithPath: given).standardizedFileURL
    if FileManager.default.fileExists(atPath: asGiven.path) || given.hasPrefix("/") {
      return asGiven.path
    }
    let relative = given.hasPrefix("scenarios/") ? String(given.dropFirst("scenarios/".count)) : given
    var places: [URL] = []
    for place in [asGiven] + candidates(relative).map(\.standardizedFileURL) where !places.contains(place) {
      places.append(place)
    }
    if let found = places.first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
      return found.standardizedFileURL.path
    }
    throw ScenarioError(
      file: given, path: "",
      message: "no such file; looked in "
        + places.map(\.standardizedFileURL.path).joined(separator: ", "))
  }
}
