import StoreBenchCore
import Yams

extension SQLWorkloadParser.Reader {
  /// A generator: a mapping with one of ``SQLWorkloadParser/generatorKinds`` (and `distinct` beside `uniform`).
  func generator(_ node: Node, at path: String) throws -> SQLGenerator {
    let kinds = SQLWorkloadParser.generatorKinds
    let map = try reader.mapping(node, at: path, allowed: kinds + ["distinct"], what: "generators")
    let given = map.map(\.0).filter { $0 != "distinct" }
    guard given.count == 1, let kind = given.first, let value = map[kind] else {
      throw reader.error(path, "expected exactly one generator: \(kinds.joined(separator: ", "))")
    }
    guard map["distinct"] == nil || kind == "uniform" else {
      throw reader.error("\(path).distinct", "distinct goes with uniform only")
    }
    let at = "\(path).\(kind)"
    switch kind {
    case "value":
      if case .scalar(let scalar) = value, scalar.style == .singleQuoted || scalar.style == .doubleQuoted {
        return .text(scalar.string)
      }
      return .integer(try expression(value, at: at))
    case "null":
      guard try reader.scalar(value, at: at) == "true" else { throw reader.error(at, "write null: true") }
      return .null
    case "sequence":
      let sequence = try reader.mapping(value, at: at, allowed: ["start", "step", "cycle"])
      return .sequence(
        start: try sequence["start"].map { try expression($0, at: "\(at).start") } ?? .number(1),
        step: try sequence["step"].map { try expression($0, at: "\(at).step") } ?? .number(1),
        cycle: try sequence["cycle"].map { try expression($0, at: "\(at).cycle") })
    case "uniform":
      let (low, high) = try pair(value, at: at)
      let distinct = try map["distinct"].map { try reader.scalar($0, at: "\(path).distinct") } ?? "false"
      guard distinct == "true" || distinct == "false" else {
        throw reader.error("\(path).distinct", "expected true or false")
      }
      return .uniform(low, high, distinct: distinct == "true")
    case "words":
      let words = try reader.mapping(value, at: at, allowed: ["bytes"])
      guard let bytes = words["bytes"] else { throw reader.error("\(at).bytes", "required") }
      if case .mapping = bytes {
        let size = try reader.mapping(bytes, at: "\(at).bytes", allowed: ["uniform", "median", "max"])
        if let uniform = size["uniform"] {
          let (low, high) = try pair(uniform, at: "\(at).bytes.uniform")
          return .words(.uniform(low, high))
        }
        guard let median = size["median"], let most = size["max"] else {
          throw reader.error("\(at).bytes", "expected a number, {uniform: [low, high]} or {median, max}")
        }
        return .words(
          .spread(
            median: try expression(median, at: "\(at).bytes.median"),
            most: try expression(most, at: "\(at).bytes.max")))
      }
      return .words(.fixed(try expression(bytes, at: "\(at).bytes")))
    case "choice":
      let choice = try reader.mapping(value, at: at, allowed: ["values", "weights"])
      let values = try reader.sequence(choice["values"], at: "\(at).values", nonEmpty: true).enumerated().map {
        index, item -> SQLValue in
        guard case .scalar(let scalar) = item else {
          throw reader.error("\(at).values[\(index)]", "expected a value")
        }
        if scalar.style == .plain, let integer = Int64(scalar.string) { return .integer(integer) }
        return .text(scalar.string)
      }
      let weights =
        try choice["weights"].map { node in
          try reader.sequence(node, at: "\(at).weights", nonEmpty: true).enumerated().map {
            try reader.integer($1, at: "\(at).weights[\($0)]", range: 0...1_000_000)!
          }
        } ?? Array(repeating: 1, count: values.count)
      guard weights.count == values.count, weights.reduce(0, +) > 0 else {
        throw reader.error("\(at).weights", "one weight per value, not all zero")
      }
      return .choice(values, weights: weights)
    case "timestamp":
      let timestamp = try reader.mapping(value, at: at, allowed: ["days"])
      return .timestamp(days: try timestamp["days"].map { try expression($0, at: "\(at).days") } ?? .number(365))
    case "existing":
      let existing = try reader.mapping(value, at: at, allowed: ["table", "column"])
      return .existing(
        table: try reader.string(existing["table"], at: "\(at).table", required: true)!,
        column: try reader.string(existing["column"], at: "\(at).column", required: true)!)
    case "parent":
      return .parent(try reader.scalar(value, at: at))
    case "record":
      var field: String
      var from: SQLExpression?
      if case .mapping = value {
        let record = try reader.mapping(value, at: at, allowed: ["field", "from"])
        field = try reader.string(record["field"], at: "\(at).field", required: true)!
        from = try record["from"].map { try expression($0, at: "\(at).from") }
      } else {
        field = try reader.scalar(value, at: at)
      }
      guard SQLGenerator.recordFields.contains(field) else {
        throw reader.error(
          at, "'\(field)' is not a record field; fields: \(SQLGenerator.recordFields.joined(separator: ", "))"
        )
      }
      return .record(field, from: from)
    default:
      let share = try reader.mapping(value, at: at, allowed: ["percent", "stream"])
      return .share(
        percent: try expression(share["percent"], at: "\(at).percent"),
        stream: try reader.string(share["stream"], at: "\(at).stream", required: true)!)
    }
  }
}
