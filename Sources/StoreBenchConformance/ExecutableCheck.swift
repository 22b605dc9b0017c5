import Foundation
import StoreBenchCore

/// ``ContractCheck/executable``: the binary the other checks start knows the backend, and as the same descriptor
/// (its roles and settings), so that a fresh process opens the store the way the test's own process does.
enum ExecutableCheck {
  static func run(_ suite: ContractSuite) throws -> ContractResult.Outcome {
    let listed = try list(suite.executable)
    let names = listed.compactMap { $0["name"] as? String }
    guard let entry = listed.first(where: { $0["name"] as? String == suite.backend.name }) else {
      throw ContractViolation(
        description: "\(suite.executable.path) does not register the backend '\(suite.backend.name)' "
          + "(it registers \(names.joined(separator: ", "))): the checks that start a fresh process "
          + "(launches, settings read back, damage) cannot open its stores; pass the binary whose main calls "
          + "StoreBench.main(registering:) with this backend")
    }
    let roles = entry["roles"] as? String ?? ""
    let settings = (entry["settings"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    try expect(
      roles == "\(suite.backend.roles)" && settings == suite.backend.axes.map(\.name),
      "\(suite.executable.path) registers a different '\(suite.backend.name)': roles \(roles), settings "
        + "\(settings); this descriptor has roles \(suite.backend.roles), settings "
        + "\(suite.backend.axes.map(\.name))")
    return .passed("\(suite.executable.lastPathComponent) registers '\(suite.backend.name)' with the same roles")
  }

  /// The backends `executable list --json` prints (run through the one helper that runs a tool for its output).
  static func list(_ executable: URL) throws -> [[String: Any]] {
    guard let output = MachineFacts.run([executable.path, "list", "--json"]),
      let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
      let backends = object["backends"] as? [[String: Any]]
    else {
      throw ContractViolation(
        description: "\(executable.path) list --json did not start, failed or printed no backends' list: is it "
          + "a storebench binary?")
    }
    return backends
  }
}
