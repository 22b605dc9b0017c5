import SQLiteAPI
import StoreBenchContract

/// `sqlite`: the raw SQLite C API, the way an app that writes its own SQL uses it.
public enum SQLiteBackend {
  public static var descriptor: BackendDescriptor {
    BackendDescriptor(
      name: "sqlite",
      summary: "raw SQLite C API: prepared statements reused, index on uid, bulk UPDATE via json_each",
      settings: SQLiteSettings.self,
      smoke: [
        SQLiteSettings().with { ($0.txn, $0.journal, $0.sync) = (.none, .wal, .normal) },
        SQLiteSettings().with { ($0.txn, $0.journal, $0.sync) = (.single, .wal, .normal) },
        SQLiteSettings().with {
          ($0.txn, $0.journal, $0.sync, $0.batchOperations) = (.batch, .wal, .normal, 50)
        },
        SQLiteSettings().with { ($0.txn, $0.journal, $0.sync) = (.none, .delete, .full) },
        SQLiteSettings().with {
          ($0.txn, $0.journal, $0.sync, $0.index, $0.search) = (.single, .wal, .normal, .off, .fts5)
        },
      ],
      advise: [
        .init(
          SQLiteSettings().with { ($0.txn, $0.journal, $0.sync) = (.single, .wal, .normal) },
          provides: provides),
        .init(
          SQLiteSettings().with { ($0.txn, $0.journal, $0.sync) = (.single, .wal, .full) }, provides: provides
        ),
        .init(
          SQLiteSettings().with { ($0.txn, $0.journal, $0.sync) = (.single, .delete, .full) },
          provides: provides),
      ],
      storeFiles: [SQLiteStore.fileName],
      promise: { settings in
        // SQLite: NORMAL in WAL mode (and OFF) keeps commits across a kill but not necessarily across a power
        // loss. FULL syncs every commit, but in journal=delete the unlink of the journal (the commit point) is
        // not synced: the last commit may roll back after a power loss. EXTRA syncs the directory after that
        // unlink. txn=batch commits its open batch when the app operation ends (inside the clock, and before
        // the crash writer acknowledges), so at that point it keeps what its journal and sync keep.
        switch (settings.sync, settings.journal) {
        case (.extra, _), (.full, .wal): return .durable
        default: return .survivesKill
        }
      },
      powerLossNote: { settings in
        settings.journal == .wal
          ? "the -shm index is a shared mapping; SQLite rebuilds it on recovery, so its content does not matter"
          : ""
      },
      // txn=batch commits a batch at the first write batch_ms after it began: how many commits an operation pays
      // follows the clock.
      workDependsOnTiming: { settings in settings.txn == .batch },
      libraryVersions: {
        [
          "sqlite": SQLiteConnection.libraryVersion,
          "sqlite_compile_options": SQLiteConnection.compileOptions.joined(separator: " "),
        ]
      },
      open: { location, settings in try SQLiteStore(location: location, settings: settings) }
    )
  }
}

extension SQLiteBackend {
  /// How a SQLite strategy provides what an app's operations need: the launch list's index, the covering tag
  /// index, FTS5.
  static let provides: [SchemaNeed: @Sendable (inout SQLiteSettings) -> Void] = [
    .newestFirstList: { $0.listIndex = .on },
    .coveringTagIndex: { $0.tagSchema = .covering },
    .fullTextSearch: { $0.search = .fts5 },
  ]

  /// The store's file name inside its directory (for `storebench overhead`'s C baseline, which does the same work).
  public static var fileName: String { SQLiteStore.fileName }
  /// The schema a store with `settings` creates (the C baseline creates the same).
  public static func schema(for settings: SQLiteSettings) -> String { SQLiteStore.schema(for: settings) }
  /// The statement that inserts one article.
  public static var insertArticleSQL: String { SQLiteStore.Query.insertArticle.rawValue }
  /// The statement that reads one article by uid.
  public static var articleByUIDSQL: String { SQLiteStore.Query.articleByUID.rawValue }
}
