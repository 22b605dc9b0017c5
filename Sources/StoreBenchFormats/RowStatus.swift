import StoreBenchContract

/// The status of a result row.
public enum RowStatus: String, Sendable {
  /// Measured and verified.
  case ok
  /// Prepare, measure or verify threw, or verification found the wrong content.
  case failed
  /// The backend cannot do this workload meaningfully (``StoreError/unsupported(_:)``).
  case unsupported
  /// A counting pass's repetition (``CountingPass``): only the pass's exact counts are results; its times are not
  /// measurements and its cells are empty (repetition 0, one row per case).
  case counted
}
