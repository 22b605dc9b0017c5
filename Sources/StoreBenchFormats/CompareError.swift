import StoreBenchContract

/// Unreadable or mismatched input to `compare` or `report` (exit 1).
public struct CompareError: ExitCoded, CustomStringConvertible {
  /// Unreadable or mismatched input to compare: exit 1 (the gate cannot pass).
  public var exit: StoreBenchExit { .failure }
  public let message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
