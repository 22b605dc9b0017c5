import GRDB
import StoreBenchContract

/// The `aging` part of ``GRDBStore``: the free list through GRDB, and GRDB's `vacuum()`.
extension GRDBStore: CompactingStore {
  func freeSpace() throws -> FreeSpace {
    try located {
      try writer.writeWithoutTransaction { db in
        let free = try Int64.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
        let pages = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        let size = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 0
        return FreeSpace(
          freeBytes: free * size, detail: "freelist_count=\(free) page_count=\(pages) page_size=\(size)")
      }
    }
  }

  /// `DatabaseWriter.vacuum()`; a pool (WAL) then checkpoints and truncates the log the rebuild went through.
  func compact() throws -> Compaction {
    try located {
      try writer.vacuum()
      guard writer is DatabasePool else { return Compaction(method: "vacuum()") }
      _ = try writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
      return Compaction(method: "vacuum(); checkpoint(.truncate)")
    }
  }
}
