/// What a backend variant promises about committed data (its documentation and settings, not a measurement), in
/// three classes the decision report groups by. `storebench crash` measures the killed-app part.
public enum DurabilityPromise: String, Sendable, CaseIterable, Comparable {
  /// Every completed operation survives a killed app and a power loss (fsync before acknowledging).
  case durable = "survives power loss"
  /// Every completed operation survives a killed app; a power loss may lose the latest ones.
  case survivesKill = "survives a killed app"
  /// A killed app may lose completed operations or leave the store unreadable (no transactions, in-place
  /// rewrites, an open batch).
  case mayLose = "may lose data when the app is killed"
  /// Nothing outlives the process (the in-memory floor).
  case none = "in memory only"

  /// Stronger promises first.
  public static func < (a: Self, b: Self) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }

  /// Whether it keeps at least what `other` keeps.
  public func keeps(atLeast other: Self) -> Bool { self <= other }
}
