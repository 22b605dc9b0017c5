import Foundation
import StoreBenchContract

/// The `parents` part of ``PlistStore``: ``ParentCollections`` as property-list files under `parents/` (a file per
/// parent, `parents.plist` for the list, a file per author) through `PropertyListEncoder` in the variant's format,
/// each rewritten whole under the variant's `flush` and `write` policy.
extension PlistStore: ParentCollectionStore {
  struct ParentFiles: ParentBlobs {
    let store: PlistStore
    func url(_ name: String) -> URL {
      store.parentsDirectory.appendingPathComponent(name + ".plist")
    }
    func blob(_ name: String) throws -> [UInt8]? {
      if let pending = store.pendingParentFiles[name] { return pending }
      let url = url(name)
      guard FileManager.default.fileExists(atPath: url.path) else { return nil }
      return Array(try FileWriter.read(url))
    }
    func setBlob(_ bytes: [UInt8], _ name: String) throws {
      store.pendingParentFiles[name] = bytes
      if store.flushEach { try store.flushParents() }
    }
  }

  var parentCollections: ParentCollections<ParentFiles, PropertyListParentCodec> {
    ParentCollections(blobs: ParentFiles(store: self), codec: PropertyListParentCodec(format: format))
  }

  /// Writes the parent files changed since the last flush, in name order.
  func flushParents() throws {
    guard !pendingParentFiles.isEmpty else { return }
    if !FileManager.default.fileExists(atPath: parentsDirectory.path) {
      guard mkdir(parentsDirectory.path, 0o700) == 0 || errno == EEXIST else {
        throw SystemError("mkdir", path: parentsDirectory.path)
      }
    }
    let files = ParentFiles(store: self)
    for name in pendingParentFiles.keys.sorted() {
      try write(Data(pendingParentFiles[name]!), to: files.url(name))
      pendingParentFiles[name] = nil
    }
  }

  /// The parent files, their directory, and its entry in the store's directory, synced (untimed loading).
  func finishParentLoad() throws {
    try flushParents()
    try FileWriter.syncDirectory(parentsDirectory)
    try FileWriter.syncDirectory(parentsDirectory.deletingLastPathComponent())
  }

  func parentPlans() throws -> [String] {
    [
      "open-parent: the parent's file (parents/parent.<id>.plist, its records newest first) decoded whole, the newest kept, each author's file decoded",
      "parent-list: parents/parents.plist (each parent with its newest record) decoded whole",
    ]
  }
}
