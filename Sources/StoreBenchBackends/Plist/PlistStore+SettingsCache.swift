import Foundation
import StoreBenchContract

/// Settings and the expiring cache as two more whole-file collections: `settings.plist` (a dictionary of native
/// property-list values, written with `PropertyListSerialization` whatever the codec) and `cache.plist` (an array of
/// `{key, expires, value}` records through `PropertyListEncoder`). Each is decoded on first use and rewritten whole
/// under the variant's `flush` and `write` policy.
extension PlistStore {
  private func loadedSettings() throws -> [String: Any] {
    if let settings { return settings }
    var loaded: [String: Any] = [:]
    if FileManager.default.fileExists(atPath: settingsURL.path) {
      loaded = try decoded(settingsURL) { data in
        guard let root = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        else {
          throw StoreError.inconsistent("settings.plist is not a dictionary")
        }
        return root
      }
    }
    settings = loaded
    return loaded
  }

  private func loadedCache() throws -> [String: CacheEntry] {
    if let cache { return cache }
    var loaded: [String: CacheEntry] = [:]
    if FileManager.default.fileExists(atPath: cacheURL.path) {
      let stored = try decoded(cacheURL) { try PropertyListDecoder().decode([StoredCacheEntry].self, from: $0) }
      for entry in stored { loaded[entry.key] = entry.entry }
    }
    cache = loaded
    return loaded
  }

  func flushSettingsAndCache() throws {
    if settingsDirty, let settings {
      try write(
        try PropertyListSerialization.data(fromPropertyList: settings, format: format, options: 0),
        to: settingsURL)
      settingsDirty = false
    }
    if cacheDirty, let cache {
      let encoder = PropertyListEncoder()
      encoder.outputFormat = format
      try write(try encoder.encode(cache.values.map(StoredCacheEntry.init)), to: cacheURL)
      cacheDirty = false
    }
  }

  func setSetting(_ value: SettingValue, forKey key: String) throws {
    _ = try loadedSettings()
    settings![key] = PlistSettings.native(value)
    try changed(settings: true)
  }

  func setting(forKey key: String, kind: SettingKind) throws -> SettingValue? {
    try loadedSettings()[key].map { try PlistSettings.value($0, kind: kind, key: key) }
  }

  func cachePut(_ entry: CacheEntry) throws {
    _ = try loadedCache()
    cache![entry.key] = entry
    try changed(settings: false)
  }

  func cacheEntry(forKey key: String) throws -> CacheEntry? { try loadedCache()[key] }

  func cacheRemove(forKey key: String) throws {
    _ = try loadedCache()
    guard cache!.removeValue(forKey: key) != nil else { throw StoreError.inconsistent("no cache entry \(key)") }
    try changed(settings: false)
  }

  func cacheEntries() throws -> [CacheEntry] { Array(try loadedCache().values) }
}

/// Settings as native property-list values (what `UserDefaults` stores too), read back by the kind the app expects.
enum PlistSettings {
  static func native(_ value: SettingValue) -> Any {
    switch value {
    case .bool(let flag): flag
    case .int(let number): NSNumber(value: number)
    case .double(let number): NSNumber(value: number)
    case .string(let text): text
    }
  }

  static func value(_ stored: Any, kind: SettingKind, key: String) throws -> SettingValue {
    let value: SettingValue? =
      switch kind {
      case .bool: (stored as? Bool).map(SettingValue.bool)
      case .int: (stored as? NSNumber).map { .int($0.int64Value) }
      case .double: (stored as? NSNumber).map { .double($0.doubleValue) }
      case .string: (stored as? String).map(SettingValue.string)
      }
    guard let value else {
      throw StoreError.inconsistent("setting \(key) is not a \(kind.rawValue): \(type(of: stored))")
    }
    return value
  }
}
