import LMDBAPI
import StoreBenchContract

/// The `shared` workload's part of ``LMDBStore``: LMDB is multi-process by design. Each process opens the
/// environment; `lock.mdb` holds the reader table and the writer's mutex, so one write transaction runs at a time
/// (another process's `mdb_txn_begin` waits for it, never refused) and readers never wait.
extension LMDBStore: ProcessSharingStore {
  var processSharing: ProcessSharing {
    ProcessSharing(
      how: "LMDB's lock file: one write transaction at a time across processes (a second writer waits in "
        + "mdb_txn_begin), readers never wait")
  }

  var lockWaits: LockWaits {
    let waited = environment.writeLockWaits
    return LockWaits(waits: waited.waits, nanoseconds: waited.nanoseconds)
  }
}
