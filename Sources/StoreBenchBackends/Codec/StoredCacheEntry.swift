import Foundation
import StoreBenchContract

/// A cache entry as `Codable` stores write it (the files backend's JSON, the plist backend's `cache.plist`, GRDB's
/// `cache` table):
/// the value as `Data`, so it is one base-64 string or `<data>` element rather than an array of numbers.
struct StoredCacheEntry: Codable {
  var key: String
  var expires: Int64
  var value: Data

  init(_ entry: CacheEntry) {
    key = entry.key
    expires = entry.expires
    value = Data(entry.value)
  }

  var entry: CacheEntry { CacheEntry(key: key, value: Array(value), expires: expires) }
}
