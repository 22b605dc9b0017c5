import SQLiteAPI
import StoreBenchContract

/// The `aging` part of ``SQLiteStore``: the free list as SQLite reports it, and `VACUUM` or `incremental_vacuum`.
extension SQLiteStore: CompactingStore {
  /// `freelist_count` pages of `page_size` bytes, out of `page_count`.
  func freeSpace() throws -> FreeSpace {
    let free = Int64(try connection.scalarText("PRAGMA freelist_count") ?? "") ?? 0
    let pages = Int64(try connection.scalarText("PRAGMA page_count") ?? "") ?? 0
    let size = Int64(try connection.scalarText("PRAGMA page_size") ?? "") ?? 0
    return FreeSpace(freeBytes: free * size, detail: "freelist_count=\(free) page_count=\(pages) page_size=\(size)")
  }

  /// auto_vacuum=none: `VACUUM` rebuilds the file; incremental: `PRAGMA incremental_vacuum` moves pages and
  /// truncates. In WAL mode the log the rebuild went through is checkpointed and truncated, as an app does after it.
  func compact() throws -> Compaction {
    var method: String
    if settings.autoVacuum == .incremental {
      try connection.execute("PRAGMA incremental_vacuum")
      method = "PRAGMA incremental_vacuum"
    } else {
      try connection.execute("VACUUM")
      method = "VACUUM"
    }
    if settings.journal == .wal {
      try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
      method += "; PRAGMA wal_checkpoint(TRUNCATE)"
    }
    return Compaction(method: method)
  }
}
