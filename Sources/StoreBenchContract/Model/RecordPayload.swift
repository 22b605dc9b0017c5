/// The app data a record holds, the denominator of write amplification: its text as UTF-8, 8 bytes per number or
/// date, 1 per flag. Backend-neutral: what any store must keep, before its own encoding and overhead.
extension Article {
  public var payloadBytes: Int { uid.utf8.count + title.utf8.count + summary.utf8.count + 8 + 8 + 1 }
}

extension CacheEntry {
  public var payloadBytes: Int { key.utf8.count + value.count + 8 }
}

extension SettingValue {
  /// The value as the app holds it: 1 byte for a flag, 8 for a number, the text's UTF-8 bytes.
  public var payloadBytes: Int {
    switch self {
    case .bool: 1
    case .int, .double: 8
    case .string(let text): text.utf8.count
    }
  }
}

extension Entry {
  /// Id, parent, author and date (8 bytes each), the read flag and the text.
  public var payloadBytes: Int { 8 * 4 + 1 + text.utf8.count }
}
