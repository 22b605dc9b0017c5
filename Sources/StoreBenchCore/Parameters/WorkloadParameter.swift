/// A workload parameter's name, declared once as a constant (`ParameterName.count`) and used by the declaration
/// (``WorkloadParameter``) and by every lookup (`parameters[.count]`): a misspelt name does not compile. A workload
/// outside the package declares its own names the same way.
public struct ParameterName: Hashable, Sendable, CustomStringConvertible {
  /// The name scenarios and reports use (`get_percent`).
  public let text: String

  public init(_ text: String) { self.text = text }

  public var description: String { text }
}

/// An integer parameter of a workload, with its allowed range.
public struct WorkloadParameter: Sendable {
  public let key: ParameterName
  public var name: String { key.text }
  public let range: ClosedRange<Int>
  public let defaultValue: Int
  public let summary: String
  /// Left out of a case's parameters (and its `parameters` cell) unless a scenario sets it: for settings whose
  /// default reproduces the data every earlier run used (``RecordShape``).
  public let optional: Bool

  public init(
    _ key: ParameterName, default defaultValue: Int, range: ClosedRange<Int>, summary: String,
    optional: Bool = false
  ) {
    self.key = key
    self.range = range
    self.defaultValue = defaultValue
    self.summary = summary
    self.optional = optional
  }
}

/// Concrete parameter values for one workload case: every parameter the workload declares (optional ones where a
/// scenario set them), as the scenario parser checked them.
public struct WorkloadParameters: Hashable, Sendable, CustomStringConvertible {
  public private(set) var values: [String: Int]

  public init(_ values: [String: Int]) { self.values = values }

  /// The value of a parameter the workload declares (not optional: the parser fills it in). A name the case does
  /// not hold is a workload asking for a parameter it never declared: a programming error, named.
  public subscript(_ name: ParameterName) -> Int {
    get {
      guard let value = values[name.text] else {
        preconditionFailure("the workload reads parameter \(name), which it does not declare")
      }
      return value
    }
    set { values[name.text] = newValue }
  }

  /// The value of an optional parameter, nil when the scenario left it out.
  public func value(_ name: ParameterName) -> Int? { values[name.text] }

  /// Sets a parameter named by text (the scenario parser's and `--size`'s way in: names from a file).
  public mutating func set(_ name: String, _ value: Int) { values[name] = value }

  /// `count=10000 stored=20000`, keys sorted.
  public var description: String {
    values.keys.sorted().map { "\($0)=\(values[$0]!)" }.joined(separator: " ")
  }
}

/// Workload parameters that are each in range but do not fit together.
public struct ParameterError: Error, CustomStringConvertible {
  public let message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
