/// durability.csv's columns, in file order: the one table `DurabilityRow` (StoreBenchCore) writes by and
/// ``CrashResult`` and ``RunFolder`` read by, so neither side spells a column's name.
public enum DurabilityColumn: String, CaseIterable, Sendable {
  case backend, variant, settings, fault, image, trials, images
  case ackedBatches = "acked_batches"
  case lostBatches = "lost_batches"
  case partialBatches = "partial_batches"
  case corruptOpens = "corrupt_opens"
  case unrecoverable, retries, status, detail
  /// How a power cut's states were chosen: `enumerated` (every state at every persistence point of a traced run)
  /// or `random` (seeded random cut moments); empty for kills and for files written before enumeration.
  case method
  /// Enumerated rows: persistence points, those whose prefix states were sampled, distinct images checked, states
  /// that lost an acknowledged batch, and the loss window (the oldest lost acknowledgement's age at its cut, ms).
  case points
  case sampledPoints = "sampled_points"
  case distinctImages = "distinct_images"
  case lostStates = "lost_states"
  case lossWindowMilliseconds = "loss_window_ms"
  /// Enumerated rows: the loss window in acknowledgements (how many of the newest saves a state lost, at most).
  case lossDepth = "loss_depth"
  /// Measured rows: the stores checked (kills, images, states) that lost a save — an acknowledged batch missing, or
  /// the store unreadable or damaged, which loses every save it held. Empty in files written before it was counted:
  /// readers then know only its least value (``CrashResult/Counts/losing``).
  case losingStates = "losing_states"

  /// The header line's names.
  public static var header: [String] { allCases.map(\.rawValue) }

  /// The counts: whole numbers, never negative.
  public static let counts: [DurabilityColumn] = [
    .trials, .images, .ackedBatches, .lostBatches, .partialBatches, .corruptOpens, .unrecoverable, .retries,
    .points, .sampledPoints, .distinctImages, .lostStates, .lossDepth, .losingStates,
  ]

  /// What a crash result file must have to be read at all (older files say `kills` for `trials`).
  public static let required: [DurabilityColumn] = [.backend, .variant, .ackedBatches, .lostBatches]
}

/// How a power cut's crash states were chosen (the `method` column).
public enum DurabilityMethod: String, Sendable, CaseIterable {
  /// Every state the page-cache model allows at every persistence point of one traced run.
  case enumerated
  /// Seeded random cut moments, each checked through its synced image and prefix images.
  case random
}
