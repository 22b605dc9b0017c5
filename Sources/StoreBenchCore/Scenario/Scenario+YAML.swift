import Foundation
import Yams

/// A scenario as the file format's YAML: what a command that builds a scenario (advise) writes for the user and
/// then runs as the value it built. ``ScenarioParser`` reads the text back to the same scenario (a test holds it on
/// generated scenarios). A value the format cannot say throws ``ScenarioError``: cases of one workload that differ
/// in more than their size, or part of a workload file's workloads.
extension Scenario: Encodable {
  enum Key: String, CodingKey {
    case name, description, seed, warmup, repetitions, stop, backends, workloads, min, max, backend, variants
    case limits, workload, parameters, sizes, budget, percentile, ms, per
    case targetPrecision = "target_precision"
    case caseSeconds = "case_seconds"
    case budgetSeconds = "budget_seconds"
  }

  /// A key that is data (a setting, a parameter, a workload's name).
  struct Named: CodingKey {
    let stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    init(_ key: Key) { stringValue = key.stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
  }

  /// A decimal as the format writes it (`0.1`, `16.7`, `1416`: the shortest text that reads back as the same
  /// value), not in Yams' exponent form (`1.67e+1`).
  struct Number: YAMLEncodable {
    let value: Double
    func box() -> Node {
      Node(value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)", Tag(.float))
    }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(value)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var top = encoder.container(keyedBy: Key.self)
    try top.encode(name, forKey: .name)
    try top.encodeIfPresent(description, forKey: .description)
    try top.encode(seed, forKey: .seed)
    try top.encode(policy.warmup, forKey: .warmup)
    var repetitions = top.nestedContainer(keyedBy: Key.self, forKey: .repetitions)
    try repetitions.encode(policy.minimum, forKey: .min)
    try repetitions.encode(policy.maximum, forKey: .max)
    try top.encode(Number(value: policy.targetPrecision), forKey: .targetPrecision)
    try top.encodeIfPresent(policy.caseSeconds.map(Number.init), forKey: .caseSeconds)
    try top.encodeIfPresent(policy.budgetSeconds.map(Number.init), forKey: .budgetSeconds)
    try top.encode(policy.stop.rawValue, forKey: .stop)
    var backendList = top.nestedUnkeyedContainer(forKey: .backends)
    for entry in backends {
      var backend = backendList.nestedContainer(keyedBy: Key.self)
      try backend.encode(entry.backend, forKey: .backend)
      if !entry.variant.settings.isEmpty {
        var variants = backend.nestedUnkeyedContainer(forKey: .variants)
        var settings = variants.nestedContainer(keyedBy: Named.self)
        for setting in entry.variant.settings {
          try settings.encode(setting.value, forKey: Named(stringValue: setting.name))
        }
      }
      if !entry.limits.isEmpty {
        var limits = backend.nestedContainer(keyedBy: Named.self, forKey: .limits)
        for (workload, values) in entry.limits.sorted(by: { $0.key < $1.key }) {
          try Self.encode(values, into: &limits, forKey: Named(stringValue: workload))
        }
      }
      if let only = entry.only { try backend.encode(only.sorted(), forKey: .workloads) }
    }
    var workloadList = top.nestedUnkeyedContainer(forKey: .workloads)
    for (entry, file) in try fileEntries() {
      var workload = workloadList.nestedContainer(keyedBy: Named.self)
      try workload.encode(
        file?.path ?? entry.workload, forKey: file.map { Named(stringValue: $0.key) } ?? Named(.workload))
      var shared = entry.cases[0].values
      let sizes = entry.cases.count > 1 ? entry.sizeParameter : nil
      if let size = sizes { shared[size] = nil }
      try Self.encode(shared, into: &workload, forKey: Named(.parameters))
      if let size = sizes { try workload.encode(entry.cases.compactMap { $0.values[size] }, forKey: Named(.sizes)) }
      if let limit = entry.budget {
        var budget = workload.nestedContainer(keyedBy: Key.self, forKey: Named(.budget))
        try budget.encode(limit.percentile, forKey: .percentile)
        try budget.encode(Number(value: limit.milliseconds), forKey: .ms)
        try budget.encode(limit.perRepetition ? "repetition" : "operation", forKey: .per)
      }
    }
  }

  /// Integer values under `key`, in name order.
  private static func encode<K: CodingKey>(
    _ values: [String: Int], into container: inout KeyedEncodingContainer<K>, forKey key: K
  ) throws {
    var nested = container.nestedContainer(keyedBy: Named.self, forKey: key)
    for (name, value) in values.sorted(by: { $0.key < $1.key }) {
      try nested.encode(value, forKey: Named(stringValue: name))
    }
  }

