import Foundation
import StoreBenchMeasure

extension CostCounters.Availability {
  /// The record in an environment.json object (`counters`); nil when the run predates counting or it is unreadable.
  public init?(environment: [String: Any]?) {
    guard let counters = environment?["counters"], JSONSerialization.isValidJSONObject(counters),
      let data = try? JSONSerialization.data(withJSONObject: counters),
      let decoded = try? JSONDecoder().decode(Self.self, from: data)
    else { return nil }
    self = decoded
  }

  /// Whether any kernel event was counted (not root or `--no-counters` leave only the bytes, or nothing).
  var countedEvents: Bool { counted.contains { $0.pass == nil && !$0.isProcessBytes } }

  /// Why two runs' counts cannot be compared (one not counted, counted on another file system, another way, or other
  /// costs); nil when they can.
  static func incomparability(baseline: Self?, current: Self?) -> String? {
    func described(_ record: Self?, _ side: String) -> String? {
      guard let record else { return "\(side) was not counted (no counters in its environment.json)" }
      return record.countedEvents
        ? nil : "\(side) counted no events (not root, or --no-counters: see its environment.json)"
    }
    if let reason = described(baseline, "the baseline") ?? described(current, "the current run") { return reason }
    guard let baseline, let current else { return nil }
    if baseline.fileSystem != current.fileSystem {
      return "the baseline was counted on \(baseline.fileSystem), the current run on \(current.fileSystem)"
    }
    if baseline.syncMethod != current.syncMethod {
      return "syncs were counted another way (baseline: \(baseline.syncMethod); current: \(current.syncMethod))"
    }
    // The counting passes' costs are judged per pass (``passIncomparability(_:baseline:current:)``).
    let before = Set(baseline.counted.filter { $0.pass == nil })
    let after = Set(current.counted.filter { $0.pass == nil })
    if before != after {
      let only = before.symmetricDifference(after).map(\.rawValue).sorted().joined(separator: ", ")
      return "the runs counted different costs (\(only) on one side only)"
    }
    return nil
  }

  /// Why two runs' counts of a counting pass cannot be compared (a side that did not run the pass, or whose pass
  /// failed: its environment.json says why); nil when both counted them.
  static func passIncomparability(_ pass: CountingPass, baseline: Self?, current: Self?) -> String? {
    for (record, side) in [(baseline, "the baseline"), (current, "the current run")] {
      let cost = pass.costs[0]
      guard let record, record.counted.contains(cost) else {
        let reason = record?.missing[cost.rawValue] ?? "no counters in its environment.json"
        return "\(side) has no \(pass.rawValue) counts (\(reason))"
      }
    }
    return nil
  }
}
