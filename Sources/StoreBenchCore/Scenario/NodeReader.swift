import Foundation
import Yams

/// Typed, strict access to a YAML node tree, producing ``ScenarioError``s with key paths: the reader of scenario files
/// and of app profiles (`advise`).
public struct NodeReader {
  public let file: String

  public init(file: String) { self.file = file }

  /// The YAML document in `data`, checked before composing (UTF-8, no anchors or aliases, no oversized input);
  /// nil when it is empty. Errors name `file`.
  public static func document(_ data: Data, file: String) throws -> Node? {
    let fail = { (message: String) in ScenarioError(file: file, path: "", message: message) }
    guard let text = String(data: data, encoding: .utf8) else { throw fail("the file is not valid UTF-8") }
    do {
      try YAMLEventScan.check(text)
    } catch let refusal as YAMLEventScan.Refusal {
      throw fail("line \(refusal.line), column \(refusal.column): \(refusal.message)")
    }
    do {
      return try Yams.compose(yaml: text)
    } catch {
      throw fail("not valid YAML: \(error)")
    }
  }

  /// The bytes of the YAML file at `path` (a `kind`: scenario, profile, budgets file, …), refused before reading
  /// when it has more than `maximumBytes` (YAML parsing would take memory for it) or cannot be read.
  public static func contents(ofFile path: String, kind: String, maximumBytes: Int) throws -> Data {
    if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber,
      size.intValue > maximumBytes
    {
      throw ScenarioError(
        file: path, path: "",
        message: "the file has \(size.intValue) bytes; a \(kind) may have at most \(maximumBytes)")
    }
    guard let data = FileManager.default.contents(atPath: path), data.count <= maximumBytes else {
      throw ScenarioError(
        file: path, path: "",
        message: "cannot read the \(kind) (missing or unreadable, or more than \(maximumBytes) bytes once read)"
      )
    }
    return data
  }

  public func error(_ path: String, _ message: String) -> ScenarioError {
    ScenarioError(file: file, path: path, message: message)
  }

  /// A mapping whose keys are all in `allowed` (duplicate keys are rejected by Yams while composing).
  public func mapping(_ node: Node, at path: String, allowed: [String], what: String = "keys") throws -> [(
    String, Node
  )] {
    guard case .mapping(let mapping) = node else {
      throw error(path, "expected a mapping (key: value), found \(kind(node))")
    }
    var pairs: [(String, Node)] = []
    for (keyNode, value) in mapping {
      guard case .scalar(let key) = keyNode else { throw error(path, "keys must be plain words") }
      let name = key.string
      guard allowed.contains(name) else {
        let list = allowed.isEmpty ? "none" : allowed.joined(separator: ", ")
        throw error(path.isEmpty ? name : "\(path).\(name)", "unknown key; allowed \(what): \(list)")
      }
      guard !pairs.contains(where: { $0.0 == name }) else {
        throw error(path.isEmpty ? name : "\(path).\(name)", "duplicate key")
      }
      pairs.append((name, value))
    }
    return pairs
  }

  public func sequence(_ node: Node?, at path: String, nonEmpty: Bool) throws -> [Node] {
    guard let node else { throw error(path, "required; expected a list") }
    guard case .sequence(let sequence) = node else { throw error(path, "expected a list, found \(kind(node))") }
    let items = Array(sequence)
    if nonEmpty && items.isEmpty { throw error(path, "must list at least one entry") }
    return items
  }

  /// The text of a scalar (string, number or word).
  public func scalar(_ node: Node, at path: String) throws -> String {
    guard case .scalar(let scalar) = node else { throw error(path, "expected a single value, found \(kind(node))") }
    return scalar.string
  }

  public func string(_ node: Node?, at path: String, required: Bool) throws -> String? {
    guard let node else {
      if required { throw error(path, "required key is missing") }
      return nil
    }
    // Read as written: `nan`, `1.5`, `0x10`, `yes` and `null` are names like any other.
    guard case .scalar(let scalar) = node else { throw error(path, "expected text, found \(kind(node))") }
    return scalar.string
  }

  /// A whole number in `range`; nil when absent.
  public func integer(_ node: Node?, at path: String, range: ClosedRange<Int>) throws -> Int? {
    guard let node else { return nil }
    let bounds =
      "a whole number in \(range.lowerBound)...\(range.upperBound == Int.max ? "∞" : String(range.upperBound))"
    guard case .scalar(let scalar) = node, scalar.style == .plain else {
      throw error(path, "expected \(bounds), found \(kind(node))")
    }
    let text = scalar.string
    let digits = text.replacingOccurrences(of: "_", with: "")
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }),
      let value = Int(digits)
    else {
      throw error(path, "expected \(bounds), found '\(text)'")
    }
    guard range.contains(value) else { throw error(path, "\(value) is out of range; expected \(bounds)") }
    return value
  }

  /// A decimal number in `range`; nil when absent.
  public func decimal(_ node: Node?, at path: String, range: ClosedRange<Double>) throws -> Double? {
    guard let node else { return nil }
    let bounds = "a number in \(range.lowerBound.formatted())...\(range.upperBound.formatted())"
    guard case .scalar(let scalar) = node, scalar.style == .plain, let value = Double(scalar.string), value.isFinite
    else {
      throw error(path, "expected \(bounds), found \(kind(node))")
    }
    guard range.contains(value) else { throw error(path, "\(scalar.string) is out of range; expected \(bounds)") }
    return value
  }

  public func kind(_ node: Node) -> String {
    switch node {
    case .scalar(let scalar): "'\(scalar.string)'"
    case .mapping: "a mapping"
    case .sequence: "a list"
    case .alias: "an alias"
    }
  }
}

extension Array where Element == (String, Node) {
  /// The value of `key` in a mapping's pairs.
  public subscript(key: String) -> Node? { first { $0.0 == key }?.1 }
}
