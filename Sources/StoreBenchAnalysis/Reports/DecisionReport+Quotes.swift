import Foundation

extension DecisionReport {
  /// The generated recommendation line of `workload` (nil: no such workload, or nothing to recommend).
  public func recommendation(named workload: String) -> String? {
    guard let found = workloads.first(where: { $0.name == workload }), let line = recommendation(found) else {
      return nil
    }
    return line + (deferredCost(found) ?? "")
  }

  /// One row's time in `workload` as a claim (``MedianClaim``): "89.2 ms [80.3–109.7 ms, n=12]", with "at N" when
  /// a limit gave the row another size than the scenario's own; nil when the run has no such row.
  public func timeClaim(label: String, workload: String) -> String? {
    guard let found = workloads.first(where: { $0.name == workload }) else { return nil }
    for (index, group) in found.groups.enumerated() {
      guard let entry = group.entries.first(where: { $0.label == label }) else { continue }
      let claim = MedianClaim(
        median: entry.median, interval: entry.interval.map { $0.low...$0.high },
        count: entry.walls.count, minimumCount: minimumCount)
      return claim.text + (index == 0 ? "" : " at \(MarkdownTable.grouped(Double(group.size)))")
    }
    return nil
  }

  /// A variant's durability class in its short form (``DurabilityClass/short``), by its label.
  public func durability(label: String) -> String? {
    workloads.lazy.flatMap { $0.groups.flatMap(\.entries) }.first { $0.label == label }?.durability.short
  }

  /// The marker a page quoting this report carries: the tie margin and first look its claims were judged by.
  public var claimsMarker: String { ClaimSyntax.marker(margin: margin, minimumCount: minimumCount) }
}
