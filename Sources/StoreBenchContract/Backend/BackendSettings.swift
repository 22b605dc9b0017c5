/// A backend's settings as a type: one stored property per setting, each at its default in `init()`, and the
/// table of ``axes`` that names each property once, as scenarios, `--backend 'name[…]'`, `list` and the report
/// rows spell it.
///
/// The contract:
/// - `init()` gives every setting its default; ``axes`` lists every setting once, in the order variant texts use.
/// - A choice is an enum conforming to ``SettingChoice`` (its raw values are the spelled values); an integer
///   setting is an `Int` with its range in the axis.
/// - The backend's `open` receives the decoded value: a misspelt setting is a compile error, not a lookup that
///   fails at run time.
public protocol BackendSettings: Sendable, Equatable {
  /// Every setting at its default.
  init()
  /// Every setting, in the order variant texts list them.
  static var axes: [SettingAxis<Self>] { get }
}

/// The values of a choice setting: an enum whose raw values are the words scenarios use (`wal`, `full`, …).
public protocol SettingChoice: CaseIterable, RawRepresentable, Sendable, Equatable where RawValue == String {}

/// The settings of a backend that has none.
public struct NoSettings: BackendSettings {
  public init() {}
  public static var axes: [SettingAxis<NoSettings>] { [] }
}

/// One setting of `Settings`: its spelled name, its allowed values and default (read from `Settings()`), and how
/// to read and write the typed property behind it.
public struct SettingAxis<Settings: BackendSettings>: Sendable {
  /// The setting as `list`, the scenario parser and the variant text see it.
  public let erased: VariantAxis
  /// Whether every label names the setting, defaults included (it decides durability or speed).
  public let isKey: Bool
  let path: AnyKeyPath & Sendable
  let read: @Sendable (Settings) -> String
  /// Sets the property from a spelled value; false when the value is not allowed.
  let write: @Sendable (inout Settings, String) -> Bool
  /// When set: the setting exists only when another setting (by key path) has this spelled value.
  let condition: (path: AnyKeyPath & Sendable, value: String)?

  /// A choice among the cases of `Value`.
  public static func choice<Value: SettingChoice>(
    _ name: String, _ path: WritableKeyPath<Settings, Value> & Sendable, key: Bool = false, summary: String
  ) -> SettingAxis {
    let values = Value.allCases.map(\.rawValue)
    return SettingAxis(
      erased: VariantAxis(name, choices: values, default: Settings()[keyPath: path].rawValue, summary: summary),
      isKey: key, path: path,
      read: { $0[keyPath: path].rawValue },
      write: { settings, text in
        guard let value = Value(rawValue: text) else { return false }
        settings[keyPath: path] = value
        return true
      },
      condition: nil)
  }

  /// An integer in `range`.
  public static func integer(
    _ name: String, _ path: WritableKeyPath<Settings, Int> & Sendable, range: ClosedRange<Int>, key: Bool = false,
    summary: String
  ) -> SettingAxis {
    SettingAxis(
      erased: VariantAxis(name, range: range, default: Settings()[keyPath: path], summary: summary),
      isKey: key, path: path,
      read: { String($0[keyPath: path]) },
      write: { settings, text in
        guard let value = Int(text), range.contains(value) else { return false }
        settings[keyPath: path] = value
        return true
      },
      condition: nil)
  }

  /// This setting, applicable only when the setting at `path` is `value` (e.g. `batch_ops` only with
  /// `txn=batch`); otherwise it is left out of the variant and its identity.
  public func only<Value: SettingChoice>(when path: KeyPath<Settings, Value> & Sendable, is value: Value)
    -> SettingAxis
  {
    SettingAxis(
      erased: erased, isKey: isKey, path: self.path, read: read, write: write,
      condition: (path, value.rawValue))
  }
}

extension BackendSettings {
  /// The setting `axis`'s condition names, and the spelled value it needs; nil for an unconditional setting.
  private static func condition(of axis: SettingAxis<Self>) -> (setting: SettingAxis<Self>, value: String)? {
    guard let condition = axis.condition else { return nil }
    guard let setting = axes.first(where: { $0.path == condition.path }) else {
      preconditionFailure("\(Self.self).\(axis.erased.name): its condition is not one of the settings")
    }
    return (setting, condition.value)
  }

  /// The erased axes, with each condition naming the setting it depends on.
  static var variantAxes: [VariantAxis] {
    axes.map { axis in
      condition(of: axis).map { axis.erased.only(when: $0.setting.erased.name, is: $0.value) } ?? axis.erased
    }
  }

  /// The typed value of a variant of this backend (made by its descriptor, so every value is allowed; a variant of
  /// another backend is a programming error).
  public init(_ variant: Variant) {
    self.init()
    for setting in variant.settings {
      guard let axis = Self.axes.first(where: { $0.erased.name == setting.name }),
        axis.write(&self, setting.value)
      else {
        preconditionFailure(
          "\(Self.self) cannot hold \(setting.name)=\(setting.value): a variant of another backend")
      }
    }
  }

  /// These settings with `change` applied: `SQLiteSettings().with { $0.journal = .wal }`.
  public func with(_ change: (inout Self) -> Void) -> Self {
    var copy = self
    change(&copy)
    return copy
  }

  /// The settings that apply, by name, as a scenario requests them (conditional settings only where they apply).
  public var requested: [String: String] {
    Dictionary(uniqueKeysWithValues: Self.axes.filter(applies).map { ($0.erased.name, $0.read(self)) })
  }

  /// Whether `axis` applies to these settings (its condition, if any, holds).
  private func applies(_ axis: SettingAxis<Self>) -> Bool {
    Self.condition(of: axis).map { $0.setting.read(self) == $0.value } ?? true
  }

  /// The settings as a variant text (`txn=single journal=wal …`), conditional settings only where they apply:
  /// what a store reports as its effective settings (after overwriting what it read back from its library).
  public var text: String {
    Self.axes.filter(applies)
      .map { "\($0.erased.name)=\($0.read(self))" }
      .joined(separator: " ")
  }
}
