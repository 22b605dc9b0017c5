import StoreBenchContract

/// How faithfully the page-cache model represents a backend's writes (docs/POWER-LOSS.md).
public enum PowerLossModel {
    /// What a reader of a measured power-loss row should know about how the variant's writes reach the layer.
    public static func note(backend: String, variant: Variant) -> String {
        switch backend {
        case "gdbm":
            return "writes through a shared mapping: they reach the layer when the kernel writes the pages back "
                + "(msync at gdbm_sync, or writeback), so prefix images follow writeback order, not program order"
        case "sqlite" where variant["journal"] == "wal", "grdb" where variant["writer"] == "pool":
            return "the -shm index is a shared mapping; SQLite rebuilds it on recovery, so its content does not matter"
        case "lmdb":
            return "pages are written with pwrite (no MDB_WRITEMAP); only lock.mdb is a shared mapping"
        default:
            return ""
        }
    }
}
