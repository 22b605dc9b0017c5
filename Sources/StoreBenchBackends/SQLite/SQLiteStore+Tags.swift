import Foundation
import SQLiteAPI
import StoreBenchContract

/// The `tags` part of ``SQLiteStore`` (seed 000): an `archived` column on `article` and a lookup table
/// `note_tag(note_uid, tag_id)` indexed by tag, in the variant's `tags` design — `join` (the query joins `article` for
/// `archived`), `denormalized` (`archived` copied into `note_tag` and updated with the note), `covering`
/// (denormalized, plus an index on `note_tag(archived, tag_id)` that answers the query alone).
extension SQLiteStore: TaggingStore {
  private var copiesArchived: Bool { settings.tagSchema != .join }

  /// The tables, created when tags are first loaded (the article table is still empty then, so the added column is
  /// what a `CREATE TABLE` would have made); other workloads' stores do not carry them.
  private var tagSchema: String {
    """
    ALTER TABLE article ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE note_tag(note_uid TEXT NOT NULL, tag_id INTEGER NOT NULL\(copiesArchived ? ", archived INTEGER NOT NULL" : ""),
                          PRIMARY KEY (note_uid, tag_id)) WITHOUT ROWID;
    CREATE INDEX note_tag_by_tag ON note_tag(tag_id, note_uid);
    """ + (settings.tagSchema == .covering ? "\nCREATE INDEX note_tag_archived ON note_tag(archived, tag_id);" : "")
  }

  private var unarchivedQuery: Query { copiesArchived ? .tagsWithUnarchivedNotesCopy : .tagsWithUnarchivedNotesJoin }

  func load(articles batch: [Article], tags notes: [NoteTags]) throws {
    try commitPending()
    try connection.execute(tagSchema)
    try load(articles: batch)
    try connection.transaction {
      let archive = try connection.prepare("UPDATE article SET archived = 1 WHERE uid = ?1")
      defer { archive.finalize() }
      for note in notes where note.archived {
        try archive.bind(note.uid, at: 1)
        try archive.run()
      }
      let insert = try connection.prepare(
        copiesArchived
          ? "INSERT INTO note_tag(note_uid, tag_id, archived) VALUES (?1, ?2, ?3)"
          : "INSERT INTO note_tag(note_uid, tag_id) VALUES (?1, ?2)")
      defer { insert.finalize() }
      for note in notes {
        for tag in note.tags {
          try insert.bind(note.uid, at: 1)
          try insert.bind(tag, at: 2)
          if copiesArchived { try insert.bind(note.archived ? 1 : 0, at: 3) }
          try insert.run()
        }
      }
    }
  }

  func tagsWithUnarchivedNotes() throws -> [Int64] {
    let select = try statement(unarchivedQuery)
    defer { select.reset() }
    var tags: [Int64] = []
    while try select.step() { tags.append(select.int64(at: 0)) }
    return tags
  }

  func newestNotes(tag: Int64, limit: Int) throws -> [Article] {
    let select = try statement(.newestNotesWithTag)
    defer { select.reset() }
    try select.bind(tag, at: 1)
    try select.bind(limit, at: 2)
    var articles: [Article] = []
    while try select.step() { articles.append(Self.article(from: select)) }
    return articles
  }

  func apply(_ change: TagChange) throws {
    try beginWrite()
    switch change {
    case .add(let uid, let tag):
      try run(copiesArchived ? .addTagCopy : .addTagJoin, uid, tag, expecting: "note \(uid)")
    case .remove(let uid, let tag):
      try run(.removeTag, uid, tag, expecting: "tag \(tag) on note \(uid)")
    case .archive(let uid, let archived):
      try run(.archiveNote, uid, archived ? 1 : 0, expecting: "note \(uid)")
      if copiesArchived { try run(.archiveNoteCopy, uid, archived ? 1 : 0, expecting: nil) }
    }
    try endWrite()
  }

  /// Runs a prepared change; with `expecting`, exactly one row must change (else that thing is missing).
  private func run(_ query: Query, _ uid: String, _ value: Int64, expecting: String?) throws {
    let change = try statement(query)
    try change.bind(uid, at: 1)
    try change.bind(value, at: 2)
    try change.run()
    if let expecting, connection.changes != 1 { throw StoreError.inconsistent("no \(expecting)") }
  }

  /// Also checks the denormalized copy: every `note_tag.archived` equals its note's.
  func allNoteTags() throws -> [NoteTags] {
    var notes: [String: NoteTags] = [:]
    let archived = try connection.prepare("SELECT uid FROM article WHERE archived = 1")
    defer { archived.finalize() }
    while try archived.step() {
      let uid = archived.text(at: 0)
      notes[uid] = NoteTags(uid: uid, archived: true, tags: [])
    }
    let tagged = try connection.prepare("SELECT note_uid, tag_id FROM note_tag")
    defer { tagged.finalize() }
    while try tagged.step() {
      let uid = tagged.text(at: 0)
      var note = notes[uid] ?? NoteTags(uid: uid, archived: false, tags: [])
      note.tags.append(tagged.int64(at: 1))
      notes[uid] = note
    }
    if copiesArchived {
      let stale = try connection.scalarText(
        """
        SELECT count(*) FROM note_tag JOIN article ON article.uid = note_tag.note_uid
        WHERE note_tag.archived != article.archived
        """)
      guard stale == "0" else {
        throw StoreError.inconsistent("\(stale ?? "?") note_tag rows disagree with their note's archived")
      }
    }
    return notes.values.map { NoteTags(uid: $0.uid, archived: $0.archived, tags: $0.tags) }
  }

  func tagQueryPlans() throws -> [String] {
    [
      "tags-with-unarchived-notes: " + (try plan(unarchivedQuery.rawValue)),
      "newest-notes-with-tag: " + (try plan(Query.newestNotesWithTag.rawValue)),
    ]
  }
}
