import Foundation
import StoreBenchContract

/// Tells a child that was stopped (SIGSTOP, state `T` in `/proc/<pid>/stat`) for ``graceSeconds`` from one that is
/// only slow: a stopped child never answers, so a bounded wait on it gives up then instead of at its deadline. A
/// debugger's trace stop (`t`) is not counted. It reads `/proc` at most once a second and not at all in the first
/// second, so a wait that ends sooner (a launch's first line, inside the clock) costs nothing.
struct StoppedWatch {
  static let graceSeconds: UInt64 = 5
  private let since: UInt64
  private var checkedAt: UInt64 = 0
  private var stoppedSince: UInt64?

  init(since: UInt64) { self.since = since }

  /// "was stopped (SIGSTOP) for 5 s and would never answer" once `pid` has been stopped that long; nil otherwise.
  mutating func check(_ pid: pid_t) -> String? {
    let now = monotonicNanoseconds()
    guard since > 0, now &- since >= 1_000_000_000, now &- checkedAt >= 1_000_000_000 else { return nil }
    checkedAt = now
    guard ProcessTable.stat(of: pid)?.state == "T" else {
      stoppedSince = nil
      return nil
    }
    let start = stoppedSince ?? now
    stoppedSince = start
    return now - start >= Self.graceSeconds * 1_000_000_000
      ? "was stopped (SIGSTOP) for \(Self.graceSeconds) s and would never answer" : nil
  }
}
