import StoreBenchContract

/// The settings of the `sqlite` backend: the only place their names and values are spelled.
public struct SQLiteSettings: BackendSettings {
  public enum Transactions: String, SettingChoice { case none, single, batch }
  public enum JournalMode: String, SettingChoice { case delete, wal }
  public enum Synchronous: String, SettingChoice {
    case off, normal, full, extra
    /// `PRAGMA synchronous` reads back as a number: 0 off, 1 normal, 2 full, 3 extra.
    init?(pragmaValue: String) {
      guard let level = Int(pragmaValue), Self.allCases.indices.contains(level) else { return nil }
      self = Self.allCases[level]
    }
  }
  public enum Switch: String, SettingChoice { case on, off }
  public enum Search: String, SettingChoice { case like, fts5 }
  public enum AutoVacuum: String, SettingChoice {
    case none, incremental
    /// `PRAGMA auto_vacuum` reads back as a number: 0 none, 1 full (not offered), 2 incremental.
    init?(pragmaValue: String) {
      switch pragmaValue {
      case "0": self = .none
      case "2": self = .incremental
      default: return nil
      }
    }
  }

  public var txn = Transactions.single
  public var journal = JournalMode.delete
  public var sync = Synchronous.full
  public var batchOperations = 500
  public var batchMilliseconds = 100
  public var index = Switch.on
  public var listIndex = Switch.off
  public var search = Search.like
  public var autoVacuum = AutoVacuum.none
  public enum Migration: String, SettingChoice { case alter, rebuild }
  public var migration = Migration.alter
  public enum TagSchema: String, SettingChoice { case join, denormalized, covering }
  public var tagSchema = TagSchema.join
  /// `PRAGMA fullfsync` (Apple platforms: `F_FULLFSYNC` instead of fsync); refused on Linux, where it does not exist.
  public var fullFsync = Switch.off
  /// How long a statement waits for another connection's (or process's) lock, in ms; 0: no wait (`SQLITE_BUSY`).
  public var busyTimeout = 10_000

  public init() {}

  public static var axes: [SettingAxis<SQLiteSettings>] {
    [
      .choice(
        "txn", \.txn, key: true,
        summary:
          "none: every statement in its own implicit transaction (autocommit); single: the whole operation in one explicit transaction; batch: auto-batched commits (GYDataCenter style), app code never writes BEGIN"
      ),
      .choice(
        "journal", \.journal, key: true,
        summary: "journal_mode: rollback journal (SQLite's default) or write-ahead log"),
      .choice(
        "sync", \.sync, key: true,
        summary:
          "synchronous: off (no fsync), normal, full (SQLite's default), extra (full, and in journal=delete the directory is synced after the journal is unlinked)"
      ),
      .integer(
        "batch_ops", \.batchOperations, range: 1...1_000_000,
        summary: "txn=batch: commit after this many writes"
      ).only(when: \.txn, is: .batch),
      .integer(
        "batch_ms", \.batchMilliseconds, range: 1...600_000,
        summary: "txn=batch: commit at the first write this many ms after the batch began"
      ).only(when: \.txn, is: .batch),
      .choice(
        "index", \.index,
        summary: "on: an index on article(feed_id, read, published DESC, uid) for the query workload; off: none"
      ),
      .choice(
        "list_index", \.listIndex,
        summary:
          "on: an index on article(published DESC, uid) for the launch list (newest first); off: none, the list scans and sorts"
      ),
      .choice(
        "search", \.search,
        summary: "like: LIKE '%word%' scans titles and summaries; fts5: an FTS5 index kept by triggers"),
      .choice(
        "auto_vacuum", \.autoVacuum,
        summary:
          "none: free pages stay in the file until VACUUM rebuilds it; incremental: auto_vacuum=INCREMENTAL, free pages are given back by PRAGMA incremental_vacuum (set when the file is created)"
      ),
      .choice(
        "migrate", \.migration,
        summary:
          "the migrate workload: alter: ALTER TABLE ADD COLUMN and an UPDATE converting every row in place; rebuild: a new table filled by INSERT … SELECT, the old one dropped, the new one renamed, the indexes recreated"
      ),
      .choice(
        "tags", \.tagSchema,
        summary:
          "the tags workload's lookup table note_tag(note_uid, tag_id), indexed by tag: join: archived only on article, the query joins; denormalized: archived copied into note_tag and kept in step; covering: denormalized plus an index on note_tag(archived, tag_id)"
      ),
      .choice(
        "fullfsync", \.fullFsync,
        summary:
          "Apple platforms only: on: PRAGMA fullfsync=ON, syncs with F_FULLFSYNC (a flush of the drive's cache; plain fsync does not flush it there). Refused on Linux, where fsync already flushes and F_FULLFSYNC does not exist (docs/PLATFORMS.md)"
      ),
      .integer(
        "busy_timeout", \.busyTimeout, range: 0...600_000,
        summary:
          "ms a statement waits for a lock another connection or process holds, sleeping as sqlite3_busy_timeout does (a counting busy handler); 0: no handler, the statement fails at once with SQLITE_BUSY"
      ),
    ]
  }
}
