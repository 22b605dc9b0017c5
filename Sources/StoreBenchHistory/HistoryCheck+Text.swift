import Foundation

extension HistoryCheck.Result {
  /// The check as people read it: per machine and scenario, the steps (first commit, size with its interval, the
  /// rows moved) and the newest commit's verdict, with the series that had too little history named.
  public func text(runs: [HistoryRun], check: HistoryCheck) -> String {
    var lines: [String] = []
    let groups = Dictionary(grouping: runs) { $0.group }
    let method =
      "E-Divisive means on the log of each series, permutation test α = \(check.detector.alpha) "
      + "(\(check.detector.permutations) shuffles), at least \(check.detector.minSegment) runs a side, "
      + "steps of \(Self.percent(check.minChange)) or more"
    lines.append("Steps: \(method).")
    for (group, members) in groups.sorted(by: { $0.key < $1.key }) {
      let first = members[0]
      lines.append("")
      let newestRun = members.last!
      lines.append(
        "## \(first.machineLabel) (\(newestRun.cpuModel), \(newestRun.kernel), \(newestRun.fileSystem)) · scenario "
          + "\(first.scenarioName) \(first.scenarioHash): \(members.count) run(s), "
          + "\(Set(members.map(\.commit)).count) commit(s), \(first.shortCommit)…\(newestRun.shortCommit)")
      if let spread = HistoryRun.spread(members) {
        lines.append(
          "Its runs come from \(spread) (one series by the name given with --machine; the difference "
            + "between them counts as drift between runs).")
      }
      let groupSteps = steps.filter { $0.key.group == group }
      if groupSteps.isEmpty {
        let fewest = check.detector.fewestPointsForAStep
        lines.append(
          members.count < fewest
            ? "No steps can be found yet: \(members.count) run\(members.count == 1 ? " is" : "s are") too few for any split to reach "
              + "p ≤ \(check.detector.alpha) (a series needs \(fewest) or more)."
            : "No steps.")
      } else {
        let scanned = scannedTimeSeries[group] ?? 0
        if scanned > 0 {
          lines.append(
            "Each series is tested on its own at α = \(check.detector.alpha), so about 1 in "
              + "\(Int((1 / check.detector.alpha).rounded())) noisy series shows a step by chance ("
              + String(format: "%.2g", Double(scanned) * check.detector.alpha) + " expected among the "
              + "\(scanned) time series scanned here); a step that many series share at one commit, or that "
              + "later runs confirm, is the one to trust.")
        }
        for (commit, moved) in Dictionary(grouping: groupSteps, by: { $0.first.id }).sorted(by: {
          $0.value[0].first.order < $1.value[0].first.order
        }) {
          _ = commit
          let step = moved[0]
          lines.append(
            "Step at \(step.first.shortCommit) (after \(step.previous.shortCommit)): \(moved.count) series moved"
          )
          for s in moved.sorted(by: { $0.key < $1.key }) {
            lines.append(
              "  \(s.key.rowName) · \(s.key.metric.label): "
                + Self.levels(s.levels, metric: s.key.metric)
                + "×\(Self.ratio(s.ratio)) [\(Self.ratio(s.interval.lowerBound))–\(Self.ratio(s.interval.upperBound))] "
                + "(\(s.before) runs before, \(s.after) after)")
          }
        }
      }
      let judged = newest.filter { $0.key.group == group }
      guard let run = judged.first?.run else { continue }
      lines.append("Newest commit \(run.shortCommit) (run of \(run.startedAt)) against the runs before it:")
      for verdict in [HistoryCheck.Newest.Verdict.regression, .improvement] {
        let matching = judged.filter { $0.verdict == verdict }.sorted { ($0.ratio ?? 1) > ($1.ratio ?? 1) }
        lines.append(
          "  \(verdict == .regression ? "regressions" : "improvements"): \(matching.isEmpty ? "none" : String(matching.count))"
        )
        for item in matching {
          lines.append(
            "    \(item.key.rowName) · \(item.key.metric.label): "
              + (item.levels.map { Self.levels($0, metric: item.key.metric) } ?? "")
              + "×\(Self.ratio(item.ratio ?? 1)) "
              + String(
                format: "(z = %.1f, p = %.2g, against %d runs)", item.z ?? 0, item.p ?? 1, item.baseline
              ))
        }
      }
      for item in judged where item.verdict == .accepted {
        guard let accepted = item.accepted else { continue }
        lines.append(
          "  accepted \(accepted.direction.rawValue): \(item.key.rowName) · \(item.key.metric.label): "
            + "×\(Self.ratio(item.ratio ?? 1)) (\(accepted.match.path): \(accepted.match.reason))")
      }
      let unchanged = judged.filter { $0.verdict == .unchanged }.count
      lines.append(
        "  unchanged: \(unchanged) series (Benjamini–Hochberg at \(check.falseDiscovery), "
          + "or moved less than \(Self.percent(check.minChange)))")
      let short = judged.filter { $0.verdict == .notEnoughHistory }
      if !short.isEmpty {
        lines.append(
          "  not enough history: \(short.count) series have fewer than \(check.minHistory) earlier runs "
            + "at their current level (\(Set(short.map(\.baseline)).sorted().map(String.init).joined(separator: ", ")) found); "
            + "not tested, e.g. "
            + short.prefix(3).map { "\($0.key.rowName) · \($0.key.metric.label)" }.joined(separator: "; "))
      }
    }
    lines.append("")
    lines += warnings.map { "Warning: \($0)" }
    lines.append("Verdict: \(verdict); exit \(regressions.isEmpty ? 0 : 2).")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The verdict on the newest commit, in the words the text and the CI page both open or end with.
  public var verdict: String {
    let regressions = self.regressions
    if !regressions.isEmpty { return "the newest commit regressed \(regressions.count) series" }
    return newest.allSatisfy { $0.verdict == .notEnoughHistory }
      ? "not enough history to judge the newest commit (nothing tested)"
      : "the newest commit is no regression"
  }

  /// "0 → 1 per op, " for counts (a ratio from 0 says little); nothing for time, whose ratio says it all.
  static func levels(_ levels: (before: Double, after: Double), metric: HistorySeries.Metric) -> String {
    guard metric.isCount else { return "" }
    return String(format: "%.4g → %.4g per op, ", levels.before, levels.after)
  }

  static func ratio(_ value: Double) -> String { String(format: value < 10 ? "%.3f" : "%.1f", value) }
  static func percent(_ value: Double) -> String { String(format: "%.0f%%", value * 100) }
}
