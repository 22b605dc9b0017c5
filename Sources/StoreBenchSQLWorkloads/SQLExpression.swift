import StoreBenchCore

/// A whole-number expression of a `sql` workload file over its parameters: `stored`, `stored + count`,
/// `min(tags_per_note, tags)`, `count * 2 - 1`. Integers, parameter names, `+ - * /` (integer division, `/` by 0 is
/// an error), parentheses, `min(a, b)` and `max(a, b)`.
public indirect enum SQLExpression: Sendable, Hashable, CustomStringConvertible {
  case number(Int)
  case parameter(String)
  case binary(Character, SQLExpression, SQLExpression)
  case function(String, SQLExpression, SQLExpression)

  /// Parses `text`; every name must be in `names`. Throws a message.
  public static func parse(_ text: String, names: Set<String>) throws(ParameterError) -> SQLExpression {
    var parser = Parser(tokens: try tokens(text), names: names, text: text)
    let expression = try parser.sum()
    guard parser.position == parser.tokens.count else {
      throw ParameterError("'\(text)': unexpected '\(parser.tokens[parser.position])'")
    }
    return expression
  }

  /// The value with `parameters`; overflow and division by zero are errors.
  public func value(_ parameters: [String: Int]) throws(ParameterError) -> Int {
    switch self {
    case .number(let number): return number
    case .parameter(let name):
      guard let value = parameters[name] else { throw ParameterError("parameter \(name) has no value") }
      return value
    case .function(let name, let left, let right):
      let (a, b) = (try left.value(parameters), try right.value(parameters))
      return name == "min" ? min(a, b) : max(a, b)
    case .binary(let op, let left, let right):
      let (a, b) = (try left.value(parameters), try right.value(parameters))
      let (result, overflow): (Int, Bool)
      switch op {
      case "+": (result, overflow) = a.addingReportingOverflow(b)
      case "-": (result, overflow) = a.subtractingReportingOverflow(b)
      case "*": (result, overflow) = a.multipliedReportingOverflow(by: b)
      default:
        guard b != 0 else { throw ParameterError("\(self): division by zero") }
        (result, overflow) = a.dividedReportingOverflow(by: b)
      }
      guard !overflow else { throw ParameterError("\(self): the value overflows") }
      return result
    }
  }

  public var description: String {
    switch self {
    case .number(let number): String(number)
    case .parameter(let name): name
    case .function(let name, let a, let b): "\(name)(\(a), \(b))"
    case .binary(let op, let a, let b): "(\(a) \(op) \(b))"
    }
  }

  private static func tokens(_ text: String) throws(ParameterError) -> [String] {
    var tokens: [String] = []
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if character.isWhitespace {
        index = text.index(after: index)
      } else if "+-*/(),".contains(character) {
        tokens.append(String(character))
        index = text.index(after: index)
      } else if character.isASCII && (character.isLetter || character.isNumber || character == "_") {
        var end = index
        while end < text.endIndex, text[end].isASCII,
          text[end].isLetter || text[end].isNumber || text[end] == "_"
        {
          end = text.index(after: end)
        }
        tokens.append(String(text[index..<end]))
        index = end
      } else {
        throw ParameterError(
          "'\(text)': '\(character)' is not part of an expression (numbers, names, + - * / ( ))")
      }
    }
    guard !tokens.isEmpty, tokens.count <= 200 else {
      throw ParameterError("'\(text)': expected an expression of at most 200 parts")
    }
    return tokens
  }

  private struct Parser {
    let tokens: [String]
    let names: Set<String>
    let text: String
    var position = 0

    mutating func next() -> String? {
      guard position < tokens.count else { return nil }
      defer { position += 1 }
      return tokens[position]
    }

    mutating func expect(_ token: String) throws(ParameterError) {
      guard next() == token else { throw ParameterError("'\(text)': expected '\(token)'") }
    }

    mutating func sum() throws(ParameterError) -> SQLExpression {
      try binary("+-") { (parser: inout Parser) throws(ParameterError) in try parser.product() }
    }

    mutating func product() throws(ParameterError) -> SQLExpression {
      try binary("*/") { (parser: inout Parser) throws(ParameterError) in try parser.factor() }
    }

    /// Operands from `operand` joined left to right by the operators in `operators`.
    mutating func binary(
      _ operators: String, _ operand: (inout Parser) throws(ParameterError) -> SQLExpression
    ) throws(ParameterError) -> SQLExpression {
      var left = try operand(&self)
      while position < tokens.count, tokens[position].count == 1, operators.contains(tokens[position]) {
        let op = Character(next()!)
        left = .binary(op, left, try operand(&self))
      }
      return left
    }

    mutating func factor() throws(ParameterError) -> SQLExpression {
      guard let token = next() else { throw ParameterError("'\(text)': the expression ends too early") }
      if token == "(" {
        let inner = try sum()
        try expect(")")
        return inner
      }
      if token == "-" { return .binary("-", .number(0), try factor()) }
      let digits = token.replacingOccurrences(of: "_", with: "")
      if let first = digits.first, first.isNumber {
        guard let number = Int(digits) else { throw ParameterError("'\(text)': '\(token)' is not a number") }
        return .number(number)
      }
      if token == "min" || token == "max" {
        try expect("(")
        let a = try sum()
        try expect(",")
        let b = try sum()
        try expect(")")
        return .function(token, a, b)
      }
      guard names.contains(token) else {
        let known = names.isEmpty ? "none declared" : names.sorted().joined(separator: ", ")
        throw ParameterError("'\(text)': '\(token)' is not a parameter of this file (\(known))")
      }
      return .parameter(token)
    }
  }
}
