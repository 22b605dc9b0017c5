import LMDBAPI
import StoreBenchContract

/// The `tags` part of ``LMDBStore``: the app's own index records (``TagIndex``) in a database of their own, read in
/// one read transaction per query and changed in the unit of work's write transaction.
extension LMDBStore: TaggingStore {
  private struct Records: TagRecords {
    let txn: LMDBTransaction
    let store: LMDBStore
    func record(_ key: [UInt8]) throws -> [UInt8]? { try txn.get(key, in: store.tags) }
    func put(_ value: [UInt8], for key: [UInt8]) throws { try txn.put(value, for: key, in: store.tags) }
    func article(uid: String) throws -> Article? {
      try txn.get(Array(uid.utf8), in: store.articles).map(RecordCodec.decodeArticle)
    }
  }

  func load(articles batch: [Article], tags notes: [NoteTags]) throws {
    try load(articles: batch)
    try environment.write { txn in
      for (key, value) in TagIndex.records(for: notes) { try txn.put(value, for: key, in: tags) }
    }
  }

  func tagsWithUnarchivedNotes() throws -> [Int64] {
    try environment.read { try TagIndex.tagsWithUnarchivedNotes(in: Records(txn: $0, store: self)) }
  }

  func newestNotes(tag: Int64, limit: Int) throws -> [Article] {
    try environment.read { try TagIndex.newestNotes(tag: tag, limit: limit, in: Records(txn: $0, store: self)) }
  }

  func apply(_ change: TagChange) throws {
    try writing { try TagIndex.apply(change, to: Records(txn: $0, store: self)) }
  }

  func allNoteTags() throws -> [NoteTags] {
    let uids = try allUIDs()
    return try environment.read { txn in
      try uids.map { try TagIndex.note($0, in: Records(txn: txn, store: self)) }.filter {
        $0.archived || !$0.tags.isEmpty
      }
    }
  }

  func tagQueryPlans() throws -> [String] {
    [
      "index records kept by the app (database 'tags'): a count of unarchived notes per tag, read for every tag",
      "index records kept by the app: the tag's member list, each member's article got by uid, newest kept",
    ]
  }
}
