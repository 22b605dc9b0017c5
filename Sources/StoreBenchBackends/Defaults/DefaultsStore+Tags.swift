import Foundation
import StoreBenchContract

/// The `tags` part of ``DefaultsStore``: a key per note, `tags.<uid>` = `{archived: Bool, tags: [Int]}`, set like every
/// default; both queries scan the suite's values in memory (`dictionaryRepresentation()`), as a defaults app would.
extension DefaultsStore: TaggingStore {
  static func tagsKey(_ uid: String) -> String { "tags." + uid }

  private static func native(_ note: NoteTags) -> [String: Any] {
    ["archived": note.archived, "tags": note.tags.map { NSNumber(value: $0) }]
  }

  private static func note(uid: String, _ record: [String: Any]) throws -> NoteTags {
    guard let tags = record["tags"] as? [Any] else { throw StoreError.inconsistent("tags.\(uid) has no tag list") }
    return NoteTags(
      uid: uid, archived: try PlistRecords.number(record, "archived").boolValue,
      tags: try tags.map { value in
        guard let number = value as? NSNumber else {
          throw StoreError.inconsistent("tags.\(uid) holds a non-number")
        }
        return number.int64Value
      })
  }

  /// Every note's tags from the suite's values in memory.
  private func notes(in values: [String: Any]) throws -> NoteTagTable {
    NoteTagTable(try Self.records(in: values, prefix: "tags.", Self.note))
  }

  func load(articles batch: [Article], tags notes: [NoteTags]) throws {
    for article in batch { defaults.set(PlistRecords.dictionary(article), forKey: Self.articleKey(article.uid)) }
    for note in notes { defaults.set(Self.native(note), forKey: Self.tagsKey(note.uid)) }
    try synchronize()
  }

  func tagsWithUnarchivedNotes() throws -> [Int64] {
    try notes(in: defaults.dictionaryRepresentation()).tagsWithUnarchivedNotes()
  }

  func newestNotes(tag: Int64, limit: Int) throws -> [Article] {
    var newest = TopArticles(limit: limit)
    for uid in try notes(in: defaults.dictionaryRepresentation()).uids(withTag: tag) {
      guard let article = try article(uid: uid) else {
        throw StoreError.inconsistent("tag \(tag) names a missing note \(uid)")
      }
      newest.offer(article)
    }
    return newest.sorted
  }

  func apply(_ change: TagChange) throws {
    let key = Self.tagsKey(change.uid)
    var table = NoteTagTable(
      try defaults.dictionary(forKey: key).map { [try Self.note(uid: change.uid, $0)] } ?? [])
    try table.apply(change)
    try set(Self.native(table.notes[change.uid]!), forKey: key)
  }

  /// Read from the suite's file, as ``allArticles()`` is.
  func allNoteTags() throws -> [NoteTags] { try notes(in: storedValues()).canonical }

  func tagQueryPlans() throws -> [String] {
    ["scan: every tags.<uid> default in dictionaryRepresentation(), filtered in memory"]
  }
}
