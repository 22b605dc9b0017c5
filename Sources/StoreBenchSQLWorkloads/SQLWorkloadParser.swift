import Foundation
import StoreBenchCore
import Yams

/// Reads a `sql` workload file strictly (as scenarios: unknown keys, wrong types and out-of-range values are errors
/// naming the key path), then checks it against SQLite (``SQLPreflight``): errors there name the line and quote
/// SQLite's message.
public struct SQLWorkloadParser {
  static let topKeys = ["name", "description", "size", "parameters", "schema", "fill", "operations"]
  static let parameterKeys = ["default", "min", "max", "smoke", "summary"]
  static let tableKeys = ["table", "rows", "for_each", "stream", "columns"]
  static let operationKeys = ["name", "description", "count", "stream", "statements", "sql", "parameters", "check"]
  static let statementKeys = ["name", "sql", "parameters"]
  static let checkKeys = ["sql", "expect"]
  static let generatorKinds = [
    "value", "null", "sequence", "uniform", "words", "choice", "timestamp", "existing", "parent", "record", "share",
  ]

  public init() {}

  /// Reads, parses and checks the file at `path`.
  public func parse(file path: String) throws -> SQLWorkloadFile {
    let data = try NodeReader.contents(
      ofFile: path, kind: "sql workload file", maximumBytes: SQLWorkloadLimits.fileBytes)
    return try parse(data: data, file: path)
  }

  /// Parses and checks the bytes of a file; `file` names it in errors.
  public func parse(data: Data, file: String) throws -> SQLWorkloadFile {
    guard let root = try NodeReader.document(data, file: file) else {
      throw ScenarioError(
        file: file, path: "",
        message: "the file is empty; a sql workload needs name, schema, fill and operations")
    }
    var hash = FNV1a()
    hash.combine(bytes: data)
    var reader = Reader(reader: NodeReader(file: file), file: file)
    var parsed = try reader.file(root)
    parsed.fileHash = hash.hex
    try SQLPreflight(file: parsed).check(&parsed)
    return parsed
  }

  /// The structural reader: YAML nodes to the file's model.
  struct Reader {
    let reader: NodeReader
    let file: String
    var names: Set<String> = []

    init(reader: NodeReader, file: String) { (self.reader, self.file) = (reader, file) }

    static func line(_ node: Node) -> Int {
      let line = node.mark?.line ?? 0
      if case .scalar(let scalar) = node, scalar.style == .literal || scalar.style == .folded { return line + 1 }
      return line
    }

