import SQLiteAPI
import StoreBenchContract

/// The `shared` workload's part of ``SQLiteStore``: each process opens its own connection; SQLite's file locks let
/// one writer in at a time (a rollback journal also keeps readers out while it commits; WAL lets them read on), and a
/// process that finds the lock taken waits in the busy handler up to `busy_timeout`, then is refused.
extension SQLiteStore: ProcessSharingStore {
  var processSharing: ProcessSharing {
    let wait =
      settings.busyTimeout > 0
      ? "a locked database is waited for up to \(settings.busyTimeout) ms, then SQLITE_BUSY"
      : "no busy handler: a locked database fails at once with SQLITE_BUSY"
    let journal =
      settings.journal == .wal
      ? "WAL: one writer at a time, readers read on while it writes"
      : "rollback journal: one writer at a time, and no reader while it commits"
    return ProcessSharing(how: "SQLite file locks, \(journal); \(wait)")
  }

  var lockWaits: LockWaits {
    let waited = connection.busyWait?.waited ?? (calls: 0, nanoseconds: 0)
    return LockWaits(waits: waited.calls, nanoseconds: waited.nanoseconds)
  }

  func refusal(in error: any Error) -> String? {
    guard let error = error as? SQLiteError, error.code.primary == .busy else { return nil }
    return error.code == .busy ? "SQLITE_BUSY" : "SQLITE_BUSY (extended \(error.code.rawValue))"
  }
}
