import GDBMAPI
import StoreBenchContract

/// The `tags` part of ``GDBMStore``: the app's own index records (``TagIndex``) under keys prefixed `t:`, written
/// with the variant's sync policy like every other record.
extension GDBMStore: DirectTagIndexStore {
  struct Records: TagRecords {
    let store: GDBMStore
    static let prefix = Array("t:".utf8)
    func record(_ key: [UInt8]) throws -> [UInt8]? { try store.file.fetch(Self.prefix + key) }
    func put(_ value: [UInt8], for key: [UInt8]) throws { try store.store(value, for: Self.prefix + key) }
    func article(uid: String) throws -> Article? { try store.article(uid: uid) }
  }

  func load(articles batch: [Article], tags notes: [NoteTags]) throws {
    try load(articles: batch)
    for (key, value) in TagIndex.records(for: notes) { try file.store(value, for: Records.prefix + key) }
    try file.sync()
  }

  var tagRecords: Records { Records(store: self) }

  func tagQueryPlans() throws -> [String] {
    [
      "index records kept by the app (keys t:c<tag>): a count of unarchived notes per tag, read for every tag",
      "index records kept by the app (key t:m<tag>): the tag's member list, each member's article fetched, newest kept",
    ]
  }
}
