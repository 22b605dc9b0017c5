/// Where an ``ExpiringCache`` keeps its entries: a store playing the ``CacheStore`` role or, for the expected
/// result, a dictionary.
public protocol CacheStorage: AnyObject {
  /// Runs `body` as one app operation (see ``Store/unitOfWork(_:)``).
  func unitOfWork(_ body: () throws -> Void) throws
  /// Stores `entry`, replacing any entry under its key.
  func cachePut(_ entry: CacheEntry) throws
  /// The entry under `key`, expired or not, or nil.
  func cacheEntry(forKey key: String) throws -> CacheEntry?
  /// Removes the entry under `key` (which exists).
  func cacheRemove(forKey key: String) throws
  /// Every cache entry, in any order (read when a cache opens, and for verification).
  func cacheEntries() throws -> [CacheEntry]
}
