/// Plain dictionary storage: the reference the cache workload computes its expected result with.
final class DictionaryCacheStorage: CacheStorage {
  var entries: [String: CacheEntry] = [:]
  func unitOfWork(_ body: () throws -> Void) throws { try body() }
  func cachePut(_ entry: CacheEntry) throws { entries[entry.key] = entry }
  func cacheEntry(forKey key: String) throws -> CacheEntry? { entries[key] }
  func cacheRemove(forKey key: String) throws { entries[key] = nil }
  func cacheEntries() throws -> [CacheEntry] { Array(entries.values) }
}

/// The Kache policy, the same for every backend: entries expire at their time; beyond `capacity` entries the
/// earliest-expiring one is evicted (ties: the smaller key by UTF-8). Like Kache it keeps the keys and expiry
/// times in memory (an ``ExpiryIndex``, rebuilt from the storage when the cache opens); each backend stores,
/// reads and removes the entries themselves in its own idiom. Every put and every removal is one app
/// operation (one unit of work).
public final class ExpiringCache {
  private let storage: any CacheStorage
  public let capacity: Int
  private var index: ExpiryIndex

  public init(storage: any CacheStorage, capacity: Int) throws {
    self.storage = storage
    self.capacity = capacity
    index = ExpiryIndex(try storage.cacheEntries())
  }

  public var count: Int { index.count }

  /// Stores `value` under `key` until `expires`, evicting the earliest-expiring entries beyond capacity.
  public func put(key: String, value: [UInt8], expires: Int64) throws {
    try storage.unitOfWork {
      try storage.cachePut(CacheEntry(key: key, value: value, expires: expires))
      index.set(key, expires: expires)
      while index.count > capacity, let victim = index.removeEarliest() {
        try storage.cacheRemove(forKey: victim)
      }
    }
  }

  /// The value under `key` at time `now`, or nil when absent or expired (an expired entry is removed).
  public func get(key: String, now: Int64) throws -> [UInt8]? {
    guard let expires = index.expiry(of: key) else { return nil }
    if expires <= now {
      try storage.unitOfWork { try storage.cacheRemove(forKey: key) }
      index.remove(key)
      return nil
    }
    guard let entry = try storage.cacheEntry(forKey: key), entry.expires == expires else {
      throw StoreError.inconsistent("cache entry \(key) is missing or has another expiry than was stored")
    }
    return entry.value
  }
}

/// Keys with their expiry times, ordered by (expiry, key) for eviction.
struct ExpiryIndex {
  private var expiries: [String: Int64] = [:]
  /// Sorted ascending by (expires, key UTF-8).
  private var order: [(expires: Int64, key: String)] = []

  init(_ entries: [CacheEntry]) {
    for entry in entries { expiries[entry.key] = entry.expires }
    order = entries.map { ($0.expires, $0.key) }.sorted(by: Self.precedes)
  }

  var count: Int { expiries.count }

  func expiry(of key: String) -> Int64? { expiries[key] }

  private static func precedes(_ a: (expires: Int64, key: String), _ b: (expires: Int64, key: String)) -> Bool {
    a.expires != b.expires ? a.expires < b.expires : a.key.precedesInUTF8(b.key)
  }

  /// The position of `item` in `order`, or where it would be inserted.
  private func position(of item: (expires: Int64, key: String)) -> Int {
    var low = 0
    var high = order.count
    while low < high {
      let middle = (low + high) / 2
      if Self.precedes(order[middle], item) { low = middle + 1 } else { high = middle }
    }
    return low
  }

  mutating func set(_ key: String, expires: Int64) {
    remove(key)
    expiries[key] = expires
    order.insert((expires, key), at: position(of: (expires, key)))
  }

  mutating func remove(_ key: String) {
    guard let old = expiries.removeValue(forKey: key) else { return }
    order.remove(at: position(of: (old, key)))
  }

  mutating func removeEarliest() -> String? {
    guard !order.isEmpty else { return nil }
    let first = order.removeFirst()
    expiries[first.key] = nil
    return first.key
  }
}
