import Foundation
import GRDB

/// The app's persistence layer: notes in folders, in one SQLite file through GRDB.
///
/// Writes go through ``write(_:)``, one transaction per app operation; reads through ``read(_:)``. The schema is the
/// app's own: a `note` table with its text, an `edited_at` timestamp, and an `info` JSON column the app extends
/// without migrations (seen, pinned, word count).
public final class NotesRepository {
  /// How the file is journaled: a write-ahead log or SQLite's rollback journal.
  public enum Journal: String, Sendable { case wal, delete }

  public struct Options: Sendable {
    public var journal: Journal = .wal
    /// An index on `(edited_at DESC, id)`: the recent-notes list without a sort.
    public var recentIndex = false
    public init() {}
  }

  private let queue: DatabaseQueue
  /// The database of the write in progress: calls made inside ``write(_:)`` use it.
  private var current: Database?

  public init(path: String, options: Options = Options()) throws {
    var configuration = Configuration()
    configuration.prepareDatabase { db in
      // FULL: every commit is synced (in WAL mode, the log on each commit).
      try db.execute(sql: "PRAGMA synchronous = FULL")
    }
    queue = try DatabaseQueue(path: path, configuration: configuration)
    try queue.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA journal_mode = \(options.journal.rawValue)")
    }
    var migrator = DatabaseMigrator()
    migrator.registerMigration("notes v1") { db in
      try db.create(table: "note") { table in
        table.column("id", .text).primaryKey()
        table.column("folder_id", .integer).notNull()
        table.column("heading", .text).notNull()
        table.column("body", .text).notNull()
        table.column("edited_at", .integer).notNull()
        table.column("info", .jsonText).notNull()
      }
      try db.create(index: "note_folder", on: "note", columns: ["folder_id", "edited_at"])
    }
    try migrator.migrate(queue)
    if options.recentIndex {
      try queue.write { db in
        try db.execute(sql: "CREATE INDEX IF NOT EXISTS note_recent ON note(edited_at DESC, id)")
      }
    }
  }

  /// The journal mode and synchronous level SQLite reports.
  public func effectiveSettings() throws -> (journal: String, synchronous: Int) {
    try queue.read { db in
      (
        try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "",
        try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
      )
    }
  }

  /// Runs `body` as one transaction: committed when it returns, rolled back when it throws.
  public func write(_ body: () throws -> Void) throws {
    try queue.inTransaction { db in
      current = db
      defer { current = nil }
      try body()
      return .commit
    }
  }

  /// `body` on the database: the write in progress's, or a transaction of its own.
  private func database<T>(_ body: (Database) throws -> T) throws -> T {
    if let current { return try body(current) }
    return try queue.write(body)
  }

  public func read<T>(_ body: (Database) throws -> T) throws -> T {
    if let current { return try body(current) }
    return try queue.read(body)
  }

  public func save(_ note: Note) throws { try database { try note.save($0) } }

  /// Saves many notes in one transaction.
  public func importNotes(_ notes: [Note]) throws {
    try queue.write { db in
      for note in notes { try note.insert(db) }
    }
  }

  public func note(id: String) throws -> Note? { try read { try Note.fetchOne($0, key: id) } }

  /// Changes a note's text and timestamp: fetched, changed, saved.
  public func editNote(id: String, heading: String, body: String, editedAt: Int64) throws {
    try database { db in
      guard var note = try Note.fetchOne(db, key: id) else {
        throw NotesError(message: "no note \(id)")
      }
      note.heading = heading
      note.body = body
      note.editedAt = editedAt
      note.info.wordCount = Note.words(in: body)
      try note.update(db)
    }
  }

  /// Marks notes seen: one statement over the JSON column.
  public func markSeen(ids: [String]) throws {
    let list = String(decoding: try JSONEncoder().encode(ids), as: UTF8.self)
    try database { db in
      try db.execute(
        sql: """
          UPDATE note SET info = json_set(info, '$.seen', json('true'))
          WHERE id IN (SELECT value FROM json_each(?))
          """, arguments: [list])
    }
  }

  public func deleteNotes(ids: [String]) throws {
    try database { db in _ = try Note.deleteAll(db, keys: ids) }
  }

  public func allNotes() throws -> [Note] { try read { try Note.fetchAll($0) } }

  public func allIDs() throws -> [String] { try read { try String.fetchAll($0, sql: "SELECT id FROM note") } }

  static let recentSQL = "SELECT * FROM note ORDER BY edited_at DESC, id LIMIT ?"
  static let unseenCountsSQL = """
    SELECT folder_id, COUNT(*) FROM note WHERE json_extract(info, '$.seen') = 0 GROUP BY folder_id
    """
  static let unseenInFolderSQL = """
    SELECT * FROM note WHERE folder_id = ? AND json_extract(info, '$.seen') = 0
    ORDER BY edited_at DESC, id LIMIT ?
    """
  static let searchSQL = "SELECT id FROM note WHERE heading LIKE ? OR body LIKE ?"

  /// The newest notes of every folder, for the list the app opens on.
  public func recentNotes(limit: Int) throws -> [Note] {
    try read { try Note.fetchAll($0, sql: Self.recentSQL, arguments: [limit]) }
  }

  /// How many notes of each folder are unseen (folders with none are left out).
  public func unseenCounts() throws -> [Int64: Int] {
    try read { db in
      var counts: [Int64: Int] = [:]
      for row in try Row.fetchAll(db, sql: Self.unseenCountsSQL) { counts[row[0]] = row[1] }
      return counts
    }
  }

  public func unseenNotes(folderID: Int64, limit: Int) throws -> [Note] {
    try read { try Note.fetchAll($0, sql: Self.unseenInFolderSQL, arguments: [folderID, limit]) }
  }

  /// The ids of the notes whose heading or body contains `text`, ignoring ASCII case (SQL `LIKE`).
  public func search(_ text: String) throws -> [String] {
    let pattern = "%\(text)%"
    return try read { try String.fetchAll($0, sql: Self.searchSQL, arguments: [pattern, pattern]) }
  }

  /// The app's queries whose plans it reports.
  public enum Query: Sendable {
    case recent, unseenCounts, unseenInFolder

    var sql: String {
      switch self {
      case .recent: NotesRepository.recentSQL
      case .unseenCounts: NotesRepository.unseenCountsSQL
      case .unseenInFolder: NotesRepository.unseenInFolderSQL
      }
    }

    /// Arguments of the shape the app passes (a folder, a screen of 50).
    var sampleArguments: StatementArguments {
      switch self {
      case .recent: [50]
      case .unseenCounts: []
      case .unseenInFolder: [1, 50]
      }
    }
  }

  /// `EXPLAIN QUERY PLAN` of `query`, its steps joined by "; ".
  public func plan(_ query: Query) throws -> String {
    try read { db in
      try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + query.sql, arguments: query.sampleArguments)
        .map { $0["detail"] as String }.joined(separator: "; ")
    }
  }

  /// SQLite's own check of the file.
  public func integrityCheck() throws -> String {
    try read { try String.fetchAll($0, sql: "PRAGMA integrity_check").joined(separator: "; ") }
  }

  public func close() throws { try queue.close() }
}

/// An error of the notes layer.
public struct NotesError: Error, CustomStringConvertible {
  public let message: String
  public var description: String { message }
  public init(message: String) { self.message = message }
}
