import Foundation
import Yams

/// The accepted-changes file (`--accepted FILE` of `compare`, `ab`, `scripts/count-gate` and `history check`;
/// committed as `accepted-changes.yaml`), read strictly like budgets and scenarios.
///
/// ```yaml
/// accepted:
///   - commit: 1f2a0fa                 # the commit that made the change (7+ hex digits), or
///     # range: 1f2a0fa..9c0d3e1       # every commit of a range (git rev-list, resolved when the file is read)
///     workload: lookup                # shell-style globs over the rows; each defaults to *
///     backend: sqlite
///     variant: "*journal=wal*"
///     metric: instructions_per_op     # a metric `compare` judges (or `history check` follows)
///     direction: regression           # or improvement
///     reason: the lookup now verifies each record's checksum (#123)
/// ```
public enum AcceptedChangesFile {
  static let topKeys = ["accepted"]
  static let entryKeys = ["commit", "range", "workload", "backend", "variant", "metric", "direction", "reason"]

  /// Reads and parses the file at `path` (at most 1 MiB); a range is resolved by git in the file's folder.
  public static func read(_ path: String, columns: ColumnSet = .standard) throws -> AcceptedChanges {
    let data = try NodeReader.contents(ofFile: path, kind: "accepted-changes file", maximumBytes: 1 << 20)
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    return try parse(data, file: path, columns: columns) { range in
      guard let listed = MachineFacts.run(["git", "-C", folder, "rev-list", range], seconds: 30) else { return nil }
      return Set(listed.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
    }
  }

  /// Parses `data`; `resolve` lists the full hashes of a git range (nil: git could not).
  public static func parse(
    _ data: Data, file: String, columns: ColumnSet = .standard, resolve: (String) -> Set<String>?
  ) throws -> AcceptedChanges {
    guard let root = try NodeReader.document(data, file: file) else {
      throw ScenarioError(file: file, path: "", message: "the file is empty; it needs a list of accepted changes")
    }
    let reader = NodeReader(file: file)
    let top = try reader.mapping(root, at: "", allowed: topKeys)
    // An empty list is a file with nothing accepted (the committed file between changes).
    let items = try reader.sequence(top["accepted"], at: "accepted", nonEmpty: false)
    let metrics = Comparison.Metric.all(in: columns).map(\.name)
    let entries = try items.enumerated().map { index, node in
      try entry(node, at: "accepted[\(index)]", reader, metrics: metrics, resolve: resolve)
    }
    return AcceptedChanges(file: file, entries: entries)
  }

  static func entry(
    _ node: Node, at path: String, _ reader: NodeReader, metrics: [String], resolve: (String) -> Set<String>?
  ) throws -> AcceptedChanges.Entry {
    let map = try reader.mapping(node, at: path, allowed: entryKeys)
    let commit = try reader.string(map["commit"], at: "\(path).commit", required: false)
    let range = try reader.string(map["range"], at: "\(path).range", required: false)
    let commits: AcceptedChanges.CommitSet
    let commitsText: String
    let hex = { (text: Substring) in text.count >= 7 && text.count <= 64 && text.allSatisfy(\.isHexDigit) }
    switch (commit, range) {
    case (let commit?, nil):
      guard hex(Substring(commit)) else {
        throw reader.error("\(path).commit", "'\(commit)' is not a commit hash (7 to 64 hex digits)")
      }
      (commits, commitsText) = (.prefix(commit.lowercased()), commit)
    case (nil, let range?):
      let ends = range.components(separatedBy: "..")
      guard ends.count == 2, ends.allSatisfy({ hex(Substring($0)) }) else {
        throw reader.error(
          "\(path).range", "'\(range)' is not a range of two commit hashes (FROM..TO, 7 to 64 hex digits each)")
      }
      guard let hashes = resolve(range) else {
        throw reader.error("\(path).range", "git could not list the commits of \(range) (not in this repository?)")
      }
      guard !hashes.isEmpty else {
        throw reader.error("\(path).range", "\(range) holds no commit (FROM must be an ancestor of TO)")
      }
      (commits, commitsText) = (.hashes(hashes), range)
    case (nil, nil):
      throw reader.error(path, "needs the commit it is for: commit (one) or range (FROM..TO)")
    case (.some, .some):
      throw reader.error(path, "give commit or range, not both")
    }
    let metric = try reader.string(map["metric"], at: "\(path).metric", required: true)!
    guard metrics.contains(metric) else {
      throw reader.error("\(path).metric", "unknown metric '\(metric)'; metrics: \(metrics.joined(separator: ", "))")
    }
    let directionText = try reader.string(map["direction"], at: "\(path).direction", required: true)!
    guard let direction = AcceptedChanges.Direction(rawValue: directionText) else {
      throw reader.error("\(path).direction", "'\(directionText)' is neither regression nor improvement")
    }
    let reason = try reader.string(map["reason"], at: "\(path).reason", required: true)!
      .trimmingCharacters(in: .whitespacesAndNewlines)
    guard !reason.isEmpty, reason.count <= 500, !reason.contains(where: { $0.isNewline }) else {
      throw reader.error("\(path).reason", "the reason is one line of 1 to 500 characters, shown beside the change")
    }
    let pattern = { (key: String) in try reader.string(map[key], at: "\(path).\(key)", required: false) ?? "*" }
    return AcceptedChanges.Entry(
      path: path, commitsText: commitsText, commits: commits, workload: try pattern("workload"),
      backend: try pattern("backend"), variant: try pattern("variant"), metric: metric, direction: direction,
      reason: reason)
  }
}
