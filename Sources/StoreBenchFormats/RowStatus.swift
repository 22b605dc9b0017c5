import StoreBenchContract

/// The status of a result row.
public enum RowStatus: String, Sendable {
  /// Measured and verified.
  case ok
  /// Prepare, measure or verify threw, or verification found the wrong content.
  case failed
  /// The backend cannot do this workload meaningfully (``StoreError/unsupported(_:)``).
  case unsupported
}
