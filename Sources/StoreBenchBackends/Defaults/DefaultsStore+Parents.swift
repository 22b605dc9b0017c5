import Foundation
import StoreBenchContract

/// The `parents` part of ``DefaultsStore``: ``ParentCollections`` as `Data` defaults (`parent.7`, `parents`,
/// `author.12`: each a property list of the `Codable` models, the way apps keep small models in defaults), set like
/// every default.
extension DefaultsStore: ParentCollectionStore {
  struct ParentDefaults: ParentBlobs {
    let store: DefaultsStore
    static func key(_ name: String) -> String { "parents." + name }
    func blob(_ name: String) throws -> [UInt8]? { store.defaults.data(forKey: Self.key(name)).map { Array($0) } }
    func setBlob(_ bytes: [UInt8], _ name: String) throws { try store.set(Data(bytes), forKey: Self.key(name)) }
  }

  var parentCollections: ParentCollections<ParentDefaults, PropertyListParentCodec> {
    ParentCollections(blobs: ParentDefaults(store: self), codec: PropertyListParentCodec(format: .binary))
  }

  func finishParentLoad() throws { try synchronize() }

  func parentPlans() throws -> [String] {
    [
      "open-parent: the parent's default (parents.parent.<id>, its records newest first) decoded whole, the newest kept, each author's default decoded",
      "parent-list: the list default (parents.parents, each parent with its newest record) decoded whole",
    ]
  }
}
