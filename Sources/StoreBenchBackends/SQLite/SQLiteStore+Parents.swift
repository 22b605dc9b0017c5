import Foundation
import SQLiteAPI
import StoreBenchContract

/// The `parents` part of ``SQLiteStore``: a `parent` table, an `entry` table whose rows name their parent and
/// author (authors in the `user` table), and the index `entry(parent_id, date DESC, id DESC)` that opening a parent
/// and finding each parent's newest record read — created when parents are first loaded; other workloads' stores do
/// not carry them. Saves and mark-read run under the variant's transaction policy like every write.
extension SQLiteStore: ParentStore {
  private static let parentSchema = """
    CREATE TABLE parent(id INTEGER PRIMARY KEY, title TEXT NOT NULL);
    CREATE TABLE entry(
        id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent(id), author_id INTEGER NOT NULL,
        text TEXT NOT NULL, date INTEGER NOT NULL, read INTEGER NOT NULL DEFAULT 0);
    CREATE INDEX entry_parent_date ON entry(parent_id, date DESC, id DESC);
    """

  private enum ParentQuery {
    static let insertParent = "INSERT INTO parent(id, title) VALUES (?1, ?2)"
    static let insertEntry =
      "INSERT INTO entry(id, parent_id, author_id, text, date, read) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
    static let newestOfParent = """
      SELECT id, parent_id, author_id, text, date, read FROM entry WHERE parent_id = ?1
      ORDER BY date DESC, id DESC LIMIT ?2
      """
    static let authorsOfNewest = """
      SELECT id, name, handle, avatar_url FROM user WHERE id IN
      (SELECT author_id FROM entry WHERE parent_id = ?1 ORDER BY date DESC, id DESC LIMIT ?2) ORDER BY id
      """
    static let parentList = """
      SELECT parent.id, parent.title, entry.id IS NULL,
             entry.id, entry.parent_id, entry.author_id, entry.text, entry.date, entry.read
      FROM parent LEFT JOIN entry ON entry.id =
          (SELECT id FROM entry WHERE parent_id = parent.id ORDER BY date DESC, id DESC LIMIT 1)
      ORDER BY entry.id IS NULL, entry.date DESC, entry.id DESC, parent.id LIMIT ?1
      """
    static let markRead = "UPDATE entry SET read = 1 WHERE parent_id = ?1 AND read = 0"
    static let allEntries = "SELECT id, parent_id, author_id, text, date, read FROM entry"
  }

  func load(parents: [Parent], authors: [User], entries: [Entry]) throws {
    try commitPending()
    try connection.execute(Self.parentSchema)
    try connection.transaction {
      let insertParent = try connection.prepare(ParentQuery.insertParent)
      defer { insertParent.finalize() }
      for parent in parents {
        try insertParent.bind(parent.id, at: 1)
        try insertParent.bind(parent.title, at: 2)
        try insertParent.run()
      }
      try insert(users: authors)
      let insert = try statement(sql: ParentQuery.insertEntry)
      for entry in entries {
        try Self.bind(entry, to: insert)
        try insert.run()
      }
    }
  }

  func openParent(_ parent: Int64, limit: Int) throws -> ParentScreen {
    let newest = try statement(sql: ParentQuery.newestOfParent)
    defer { newest.reset() }
    try newest.bind(parent, at: 1)
    try newest.bind(limit, at: 2)
    var entries: [Entry] = []
    entries.reserveCapacity(limit)
    while try newest.step() { entries.append(Self.entry(from: newest, at: 0)) }
    let authors = try statement(sql: ParentQuery.authorsOfNewest)
    defer { authors.reset() }
    try authors.bind(parent, at: 1)
    try authors.bind(limit, at: 2)
    var users: [User] = []
    while try authors.step() {
      users.append(
        User(
          id: authors.int64(at: 0), name: authors.text(at: 1), handle: authors.text(at: 2),
          avatarURL: authors.text(at: 3)))
    }
    return ParentScreen(parent: parent, entries: entries, authors: users)
  }

  func parentList(limit: Int) throws -> [ParentListing] {
    let select = try statement(sql: ParentQuery.parentList)
    defer { select.reset() }
    try select.bind(limit, at: 1)
    var listings: [ParentListing] = []
    while try select.step() {
      let parent = Parent(id: select.int64(at: 0), title: select.text(at: 1))
      listings.append(
        ParentListing(parent: parent, newest: select.int64(at: 2) != 0 ? nil : Self.entry(from: select, at: 3)))
    }
    return listings
  }

  func save(_ entry: Entry) throws {
    let insert = try statement(sql: ParentQuery.insertEntry)
    try Self.bind(entry, to: insert)
    try beginWrite()
    try insert.run()
    try endWrite()
  }

  func markParentRead(_ parent: Int64) throws {
    let update = try statement(sql: ParentQuery.markRead)
    try update.bind(parent, at: 1)
    try beginWrite()
    try update.run()
    try endWrite()
  }

  func allEntries() throws -> [Entry] {
    let select = try statement(sql: ParentQuery.allEntries)
    defer { select.reset() }
    var entries: [Entry] = []
    while try select.step() { entries.append(Self.entry(from: select, at: 0)) }
    return entries
  }

  func parentPlans() throws -> [String] {
    [
      "open-parent: " + (try plan(ParentQuery.newestOfParent)),
      "parent-list: " + (try plan(ParentQuery.parentList)),
    ]
  }

  private static func bind(_ entry: Entry, to insert: SQLiteStatement) throws {
    try insert.bind(entry.id, at: 1)
    try insert.bind(entry.parent, at: 2)
    try insert.bind(entry.author, at: 3)
    try insert.bind(entry.text, at: 4)
    try insert.bind(entry.date.millisecondsSince1970, at: 5)
    try insert.bind(entry.read ? 1 : 0, at: 6)
  }

  /// The entry in the six columns from `first` (id, parent_id, author_id, text, date, read).
  private static func entry(from row: SQLiteStatement, at first: Int32) -> Entry {
    Entry(
      id: row.int64(at: first), parent: row.int64(at: first + 1), author: row.int64(at: first + 2),
      text: row.text(at: first + 3), date: Date(millisecondsSince1970: row.int64(at: first + 4)),
      read: row.int64(at: first + 5) != 0)
  }
}
