/// One setting of a backend that a scenario may choose ("txn", "journal", …), with its allowed values.
public struct VariantAxis: Sendable {
  public enum Allowed: Sendable {
    case choice([String])
    case integer(ClosedRange<Int>)
  }

  public let name: String
  public let allowed: Allowed
  public let defaultValue: String
  /// One line: what the setting means.
  public let summary: String
  /// When set, the axis exists only when another axis has this value (e.g. `batch_ops` only with `txn=batch`);
  /// otherwise it is left out of the variant and its identity.
  public private(set) var condition: (axis: String, value: String)?

  /// This axis, applicable only when `axis` has `value`.
  func only(when axis: String, is value: String) -> VariantAxis {
    var copy = self
    copy.condition = (axis, value)
    return copy
  }

  init(_ name: String, choices: [String], default defaultValue: String, summary: String) {
    precondition(choices.contains(defaultValue), "default \(defaultValue) not among \(choices)")
    self.name = name
    self.allowed = .choice(choices)
    self.defaultValue = defaultValue
    self.summary = summary
  }

  init(_ name: String, range: ClosedRange<Int>, default defaultValue: Int, summary: String) {
    precondition(range.contains(defaultValue), "default \(defaultValue) outside \(range)")
    self.name = name
    self.allowed = .integer(range)
    self.defaultValue = String(defaultValue)
    self.summary = summary
  }

  /// Whether `value` is allowed.
  public func accepts(_ value: String) -> Bool {
    switch allowed {
    case .choice(let values): values.contains(value)
    case .integer(let range): Int(value).map(range.contains) ?? false
    }
  }

  /// Human text of the allowed values, e.g. "none, single" or "an integer in 1...100000".
  public var allowedDescription: String {
    switch allowed {
    case .choice(let values): values.joined(separator: ", ")
    case .integer(let range): "an integer in \(range.lowerBound)...\(range.upperBound)"
    }
  }
}

/// A backend's complete settings: one value for every axis, in the backend's axis order.
/// Its description (`txn=single journal=wal sync=normal`) is part of a result row's identity.
public struct Variant: Hashable, Sendable, CustomStringConvertible {
  public let settings: [Setting]

  public struct Setting: Hashable, Sendable {
    public let name: String
    public let value: String
  }

  init(settings: [Setting]) { self.settings = settings }

  public var description: String {
    settings.isEmpty ? "default" : settings.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
  }
}
