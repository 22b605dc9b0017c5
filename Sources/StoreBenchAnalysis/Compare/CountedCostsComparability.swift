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
  var countedEvents: Bool { counted.contains { !$0.isBytes } }

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
    let before = Set(baseline.counted)
    let after = Set(current.counted)
    if before != after {
      let only = before.symmetricDifference(after).map(\.rawValue).sorted().joined(separator: ", ")
      return "the runs counted different costs (\(only) on one side only)"
    }
    return nil
  }
}
