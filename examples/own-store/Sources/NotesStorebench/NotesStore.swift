import Foundation
import NotesKit
import StoreBenchKit

/// The adapter: storebench's articles and queries roles played by the app's NotesRepository. An article is a note
/// (uid → id, feed → folder, title → heading, summary → body, published → edited_at, read → info.seen); every call
/// is the repository's own, as the app makes it.
final class NotesStore: QueryStore {
  let repository: NotesRepository
  let settings: NotesBackend.Settings
  /// The broken variant: every `dropOneWriteIn`-th write is silently skipped.
  let dropOneWriteIn: Int?
  private var writes = 0

  init(repository: NotesRepository, settings: NotesBackend.Settings, dropOneWriteIn: Int?) throws {
    self.repository = repository
    self.settings = settings
    self.dropOneWriteIn = dropOneWriteIn
    let effective = try repository.effectiveSettings()
    guard effective.journal == settings.journal.rawValue else {
      throw StoreError.settingMismatch(
        setting: "journal", requested: settings.journal.rawValue, effective: effective.journal)
    }
  }

  var effectiveSettings: String {
    let effective = try? repository.effectiveSettings()
    let levels = ["off", "normal", "full", "extra"]
    let synchronous = effective.map { levels.indices.contains($0.synchronous) ? levels[$0.synchronous] : "?" }
    return "journal=\(effective?.journal ?? "?") synchronous=\(synchronous ?? "?") "
      + "recent_index=\(settings.recent.rawValue)"
  }

  /// Whether this record's write is one the broken variant drops (one record in `dropOneWriteIn`, counted over
  /// every insert, edit, mark and delete).
  private func dropsThisWrite() -> Bool {
    guard let period = dropOneWriteIn else { return false }
    writes += 1
    return writes % period == 0
  }

  /// The uids whose writes are kept: all of them, or, in the broken variant, all but one in `dropOneWriteIn`.
  private func kept(_ uids: [String]) -> [String] {
    dropOneWriteIn == nil ? uids : uids.filter { _ in !dropsThisWrite() }
  }

  func unitOfWork(_ body: () throws -> Void) throws { try repository.write(body) }

  func checkIntegrity() throws {
    let result = try repository.integrityCheck()
    guard result == "ok" else { throw NotesError(message: "integrity_check: \(result)") }
  }

  func close() throws { try repository.close() }

  // MARK: articles

  func insert(_ article: Article) throws {
    if dropsThisWrite() { return }
    try repository.save(Self.note(article))
  }

  func markRead(uids: [String]) throws {
    try repository.markSeen(ids: kept(uids))
  }

  func article(uid: String) throws -> Article? { try repository.note(id: uid).map(Self.article) }

  func allUIDs() throws -> [String] { try repository.allIDs() }

  func delete(uids: [String]) throws {
    try repository.deleteNotes(ids: kept(uids))
  }

  func edit(_ edit: ArticleEdit) throws {
    if dropsThisWrite() { return }
    try repository.editNote(
      id: edit.uid, heading: edit.title, body: edit.summary, editedAt: edit.date.millisecondsSince1970)
  }

  func load(articles: [Article]) throws { try repository.importNotes(articles.map(Self.note)) }

  func allArticles() throws -> [Article] { try repository.allNotes().map(Self.article) }

  // MARK: queries

  func newestArticles(limit: Int) throws -> [Article] { try repository.recentNotes(limit: limit).map(Self.article) }

  func newestArticlesPlan() throws -> String { try repository.plan(.recent) }

  func unreadCounts() throws -> [Int64: Int] { try repository.unseenCounts() }

  func newestUnread(feedID: Int64, limit: Int) throws -> [Article] {
    try repository.unseenNotes(folderID: feedID, limit: limit).map(Self.article)
  }

  func queryPlans() throws -> [String] {
    [try repository.plan(.unseenCounts), try repository.plan(.unseenInFolder)]
  }

  func search(keyword: String) throws -> [String] { try repository.search(keyword) }

  // MARK: mapping

  static func note(_ article: Article) -> Note {
    Note(
      id: article.uid, folderID: article.feedID, heading: article.title, body: article.summary,
      editedAt: article.published.millisecondsSince1970,
      info: Note.Info(seen: article.read, wordCount: Note.words(in: article.summary)))
  }

  static func article(_ note: Note) -> Article {
    Article(
      uid: note.id, feedID: note.folderID, title: note.heading, summary: note.body,
      published: Date(millisecondsSince1970: note.editedAt), read: note.info.seen)
  }
}
