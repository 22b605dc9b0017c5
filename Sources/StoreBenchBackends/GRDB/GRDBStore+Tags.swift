import GRDB
import StoreBenchContract

/// A tag, as a GRDB app declares a many-to-many relation: tags have many notes through the `noteTag` pivot
/// (`hasMany(_:through:using:)`).
struct TagRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "tag"
  var id: Int64

  static let noteTags = hasMany(NoteTagRecord.self)
  static let notes = hasMany(ArticleRecord.self, through: noteTags, using: NoteTagRecord.note)
}

/// The pivot: one row per (note, tag), foreign keys to both.
struct NoteTagRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "noteTag"
  var noteUID: String
  var tagID: Int64
  /// `tags=covering`: the note's `archived`, copied; nil (no column) with `tags=join`.
  var archived: Bool?

  func encode(to container: inout PersistenceContainer) {
    container["noteUID"] = noteUID
    container["tagID"] = tagID
    if let archived { container["archived"] = archived }
  }

  static let note = belongsTo(ArticleRecord.self)
  static let tag = belongsTo(TagRecord.self)
}

/// The `tags` part of ``GRDBStore``: one more migration (an `archived` column, `tag` and the `noteTag` pivot with
/// foreign keys, indexed by tag), registered when tags are first loaded; both queries through the associations.
/// `tags=covering` copies `archived` into the pivot (kept in step when a note is archived) and indexes
/// (archived, tagID), so the sidebar's query reads the index alone.
extension GRDBStore: TaggingStore {
  private static let archived = Column("archived")

  private func migratorWithTags() -> DatabaseMigrator {
    var migrator = GRDBSchema.migrator(index: indexed, listIndex: listIndexed, fullText: fullTextSearch)
    let covering = coveringTags
    migrator.registerMigration("tags") { db in
      try db.alter(table: "article") { t in t.add(column: "archived", .boolean).notNull().defaults(to: false) }
      try db.create(table: "tag") { t in t.primaryKey("id", .integer) }
      try db.create(table: "noteTag") { t in
        t.column("noteUID", .text).notNull().references("article", onDelete: .cascade)
        t.column("tagID", .integer).notNull().references("tag", onDelete: .cascade)
        if covering { t.column("archived", .boolean).notNull() }
        t.primaryKey(["noteUID", "tagID"])
      }
      try db.create(index: "noteTag_tagID", on: "noteTag", columns: ["tagID", "noteUID"])
      if covering { try db.create(index: "noteTag_archived", on: "noteTag", columns: ["archived", "tagID"]) }
    }
    return migrator
  }

  /// "Tags with unarchived notes": tags joined to their unarchived notes through the pivot, distinct.
  private static var unarchivedRequest: QueryInterfaceRequest<TagRecord> {
    TagRecord.joining(required: TagRecord.notes.filter(archived == false)).distinct().order(Column("id"))
  }

  /// `tags=covering`: the same answer from the pivot's copy of `archived`, which its index covers.
  private static var unarchivedCoveringRequest: QueryInterfaceRequest<Int64> {
    NoteTagRecord.filter(archived == false).select(Column("tagID"), as: Int64.self).distinct()
      .order(Column("tagID"))
  }

  private static func newestRequest(tag: Int64, limit: Int) -> QueryInterfaceRequest<ArticleRecord> {
    TagRecord(id: tag).request(for: TagRecord.notes)
      .order(ArticleRecord.Columns.published.desc, ArticleRecord.Columns.uid).limit(limit)
  }

  func load(articles batch: [Article], tags notes: [NoteTags]) throws {
    try located {
      try migratorWithTags().migrate(writer)
      try writer.write { db in
        for article in batch { try ArticleRecord(article).insert(db) }
        for tag in Set(notes.flatMap(\.tags)).sorted() { try TagRecord(id: tag).insert(db) }
        for note in notes {
          if note.archived {
            try ArticleRecord.filter(key: note.uid).updateAll(db, Self.archived.set(to: true))
          }
          for tag in note.tags {
            try NoteTagRecord(noteUID: note.uid, tagID: tag, archived: copy(note.archived)).insert(db)
          }
        }
      }
    }
  }

