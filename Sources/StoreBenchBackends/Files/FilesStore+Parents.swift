import Foundation
import StoreBenchContract

/// The `parents` part of ``FilesStore``: ``ParentCollections`` as one small binary file each under `parents/` (fan-out
/// as for records, `.records`), replaced atomically like every record, fsynced with fsync=each.
extension FilesStore: ParentCollectionStore {
  struct ParentFiles: ParentBlobs {
    let store: FilesStore
    func url(_ name: String) throws -> URL {
      try store.url(kind: "parents", key: Array(name.utf8), extension: "records")
    }
    func blob(_ name: String) throws -> [UInt8]? {
      let url = try url(name)
      guard FileManager.default.fileExists(atPath: url.path) else { return nil }
      return Array(try FileWriter.read(url))
    }
    func setBlob(_ bytes: [UInt8], _ name: String) throws {
      try FileWriter.replace(try url(name), with: Data(bytes), durable: store.durable)
    }
  }

  var parentCollections: ParentCollections<ParentFiles, BinaryParentCodec> {
    ParentCollections(blobs: ParentFiles(store: self), codec: BinaryParentCodec())
  }

  func finishParentLoad() throws { try FileWriter.syncFileSystem(of: root) }

  func parentPlans() throws -> [String] {
    [
      "open-parent: the parent's file (parents/…/<parent.id>.records, its records newest first) read whole, the newest kept, each author's file read",
      "parent-list: the list file (parents/…/<parents>.records, each parent with its newest record) read whole",
    ]
  }
}
