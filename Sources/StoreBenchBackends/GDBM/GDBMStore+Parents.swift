import GDBMAPI
import StoreBenchContract

/// The `parents` part of ``GDBMStore``: ``ParentCollections`` as records under keys prefixed `p:` (`p:parent.7`,
/// `p:parents`, `p:author.12`), binary-encoded, written with the variant's sync policy like every other record.
extension GDBMStore: ParentCollectionStore {
  struct ParentRecords: ParentBlobs {
    let store: GDBMStore
    static func key(_ name: String) -> [UInt8] { Array(("p:" + name).utf8) }
    func blob(_ name: String) throws -> [UInt8]? { try store.file.fetch(Self.key(name)) }
    func setBlob(_ bytes: [UInt8], _ name: String) throws { try store.store(bytes, for: Self.key(name)) }
  }

  var parentCollections: ParentCollections<ParentRecords, BinaryParentCodec> {
    ParentCollections(blobs: ParentRecords(store: self), codec: BinaryParentCodec())
  }

  func finishParentLoad() throws { try file.sync() }

  func parentPlans() throws -> [String] {
    [
      "open-parent: the parent's record (key p:parent.<id>, its records newest first) read whole, the newest kept, each author's record fetched",
      "parent-list: the list record (key p:parents, each parent with its newest record) read whole",
    ]
  }
}
