/// The type of an app setting, as the app knows it when it reads the setting back (like `UserDefaults`'
/// typed getters `bool(forKey:)`, `integer(forKey:)`, `double(forKey:)`, `string(forKey:)`).
public enum SettingKind: String, Sendable, CaseIterable, Codable {
  case bool, int, double, string
}

/// One small app setting value.
public enum SettingValue: Hashable, Sendable {
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)

  public var kind: SettingKind {
    switch self {
    case .bool: .bool
    case .int: .int
    case .double: .double
    case .string: .string
    }
  }

  /// The canonical text form stores without typed values keep: `b:1`, `i:-42`, `d:<IEEE-754 bits in hex>`
  /// (exact), `s:<text>`.
  public var encoded: String {
    switch self {
    case .bool(let value): value ? "b:1" : "b:0"
    case .int(let value): "i:\(value)"
    case .double(let value): "d:" + String(value.bitPattern, radix: 16)
    case .string(let value): "s:" + value
    }
  }

  /// Decodes ``encoded`` text, which must be of `kind`.
  public init(encoded text: String, kind: SettingKind) throws {
    let payload = String(text.dropFirst(2))
    let decoded: SettingValue? =
      switch text.prefix(2) {
      case "b:": payload == "1" ? .bool(true) : payload == "0" ? .bool(false) : nil
      case "i:": Int64(payload).map(SettingValue.int)
      case "d:": UInt64(payload, radix: 16).map { .double(Double(bitPattern: $0)) }
      case "s:": .string(payload)
      default: nil
      }
    guard let decoded, decoded.kind == kind else {
      throw StoreError.inconsistent("stored setting \(text.debugDescription) is not a valid \(kind.rawValue)")
    }
    self = decoded
  }
}