  /// The workload entries as the file lists them: a workload file's workloads become one entry naming the file
  /// (`sql: /path/file.yaml`), and every entry is checked to be one the format can say.
  private func fileEntries() throws -> [(WorkloadEntry, WorkloadFile?)] {
    var written: Set<String> = []
    var entries: [(WorkloadEntry, WorkloadFile?)] = []
    for entry in workloads {
      let differing = Set(entry.cases.flatMap { $0.values.keys }).filter { key in
        Set(entry.cases.map { $0.values[key] }).count > 1
      }
      guard differing.isEmpty || differing == Set(entry.sizeParameter.map { [$0] } ?? []) else {
        throw ScenarioError(
          file: file, path: entry.workload,
          message: "its cases differ in \(differing.sorted().joined(separator: ", ")); a scenario file's cases "
            + "differ only in their size (sizes: [...])")
      }
      guard let workloadFile = workloadFiles.first(where: { $0.workloads.contains { $0.name == entry.workload } })
      else {
        entries.append((entry, nil))
        continue
      }
      let names = Set(workloadFile.workloads.map(\.name))
      let same = workloads.filter { names.contains($0.workload) }
      guard same.count == names.count, Set(same.map(\.cases)).count == 1 else {
        throw ScenarioError(
          file: file, path: entry.workload,
          message: "a scenario file names a workload file whole, with one set of parameters for all its workloads")
      }
      if written.insert(workloadFile.path).inserted {
        var named = workloadFile
        named.path = URL(fileURLWithPath: workloadFile.path).standardizedFileURL.path
        entries.append((entry, named))
      }
    }
    return entries
  }

  /// The scenario as the file's text: `comment` lines (each behind `# `, control characters escaped), then the
  /// YAML, each backend and workload entry on one line.
  public func yaml(comment: [String] = []) throws -> String {
    let encoded: String
    do {
      encoded = try YAMLEncoder().encode(self)
    } catch EncodingError.invalidValue(_, let context) where context.underlyingError is ScenarioError {
      throw context.underlyingError!  // what the format cannot say, refused by name (the encoder wraps it)
    }
    guard case .mapping(let top)? = try Yams.compose(yaml: encoded) else {
      throw ScenarioError(file: file, path: "", message: "the scenario did not encode as a mapping")
    }
    // In the order the parser lists its keys (the encoder puts nested values last), entries on one line each.
    let pairs = Self.ordered(top, ScenarioParser.topKeys).map { key, value -> (Node, Node) in
      switch (key.string, value) {
      case ("repetitions", _): return (key, Self.flow(value))
      case ("backends", .sequence(let items)):
        return (
          key, .sequence(Node.Sequence(items.map { Self.flow($0, ScenarioParser.backendKeys) }, .implicit, .block))
        )
      case ("workloads", .sequence(let items)):
        let order = workloadFiles.map(\.key) + ScenarioParser.workloadKeys
        return (key, .sequence(Node.Sequence(items.map { Self.flow($0, order) }, .implicit, .block)))
      default: return (key, value)
      }
    }
    let text = try Yams.serialize(node: .mapping(Node.Mapping(pairs, .implicit, .block)), width: -1)
    return comment.map { "# \($0.escapingControlCharacters)\n" }.joined() + text
  }

  /// `node` and everything inside it in flow style (`{backend: sqlite, variants: [{txn: single}]}`), its own keys
  /// in `order`.
  /// A scalar is written plain where YAML allows it (`recent: on`, `busy_timeout: 10000`: the parser reads settings
  /// and names as text), quoted only where plain text would not read back (libyaml decides).
  private static func flow(_ node: Node, _ order: [String] = []) -> Node {
    switch node {
    case .mapping(let mapping):
      .mapping(Node.Mapping(ordered(mapping, order).map { (flow($0), flow($1)) }, mapping.tag, .flow))
    case .sequence(let sequence): .sequence(Node.Sequence(sequence.map { flow($0) }, sequence.tag, .flow))
    case .scalar(let scalar): .scalar(Node.Scalar(scalar.string, scalar.tag, .plain))
    default: node
    }
  }

  /// `mapping`'s pairs with the keys `order` names first, in its order, then the rest as they were.
  private static func ordered(_ mapping: Node.Mapping, _ order: [String]) -> [(Node, Node)] {
    let rank = { (key: Node) in order.firstIndex(of: key.string ?? "") ?? order.count }
    return mapping.enumerated().sorted { (rank($0.element.key), $0.offset) < (rank($1.element.key), $1.offset) }
      .map { ($0.element.key, $0.element.value) }
  }

  /// This scenario as read from `bytes` at `file`: its hash is the bytes' FNV-1a joined by its workload files'
  /// (the parser's, so that `run --resume` of a written scenario finds it unchanged).
  public func stamped(file: String, bytes: Data) -> Scenario {
    var copy = self
    copy.file = file
    copy.fileHash = Self.hash(of: bytes, workloadFiles: workloadFiles)
    return copy
  }

  /// The hash a scenario file's bytes and its workload files' give it: the files a scenario names are part of it, so
  /// `--resume` refuses a run whose workload file changed since it began (its samples would mix two datasets).
  static func hash(of bytes: Data, workloadFiles: [WorkloadFile]) -> String {
    var hash = FNV1a()
    hash.combine(bytes: bytes)
    for file in Set(workloadFiles.map(\.fileHash)).sorted() { hash.combine(file) }
    return hash.hex
  }
}
