import StoreBenchMeasure

/// How a run counted its costs, as its environment.json records them (`counters`), and whether two runs' counts
/// may be compared: only when both were counted on the same file system, the same way, with the same costs.
public struct CountedCostsRecord: Equatable, Sendable {
    public let fileSystem: String
    public let syncMethod: String
    public let counted: Set<String>

    /// The record in an environment.json object (nil when the run predates counting).
    init?(environment: [String: Any]?) {
        guard let counters = environment?["counters"] as? [String: Any] else { return nil }
        fileSystem = counters["file_system"] as? String ?? ""
        syncMethod = counters["sync_method"] as? String ?? ""
        counted = Set(counters["counted"] as? [String] ?? [])
    }

    /// Why the two runs' counts cannot be compared; nil when they can.
    static func incomparability(baseline: CountedCostsRecord?, current: CountedCostsRecord?) -> String? {
        let events = Set(CountedCost.allCases.filter { !$0.isBytes }.map(\.rawValue))
        func described(_ record: CountedCostsRecord?, _ side: String) -> String? {
            guard let record else { return "\(side) was not counted (no counters in its environment.json)" }
            if record.counted.isDisjoint(with: events) { return "\(side) counted no events (not root, or --no-counters: see its environment.json)" }
            return nil
        }
        if let reason = described(baseline, "the baseline") ?? described(current, "the current run") { return reason }
        guard let baseline, let current else { return nil }
        if baseline.fileSystem != current.fileSystem {
            return "the baseline was counted on \(baseline.fileSystem), the current run on \(current.fileSystem)"
        }
        if baseline.syncMethod != current.syncMethod {
            return "syncs were counted another way (baseline: \(baseline.syncMethod); current: \(current.syncMethod))"
        }
        if baseline.counted != current.counted {
            let only = baseline.counted.symmetricDifference(current.counted).sorted().joined(separator: ", ")
            return "the runs counted different costs (\(only) on one side only)"
        }
        return nil
    }
}
