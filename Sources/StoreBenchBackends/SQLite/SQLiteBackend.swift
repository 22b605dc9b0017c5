import SQLiteAPI
import StoreBenchContract

/// `sqlite`: the raw SQLite C API, the way an app that writes its own SQL uses it.
public enum SQLiteBackend {
    /// SQL keywords for the allowed setting values: pragma values never come from the scenario text itself.
    static let journalModes = ["delete": "DELETE", "wal": "WAL"]
    static let syncModes = ["off": "OFF", "normal": "NORMAL", "full": "FULL", "extra": "EXTRA"]
    /// `PRAGMA synchronous` reads back as a number.
    static let syncNames = ["0": "off", "1": "normal", "2": "full", "3": "extra"]

    public static let axes = [
        VariantAxis("txn", choices: ["none", "single", "batch"], default: "single",
                    summary: "none: every statement in its own implicit transaction (autocommit); single: the whole operation in one explicit transaction; batch: auto-batched commits (GYDataCenter style), app code never writes BEGIN"),
        VariantAxis("journal", choices: ["delete", "wal"], default: "delete",
                    summary: "journal_mode: rollback journal (SQLite's default) or write-ahead log"),
        VariantAxis("sync", choices: ["off", "normal", "full", "extra"], default: "full",
                    summary: "synchronous: off (no fsync), normal, full (SQLite's default), extra (full, and in journal=delete the directory is synced after the journal is unlinked)"),
        VariantAxis("batch_ops", range: 1...1_000_000, default: 500,
                    summary: "txn=batch: commit after this many writes").only(when: "txn", is: "batch"),
        VariantAxis("batch_ms", range: 1...600_000, default: 100,
                    summary: "txn=batch: commit at the first write this many ms after the batch began").only(when: "txn", is: "batch"),
        VariantAxis("index", choices: ["on", "off"], default: "on",
                    summary: "on: an index on article(feed_id, read, published DESC, uid) for the query workload; off: none"),
        VariantAxis("search", choices: ["like", "fts5"], default: "like",
                    summary: "like: LIKE '%word%' scans titles and summaries; fts5: an FTS5 index kept by triggers"),
    ]

    public static var descriptor: BackendDescriptor {
        BackendDescriptor(
            name: "sqlite",
            summary: "raw SQLite C API: prepared statements reused, index on uid, bulk UPDATE via json_each",
            axes: axes,
            storeFiles: [SQLiteStore.fileName],
            keyAxes: ["txn", "journal", "sync"],
            promise: { variant in
                // SQLite: NORMAL in WAL mode (and OFF) keeps commits across a kill but not necessarily across a power
                // loss. FULL syncs every commit, but in journal=delete the unlink of the journal (the commit point) is
                // not synced: the last commit may roll back after a power loss. EXTRA syncs the directory after that
                // unlink. txn=batch commits its open batch when the app operation ends (inside the clock, and before
                // the crash writer acknowledges), so at that point it keeps what its journal and sync keep.
                switch (variant["sync"], variant["journal"]) {
                case ("extra", _), ("full", "wal"): return .durable
                default: return .survivesKill
                }
            },
            powerLossNote: { variant in
                variant["journal"] == "wal"
                    ? "the -shm index is a shared mapping; SQLite rebuilds it on recovery, so its content does not matter" : ""
            },
            libraryVersions: {
                ["sqlite": SQLiteConnection.libraryVersion,
                 "sqlite_compile_options": SQLiteConnection.compileOptions.joined(separator: " ")]
            },
            open: { location in try SQLiteStore(location: location) }
        )
    }
}

extension SQLiteBackend {
    /// The store's file name inside its directory (for `storebench overhead`'s C baseline, which does the same work).
    public static var fileName: String { SQLiteStore.fileName }
    /// The schema a store of `variant` creates (the C baseline creates the same).
    public static func schema(for variant: Variant) -> String { SQLiteStore.schema(for: variant) }
    /// The statement that inserts one article.
    public static var insertArticleSQL: String { SQLiteStore.Query.insertArticle.rawValue }
    /// The statement that reads one article by uid.
    public static var articleByUIDSQL: String { SQLiteStore.Query.articleByUID.rawValue }
}
