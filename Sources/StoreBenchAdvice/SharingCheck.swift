import StoreBenchAnalysis

/// Whether a strategy keeps a profile's `processes` need, from its `shared` rows: no acknowledged update lost (last
/// writer wins), and no more refused attempts (`SQLITE_BUSY`, `GDBM_CANT_BE_WRITER`) per operation than the profile
/// allows. Counted over every ok repetition.
public struct SharingCheck: Sendable, Equatable {
    public let lostUpdates: Int
    public let refusals: Int
    public let operations: Int
    public let repetitions: Int
    /// The profile's allowance, in percent of the operations.
    public let allowedPercent: Double

    /// Refused attempts per 100 acknowledged operations.
    public var refusedPercent: Double { operations > 0 ? Double(refusals) * 100 / Double(operations) : 0 }
    public var met: Bool { lostUpdates == 0 && refusedPercent <= allowedPercent }

    /// The check of the `shared` rows among `rows`; nil when the profile has no other process or no row ran.
    public init?(rows: [SampleTable.Row], profile: AppProfile, workload: String) {
        guard let processes = profile.processes else { return nil }
        let ok = rows.filter { $0.key.workload == workload && $0.status == .ok }
        guard !ok.isEmpty else { return nil }
        func total(_ column: SampleColumn) -> Int { Int(ok.compactMap { $0.values[column] }.reduce(0, +)) }
        lostUpdates = total(.lostUpdates)
        refusals = total(.refusals)
        operations = total(.ops)
        repetitions = ok.count
        allowedPercent = processes.refusedPercent
    }

    /// The evidence in words: `12 lost updates and 3 refusals in 1,204 operations (0.2%; allowed 0%), 8 repetitions`.
    public var phrase: String {
        "\(lostUpdates) lost update\(lostUpdates == 1 ? "" : "s") and \(refusals) refused attempt"
            + "\(refusals == 1 ? "" : "s") in \(operations) operations of the app and its extension ("
            + String(format: "%.1f%%; allowed %@%%", refusedPercent, Advice.number(allowedPercent))
            + "), \(repetitions) repetition\(repetitions == 1 ? "" : "s")"
    }
}
