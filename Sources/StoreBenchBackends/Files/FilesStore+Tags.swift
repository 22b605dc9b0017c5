import Foundation
import StoreBenchContract

/// The `tags` part of ``FilesStore``: the app's own index records (``TagIndex``), one small binary file each under
/// `tags/` (fan-out as for records, `.index`), replaced atomically like every record, fsynced with fsync=each.
extension FilesStore: DirectTagIndexStore {
  struct Records: TagRecords {
    let store: FilesStore
    func record(_ key: [UInt8]) throws -> [UInt8]? {
      let url = try store.url(kind: "tags", key: key, extension: "index")
      guard FileManager.default.fileExists(atPath: url.path) else { return nil }
      return Array(try FileWriter.read(url))
    }
    func put(_ value: [UInt8], for key: [UInt8]) throws {
      try FileWriter.replace(
        try store.url(kind: "tags", key: key, extension: "index"), with: Data(value),
        durable: store.durable)
    }
    func article(uid: String) throws -> Article? { try store.article(uid: uid) }
  }

  func load(articles batch: [Article], tags notes: [NoteTags]) throws {
    try load(articles: batch)
    for (key, value) in TagIndex.records(for: notes) {
      try FileWriter.replace(
        try url(kind: "tags", key: key, extension: "index"), with: Data(value), durable: false)
    }
    try FileWriter.syncFileSystem(of: root)
  }

  var tagRecords: Records { Records(store: self) }

  func tagQueryPlans() throws -> [String] {
    [
      "index files kept by the app (tags/…/63<tag>.index): a count of unarchived notes per tag, one file read per tag",
      "index files kept by the app (tags/…/6d<tag>.index): the tag's member list, each member's file read, newest kept",
    ]
  }
}