    func name(_ node: Node?, at path: String) throws -> String {
      let name = try reader.string(node, at: path, required: true)!
      guard !name.isEmpty, name.count <= 64,
        name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) })
      else {
        throw reader.error(path, "'\(name)' must be 1–64 ASCII letters, digits, '-' or '_'")
      }
      return name
    }

    func expression(_ node: Node?, at path: String) throws -> SQLExpression {
      guard let node else {
        throw reader.error(path, "required: a whole number or an expression over the parameters")
      }
      let text = try reader.scalar(node, at: path)
      do {
        return try SQLExpression.parse(text, names: names)
      } catch {
        throw reader.error(path, error.message)
      }
    }

    mutating func file(_ root: Node) throws -> SQLWorkloadFile {
      let top = try reader.mapping(root, at: "", allowed: SQLWorkloadParser.topKeys)
      let fileName = try name(top["name"], at: "name")
      let summary = try reader.string(top["description"], at: "description", required: false) ?? ""
      let parameters = try self.parameters(top["parameters"])
      names = Set(parameters.map(\.name))
      let size = try reader.string(top["size"], at: "size", required: false) ?? parameters.first?.name ?? ""
      guard names.contains(size) else {
        throw reader.error("size", "'\(size)' must name a declared parameter (the rows' size column)")
      }
      guard let schemaNode = top["schema"] else {
        throw reader.error("schema", "required: the CREATE statements")
      }
      let schema = try reader.string(schemaNode, at: "schema", required: true)!
      let tables = try reader.sequence(top["fill"], at: "fill", nonEmpty: true).enumerated().map {
        try table($1, at: "fill[\($0)]")
      }
      var operations: [SQLWorkloadFile.Operation] = []
      for (index, node) in try reader.sequence(top["operations"], at: "operations", nonEmpty: true).enumerated() {
        let parsed = try operation(node, at: "operations[\(index)]")
        guard !operations.contains(where: { $0.name == parsed.name }) else {
          throw reader.error("operations[\(index)].name", "operation '\(parsed.name)' is listed twice")
        }
        operations.append(parsed)
      }
      return SQLWorkloadFile(
        path: file, name: fileName, summary: summary, parameters: parameters, sizeParameter: size,
        schema: schema, schemaLine: Self.line(schemaNode), tables: tables, operations: operations, fileHash: "")
    }

    func parameters(_ node: Node?) throws -> [SQLWorkloadFile.Parameter] {
      guard let node else { return [] }
      guard case .mapping(let mapping) = node else {
        throw reader.error("parameters", "expected a mapping of names")
      }
      return try mapping.map { keyNode, value in
        let key = try name(keyNode, at: "parameters")
        let path = "parameters.\(key)"
        let map = try reader.mapping(value, at: path, allowed: SQLWorkloadParser.parameterKeys)
        let limit = 0...SQLWorkloadLimits.rows
        let low = try reader.integer(map["min"], at: "\(path).min", range: limit) ?? 0
        let high =
          try reader.integer(map["max"], at: "\(path).max", range: low...limit.upperBound) ?? limit.upperBound
        let range = low...high
        guard let value = try reader.integer(map["default"], at: "\(path).default", range: range) else {
          throw reader.error("\(path).default", "required: the parameter's default value")
        }
        return SQLWorkloadFile.Parameter(
          name: key, defaultValue: value, range: range,
          smoke: try reader.integer(map["smoke"], at: "\(path).smoke", range: range),
          summary: try reader.string(map["summary"], at: "\(path).summary", required: false) ?? key)
      }
    }

    func table(_ node: Node, at path: String) throws -> SQLWorkloadFile.Table {
      let map = try reader.mapping(node, at: path, allowed: SQLWorkloadParser.tableKeys)
      let tableName = try reader.string(map["table"], at: "\(path).table", required: true)!
      let forEach = try reader.string(map["for_each"], at: "\(path).for_each", required: false)
      let rows: SQLGenerator.Count
      if forEach != nil, let rowsNode = map["rows"], case .mapping = rowsNode {
        let range = try reader.mapping(rowsNode, at: "\(path).rows", allowed: ["uniform"])
        let (low, high) = try pair(range["uniform"], at: "\(path).rows.uniform")
        rows = .uniform(low, high)
      } else {
        rows = .fixed(try expression(map["rows"], at: "\(path).rows"))
      }
      guard let columnNode = map["columns"], case .mapping(let columnMap) = columnNode, !columnMap.isEmpty else {
        throw reader.error("\(path).columns", "required: a mapping of column names to generators")
      }
      let columns = try columnMap.map { keyNode, value in
        let column = try reader.scalar(keyNode, at: "\(path).columns")
        let generator = try self.generator(value, at: "\(path).columns.\(column)")
        if case .share = generator, forEach != nil {
          throw reader.error("\(path).columns.\(column)", "share: only a table with a fixed number of rows")
        }
        if case .parent = generator, forEach == nil {
          throw reader.error("\(path).columns.\(column)", "parent: only in a table with for_each")
        }
        return SQLWorkloadFile.Column(name: column, line: Self.line(keyNode), generator: generator)
      }
      return SQLWorkloadFile.Table(
        name: tableName, line: Self.line(node), rows: rows, forEach: forEach,
        stream: try reader.string(map["stream"], at: "\(path).stream", required: false) ?? tableName,
        columns: columns)
    }

    func operation(_ node: Node, at path: String) throws -> SQLWorkloadFile.Operation {
      let map = try reader.mapping(node, at: path, allowed: SQLWorkloadParser.operationKeys)
      let operationName = try name(map["name"], at: "\(path).name")
      var statements: [SQLWorkloadFile.Statement] = []
      if map["sql"] != nil {
        guard map["statements"] == nil else {
          throw reader.error(path, "give either sql (one statement) or statements, not both")
        }
        statements = [try statement(map, name: operationName, at: path)]
      } else {
        guard map["parameters"] == nil else {
          throw reader.error("\(path).parameters", "parameters belong to each of the statements")
        }
        for (index, item) in try reader.sequence(map["statements"], at: "\(path).statements", nonEmpty: true)
          .enumerated()
        {
          let itemPath = "\(path).statements[\(index)]"
          let itemMap = try reader.mapping(item, at: itemPath, allowed: SQLWorkloadParser.statementKeys)
          let parsed = try statement(
            itemMap, name: try name(itemMap["name"], at: "\(itemPath).name"), at: itemPath)
          guard !statements.contains(where: { $0.name == parsed.name }) else {
            throw reader.error("\(itemPath).name", "statement '\(parsed.name)' is listed twice")
          }
          statements.append(parsed)
        }
      }
      var check: SQLWorkloadFile.Check?
      if let checkNode = map["check"] {
        let checkMap = try reader.mapping(checkNode, at: "\(path).check", allowed: SQLWorkloadParser.checkKeys)
        guard let sqlNode = checkMap["sql"] else {
          throw reader.error("\(path).check.sql", "required: the check query")
        }
        check = SQLWorkloadFile.Check(
          sql: try reader.scalar(sqlNode, at: "\(path).check.sql"), line: Self.line(sqlNode),
          expect: try checkMap["expect"].map { try expression($0, at: "\(path).check.expect") })
      }
      return SQLWorkloadFile.Operation(
        name: operationName, line: Self.line(node),
        summary: try reader.string(map["description"], at: "\(path).description", required: false)
          ?? operationName,
        count: try expression(map["count"], at: "\(path).count"),
        stream: try reader.string(map["stream"], at: "\(path).stream", required: false) ?? operationName,
        statements: statements, check: check)
    }

    func statement(_ map: [(String, Node)], name: String, at path: String) throws -> SQLWorkloadFile.Statement {
      guard let sqlNode = map["sql"] else { throw reader.error("\(path).sql", "required: the statement") }
      var parameters: [SQLWorkloadFile.Column] = []
      if let node = map["parameters"] {
        guard case .mapping(let mapping) = node else {
          throw reader.error("\(path).parameters", "expected a mapping")
        }
        parameters = try mapping.map { keyNode, value in
          let parameter = try reader.scalar(keyNode, at: "\(path).parameters")
          let generator = try self.generator(value, at: "\(path).parameters.\(parameter)")
          switch generator {
          case .share, .parent:
            throw reader.error(
              "\(path).parameters.\(parameter)", "share and parent are for fill columns only")
          default: break
          }
          return SQLWorkloadFile.Column(name: parameter, line: Self.line(keyNode), generator: generator)
        }
      }
      return SQLWorkloadFile.Statement(
        name: name, sql: try reader.scalar(sqlNode, at: "\(path).sql"), line: Self.line(sqlNode),
        parameters: parameters)
    }

    func pair(_ node: Node?, at path: String) throws -> (SQLExpression, SQLExpression) {
      let items = try reader.sequence(node, at: path, nonEmpty: true)
      guard items.count == 2 else { throw reader.error(path, "expected [low, high]") }
      return (try expression(items[0], at: "\(path)[0]"), try expression(items[1], at: "\(path)[1]"))
    }
  }
}

/// The `sql` key of a scenario's workload entry: a sql workload file read, parsed and checked against SQLite
/// (``SQLWorkloadParser``), one ``SQLWorkload`` per operation.
public struct SQLWorkloadFileReader: WorkloadFileReader {
  public init() {}

  public var key: String { "sql" }

  public func read(file path: String) throws -> WorkloadFile {
    let parsed = try SQLWorkloadParser().parse(file: path)
    return WorkloadFile(path: parsed.path, fileHash: parsed.fileHash, workloads: parsed.workloads)
  }
}