  /// The pivot's copy of `archived`: the value with `tags=covering`, nil (no column) otherwise.
  private func copy(_ archived: Bool) -> Bool? { coveringTags ? archived : nil }

  func tagsWithUnarchivedNotes() throws -> [Int64] {
    try located {
      try writer.read { db in
        coveringTags
          ? try Self.unarchivedCoveringRequest.fetchAll(db)
          : try Self.unarchivedRequest.fetchAll(db).map(\.id)
      }
    }
  }

  func newestNotes(tag: Int64, limit: Int) throws -> [Article] {
    try located {
      try writer.read { db in try Self.newestRequest(tag: tag, limit: limit).fetchAll(db).map(\.article) }
    }
  }

  /// A tag not yet in the `tag` table is created first (find-or-create), as the foreign key requires.
  func apply(_ change: TagChange) throws {
    try located {
      try inDatabase { db in
        switch change {
        case .add(let uid, let tag):
          try TagRecord(id: tag).insert(db, onConflict: .ignore)
          var pivot = NoteTagRecord(noteUID: uid, tagID: tag)
          if coveringTags {
            guard
              let archived = try Bool.fetchOne(
                db, ArticleRecord.select(Self.archived).filter(key: uid))
            else { throw StoreError.inconsistent("no note \(uid)") }
            pivot.archived = archived
          }
          try pivot.insert(db)
        case .remove(let uid, let tag):
          guard try NoteTagRecord.deleteOne(db, key: ["noteUID": uid, "tagID": tag]) else {
            throw StoreError.inconsistent("note \(uid) has no tag \(tag)")
          }
        case .archive(let uid, let archived):
          guard try ArticleRecord.filter(key: uid).updateAll(db, Self.archived.set(to: archived)) == 1 else {
            throw StoreError.inconsistent("no note \(uid)")
          }
          if coveringTags {
            try NoteTagRecord.filter(Column("noteUID") == uid).updateAll(
              db, Self.archived.set(to: archived))
          }
        }
      }
    }
  }

  func allNoteTags() throws -> [NoteTags] {
    try located {
      try writer.read { db in
        var notes: [String: NoteTags] = [:]
        for uid in try String.fetchAll(
          db, ArticleRecord.select(ArticleRecord.Columns.uid).filter(Self.archived == true))
        {
          notes[uid] = NoteTags(uid: uid, archived: true, tags: [])
        }
        for pivot in try NoteTagRecord.fetchAll(db) {
          var note = notes[pivot.noteUID] ?? NoteTags(uid: pivot.noteUID, archived: false, tags: [])
          if coveringTags, pivot.archived != note.archived {
            // The copy out of step with the note: the sidebar would answer wrongly.
            throw StoreError.inconsistent(
              "noteTag(\(pivot.noteUID), \(pivot.tagID)) has archived=\(pivot.archived.map(String.init) ?? "null"), "
                + "the note has \(note.archived)")
          }
          note.tags.append(pivot.tagID)
          notes[pivot.noteUID] = NoteTags(uid: note.uid, archived: note.archived, tags: note.tags)
        }
        return Array(notes.values)
      }
    }
  }

  func tagQueryPlans() throws -> [String] {
    try located {
      try writer.read { db in
        [
          "tags-with-unarchived-notes: "
            + (coveringTags
              ? try Self.plan(of: Self.unarchivedCoveringRequest, in: db)
              : try Self.plan(of: Self.unarchivedRequest, in: db)),
          "newest-notes-with-tag: " + (try Self.plan(of: Self.newestRequest(tag: 1, limit: 50), in: db)),
        ]
      }
    }
  }
}
