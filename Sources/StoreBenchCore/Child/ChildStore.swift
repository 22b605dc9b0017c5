import Foundation

/// The store a child process works on: a backend by name, its variant's canonical settings text
/// (`txn=single journal=wal`, or `default`) and the store's directory.
public struct ChildStore: Codable, Sendable, Equatable {
  public var backend: String
  public var settings: String
  public var directory: String

  /// The store of `backend` in `directory`, with the variant's canonical settings text (`default` for none).
  public static func named(_ backend: String, settings: String = "default", directory: String) -> ChildStore {
    ChildStore(backend: backend, settings: settings, directory: directory)
  }

  /// The backend and the store's location, resolved in `registry`.
  public func resolve(in registry: BackendRegistry) throws -> (BackendDescriptor, StoreLocation) {
    let (descriptor, variant) = try registry.resolve(backend: backend, settings: settings)
    return (descriptor, StoreLocation(directory: URL(fileURLWithPath: directory), variant: variant))
  }
}
