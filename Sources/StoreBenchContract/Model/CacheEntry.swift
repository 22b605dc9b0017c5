/// One entry of an expiring cache (the Kache use case): a value under a key until its expiry time.
public struct CacheEntry: Hashable, Sendable {
  public var key: String
  public var value: [UInt8]
  /// Expiry time on the cache's clock (the cache workload uses a logical clock: the operation number).
  public var expires: Int64

  public init(key: String, value: [UInt8], expires: Int64) {
    self.key = key
    self.value = value
    self.expires = expires
  }
}
