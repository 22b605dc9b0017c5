import Foundation

/// A team's accepted changes: regressions (or improvements) it meant to make, each with its reason, which the gates
/// (`compare`, `ab`, the count gate and `history check`) let pass and show with that reason. An entry names the
/// commits it is for (one commit, or a range resolved with git when the file is read), the rows (globs over
/// workload, backend and variant, as budgets do), the metric and the direction. An entry that matched nothing is
/// reported, so a stale or mistyped one is seen rather than silently kept. The file's format and reader are
/// `AcceptedChangesFile` (`StoreBenchCore`).
public struct AcceptedChanges: Sendable {
  /// One accepted change.
  public struct Entry: Sendable {
    /// Where it is in the file (`accepted[2]`), for messages.
    public var path: String
    /// The commits it is for: as written (`1f2a0fa`, `1f2a0fa..9c0d3e1`) and resolved to full hashes or a prefix.
    public var commitsText: String
    public var commits: CommitSet
    public var workload: String
    public var backend: String
    public var variant: String
    public var metric: String
    public var direction: Direction
    public var reason: String

    public init(
      path: String, commitsText: String, commits: CommitSet, workload: String, backend: String, variant: String,
      metric: String, direction: Direction, reason: String
    ) {
      (self.path, self.commitsText, self.commits) = (path, commitsText, commits)
      (self.workload, self.backend, self.variant) = (workload, backend, variant)
      (self.metric, self.direction, self.reason) = (metric, direction, reason)
    }

    /// Whether this entry accepts a change of `metric` in `direction` on the row, measured at `commit`.
    public func accepts(
      workload: String, backend: String, variant: String, metric: String, direction: Direction, commit: String?
    ) -> Bool {
      guard let commit, commits.contains(commit) else { return false }
      return self.metric == metric && self.direction == direction
        && GlobPattern.matches(self.workload, workload) && GlobPattern.matches(self.backend, backend)
        && GlobPattern.matches(self.variant, variant)
    }
  }

  /// The commits an entry is for.
  public enum CommitSet: Sendable, Equatable {
    /// One commit, by a prefix of its hash (at least 7 hex digits).
    case prefix(String)
    /// The commits of a range, resolved to full hashes when the file was read.
    case hashes(Set<String>)

    public func contains(_ commit: String) -> Bool {
      let commit = commit.lowercased().replacingOccurrences(of: "+dirty", with: "")
      switch self {
      case .prefix(let prefix): return commit.hasPrefix(prefix.lowercased())
      case .hashes(let hashes): return hashes.contains(commit)
      }
    }
  }

  /// Which way the accepted change goes.
  public enum Direction: String, Sendable, CaseIterable {
    case regression, improvement
  }

  /// The entry that let a finding pass, and why.
  public struct Match: Sendable {
    public let path: String
    public let reason: String
    public init(path: String, reason: String) { (self.path, self.reason) = (path, reason) }
  }

  public var file: String
  public var entries: [Entry]

  public init(file: String, entries: [Entry]) {
    self.file = file
    self.entries = entries
  }

  /// The first entry that accepts the change, if any.
  public func match(
    workload: String, backend: String, variant: String, metric: String, direction: Direction, commit: String?
  ) -> Entry? {
    entries.first {
      $0.accepts(
        workload: workload, backend: backend, variant: variant, metric: metric, direction: direction,
        commit: commit)
    }
  }

  /// The comparison with each regression or improvement an entry accepts turned `accepted`, its reason attached; a
  /// warning names each entry that matched nothing. `commit` is the current side's (environment.json `git_commit`).
  public func apply(to comparison: Comparison, commit: String?) -> Comparison {
    var used: Set<String> = []
    let findings = comparison.findings.map { finding -> Comparison.Finding in
      let direction: Direction? =
        switch finding.verdict {
        case .regression: .regression
        case .improvement: .improvement
        default: nil
        }
      guard let direction,
        let entry = match(
          workload: finding.key.workload, backend: finding.key.backend, variant: finding.key.variant,
          metric: finding.metric.name, direction: direction, commit: commit)
      else { return finding }
      used.insert(entry.path)
      var accepted = finding.with(verdict: .accepted)
      accepted.accepted = Match(path: entry.path, reason: entry.reason)
      accepted.method += "; accepted \(direction.rawValue) (\(entry.path)): \(entry.reason)"
      return accepted
    }
    return Comparison(
      findings: findings, warnings: comparison.warnings + unmatched(used: used, commit: commit),
      problems: comparison.problems, drift: comparison.drift)
  }

  /// Warnings for the entries not in `used`: each matched no change of the current commit.
  public func unmatched(used: Set<String>, commit: String?) -> [String] {
    entries.filter { !used.contains($0.path) }.map { entry in
      "accepted change \(entry.path) of \(file) matched nothing: no \(entry.direction.rawValue) of "
        + "\(entry.metric) on \(entry.workload) / \(entry.backend)[\(entry.variant)]"
        + (commit.map { entry.commits.contains($0) ? "" : " (commit \($0.prefix(12)) is not in \(entry.commitsText))" }
          ?? " (the current run records no git commit)")
    }
  }
}

/// Shell-style globs (`*`, `?`), the rule `--filter` and budgets match rows by.
public enum GlobPattern {
  public static func matches(_ pattern: String, _ text: String) -> Bool {
    let p = Array(pattern)
    let t = Array(text)
    var (pi, ti, star, mark) = (0, 0, -1, 0)
    while ti < t.count {
      if pi < p.count && (p[pi] == "?" || p[pi] == t[ti]) {
        pi += 1
        ti += 1
      } else if pi < p.count && p[pi] == "*" {
        (star, mark) = (pi, ti)
        pi += 1
      } else if star >= 0 {
        pi = star + 1
        mark += 1
        ti = mark
      } else {
        return false
      }
    }
    while pi < p.count && p[pi] == "*" { pi += 1 }
    return pi == p.count
  }
}

extension Comparison.Finding {
  /// The same finding with another verdict.
  func with(verdict: Comparison.Verdict) -> Comparison.Finding {
    var finding = Comparison.Finding(
      key: key, metric: metric, baselineMedian: baselineMedian, currentMedian: currentMedian,
      baselineCount: baselineCount, currentCount: currentCount, ratio: ratio, interval: interval, pValue: pValue,
      verdict: verdict)
    finding.method = method
    finding.confirmation = confirmation
    finding.accepted = accepted
    return finding
  }
}
