import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The children this process started and has not yet collected, so that an exit at once on a signal
/// (``InterruptRequest``) takes them along: a child has a process group of its own (a Ctrl-C in the terminal does
/// not reach it), and without this `verify-store`'s checking child kept reading the removed copy after its parent
/// had exited 130.
///
/// Process-wide like the signals it serves; only ``ChildProcess`` adds and removes pids.
public enum LiveChildren {
  private static let pids = Mutex<Set<pid_t>>([])

  static func add(_ pid: pid_t) { _ = pids.withLock { $0.insert(pid) } }

  static func remove(_ pid: pid_t) { _ = pids.withLock { $0.remove(pid) } }

  /// Whether `pid` is registered (a child started and not yet collected).
  public static func contains(_ pid: pid_t) -> Bool { pids.withLock { $0.contains(pid) } }

  /// Sends SIGKILL to every child still registered (called just before `_exit`; init collects them).
  static func killAll() {
    for pid in pids.withLock({ $0 }) { kill(pid, SIGKILL) }
  }
}
