/// durability.csv's columns, in file order: the one table `DurabilityRow` (StoreBenchCore) writes by and
/// ``CrashResult`` and ``RunFolder`` read by, so neither side spells a column's name.
public enum DurabilityColumn: String, CaseIterable, Sendable {
    case backend, variant, settings, fault, image, trials, images
    case ackedBatches = "acked_batches"
    case lostBatches = "lost_batches"
    case partialBatches = "partial_batches"
    case corruptOpens = "corrupt_opens"
    case unrecoverable, retries, status, detail

    /// The header line's names.
    public static var header: [String] { allCases.map(\.rawValue) }

    /// The counts: whole numbers, never negative.
    public static let counts: [DurabilityColumn] = [
        .trials, .images, .ackedBatches, .lostBatches, .partialBatches, .corruptOpens, .unrecoverable, .retries,
    ]

    /// What a crash result file must have to be read at all (older files say `kills` for `trials`).
    public static let required: [DurabilityColumn] = [.backend, .variant, .ackedBatches, .lostBatches]
}
