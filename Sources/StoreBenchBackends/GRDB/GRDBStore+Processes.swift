import GRDB
import StoreBenchContract

/// The `shared` workload's part of ``GRDBStore``, configured for sharing as GRDB's documentation asks ("Sharing a
/// Database"): each process opens its own `DatabasePool` (WAL: reads go on while another process writes) or
/// `DatabaseQueue` (rollback journal), and a `busyMode` that waits for another process's lock — here a counting
/// callback that sleeps as `busyMode = .timeout(10)` would — before GRDB throws `SQLITE_BUSY`.
extension GRDBStore: ProcessSharingStore {
  static let busyTimeoutMilliseconds = 10_000

  var processSharing: ProcessSharing {
    ProcessSharing(
      how: (writer is DatabasePool
        ? "one DatabasePool per process (WAL: readers read on while another process writes)"
        : "one DatabaseQueue per process (rollback journal: no reader while another process commits)")
        + "; busyMode waits up to \(Self.busyTimeoutMilliseconds) ms for a lock, then SQLITE_BUSY")
  }

  var lockWaits: LockWaits {
    let waited = busyWait.waited
    return LockWaits(waits: waited.calls, nanoseconds: waited.nanoseconds)
  }

  func refusal(in error: any Error) -> String? {
    let underlying = (error as? GRDBStoreError)?.underlying ?? error
    guard let database = underlying as? DatabaseError, database.resultCode == .SQLITE_BUSY else { return nil }
    return database.extendedResultCode == .SQLITE_BUSY
      ? "SQLITE_BUSY" : "SQLITE_BUSY (extended \(database.extendedResultCode.rawValue))"
  }
}
