import Foundation
import StoreBenchContract

/// The `tags` part of ``PlistStore``: one more whole-file collection, `tags.plist` (every note's ``NoteTags`` through
/// `PropertyListEncoder` in the variant's format, whatever the codec, as for the cache), decoded on first use,
/// scanned in memory for both queries and rewritten whole under the variant's `flush` and `write` policy.
extension PlistStore: TaggingStore {
  private func loadedTags() throws -> NoteTagTable {
    if let noteTags { return noteTags }
    let loaded =
      FileManager.default.fileExists(atPath: tagsURL.path)
      ? NoteTagTable(try decoded(tagsURL) { try PropertyListDecoder().decode([NoteTags].self, from: $0) })
      : NoteTagTable()
    noteTags = loaded
    return loaded
  }

  func flushTags() throws {
    guard tagsDirty, let noteTags else { return }
    let encoder = PropertyListEncoder()
    encoder.outputFormat = format
    try write(try encoder.encode(noteTags.canonical), to: tagsURL)
    tagsDirty = false
  }

  func load(articles batch: [Article], tags notes: [NoteTags]) throws {
    try load(articles: batch)
    noteTags = NoteTagTable(notes)
    tagsDirty = true
    try flushTags()
  }

  func tagsWithUnarchivedNotes() throws -> [Int64] { try loadedTags().tagsWithUnarchivedNotes() }

  func newestNotes(tag: Int64, limit: Int) throws -> [Article] {
    var newest = TopArticles(limit: limit)
    for uid in try loadedTags().uids(withTag: tag) {
      guard let article = try article(uid: uid) else {
        throw StoreError.inconsistent("tag \(tag) names a missing note \(uid)")
      }
      newest.offer(article)
    }
    return newest.sorted
  }

  func apply(_ change: TagChange) throws {
    var table = try loadedTags()
    noteTags = nil  // keeps the table uniquely referenced: the change does not copy it
    defer { noteTags = table }
    try table.apply(change)
    tagsDirty = true
    if flushEach { try flushTags() }
  }

  /// Read from the file (what the next launch reads), not the decoded table.
  func allNoteTags() throws -> [NoteTags] {
    guard FileManager.default.fileExists(atPath: tagsURL.path) else { return [] }
    return try decoded(tagsURL) { try PropertyListDecoder().decode([NoteTags].self, from: $0) }
  }

  func tagQueryPlans() throws -> [String] {
    ["scan: tags.plist decoded whole into memory and filtered (no index)"]
  }
}
