import Foundation

/// A test-only seam: `STOREBENCH_TEST_DROPPED_SYNC=N` makes the page-cache layer answer the N-th file sync after the
/// settle without logging it — a writer that skipped one fsync before acknowledging — so that the tests and
/// `.ci/run` can show which crash-trial method catches it. `crash` prints a warning and records it in
/// durability.environment.json; no real run sets it.
public enum TestDroppedSync {
  public static let variable = "STOREBENCH_TEST_DROPPED_SYNC"

  /// The sync to drop; nil when the variable is unset or empty; throws on anything but a positive count.
  public static func count(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int? {
    guard let text = environment[variable], !text.isEmpty else { return nil }
    guard let count = Int(text), count > 0 else {
      throw TestSeamError(description: "\(variable)='\(text)': expected a positive count (the sync to drop)")
    }
    return count
  }

  public static func warning(_ count: Int) -> String {
    "TEST SEAM \(variable) is set: the page-cache layer loses file sync \(count) after the settle"
  }
}
