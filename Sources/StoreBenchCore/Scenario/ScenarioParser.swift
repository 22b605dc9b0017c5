import Foundation
import Yams

/// Reads scenario YAML strictly: unknown or duplicate keys, wrong types, out-of-range values and unknown
/// backends, variants or workloads are errors naming the file, the key path and what is allowed.
public struct ScenarioParser {
  public let backends: BackendRegistry
  public let workloads: WorkloadRegistry

  static let topKeys = [
    "name", "description", "seed", "warmup", "repetitions", "target_precision", "case_seconds",
    "budget_seconds", "stop", "backends", "workloads",
  ]
  static let backendKeys = ["backend", "variants", "limits", "workloads"]
  static let workloadKeys = ["workload", "parameters", "sizes", "budget"]

  public init(backends: BackendRegistry, workloads: WorkloadRegistry) {
    self.backends = backends
    self.workloads = workloads
  }

  /// A scenario is a few kilobytes; a larger file is refused before YAML parsing can take the memory.
  public static let maximumFileBytes = 1 << 20
  /// At most this many `sizes` per workload.
  public static let maximumSizes = 1_000

  /// Reads and parses the file at `path`.
  public func parse(file path: String) throws -> Scenario {
    let data = try NodeReader.contents(ofFile: path, kind: "scenario", maximumBytes: Self.maximumFileBytes)
    return try parse(data: data, file: path)
  }

  /// Parses scenario bytes; `file` names them in errors.
  public func parse(data: Data, file: String) throws -> Scenario {
    let fail = { (path: String, message: String) in ScenarioError(file: file, path: path, message: message) }
    guard let root = try NodeReader.document(data, file: file) else {
      throw fail("", "the file is empty; a scenario needs name, backends and workloads")
    }
    var reader = NodeReader(file: file)
    let top = try reader.mapping(root, at: "", allowed: Self.topKeys)
    let name = try reader.string(top["name"], at: "name", required: true)!
    guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
      throw fail("name", "'\(name)' must be non-empty letters, digits, '-', '_' or '.'")
    }
    let description = try reader.string(top["description"], at: "description", required: false)
    let seed = try reader.integer(top["seed"], at: "seed", range: 0...Int.max) ?? 42
    let policy = try parsePolicy(top, reader: &reader)
    var files: [WorkloadFile] = []
    let workloadEntries = try parseWorkloads(top["workloads"], reader: &reader, files: &files)
    // Backends after workloads: an entry's `workloads` and `limits` may name a workload file's workloads.
    let backendEntries = try parseBackends(
      top["backends"], known: workloads.including(files: files), reader: &reader)
    let listed = Set(workloadEntries.map(\.workload))
    for (index, entry) in backendEntries.enumerated() {
      if let only = entry.only, only.isDisjoint(with: listed) {
        throw fail(
          "backends",
          "entry \(index + 1) (\(entry.backend) [\(entry.variant)]) runs only "
            + "\(only.sorted().joined(separator: ", ")), none of the scenario's workloads")
      }
    }
    return Scenario(
      name: name, description: description, seed: UInt64(seed), policy: policy,
      backends: backendEntries, workloads: workloadEntries, file: file,
      fileHash: Scenario.hash(of: data, workloadFiles: files), workloadFiles: files)
  }

  /// `warmup`, `repetitions` (a number: exactly that many; or `{min, max}`), `target_precision`, `case_seconds`
  /// `budget_seconds` and `stop` (`precision` or `answer`).
  private func parsePolicy(_ top: [(String, Node)], reader: inout NodeReader) throws -> RepetitionPolicy {
    var policy = RepetitionPolicy()
    policy.warmup = try reader.integer(top["warmup"], at: "warmup", range: 0...100) ?? policy.warmup
    if let node = top["repetitions"] {
      if case .mapping = node {
        let map = try reader.mapping(node, at: "repetitions", allowed: ["min", "max"])
        let minimum = try reader.integer(map["min"], at: "repetitions.min", range: 1...1000)
        let maximum = try reader.integer(map["max"], at: "repetitions.max", range: 1...1000)
        policy.minimum = minimum ?? min(policy.minimum, maximum ?? policy.minimum)
        policy.maximum = maximum ?? max(policy.maximum, policy.minimum)
      } else {
        let count = try reader.integer(node, at: "repetitions", range: 1...1000)!
        policy.minimum = count
        policy.maximum = count
      }
    }
    policy.targetPrecision =
      try reader.decimal(top["target_precision"], at: "target_precision", range: 0.001...0.5)
      ?? policy.targetPrecision
    policy.caseSeconds = try reader.decimal(top["case_seconds"], at: "case_seconds", range: 0.1...86_400)
    policy.budgetSeconds = try reader.decimal(top["budget_seconds"], at: "budget_seconds", range: 1...604_800)
    if let node = top["stop"] {
      let word = try reader.scalar(node, at: "stop")
      guard let rule = RepetitionPolicy.StopRule(rawValue: word) else {
        throw reader.error("stop", "expected precision or answer, found \"\(word)\"")
      }
      policy.stop = rule
    }
    do {
      try policy.validate()
    } catch {
      throw reader.error("repetitions", "\(error)")
    }
    return policy
  }

  /// Whether `node` is the word `smoke`: every registered backend (workload) as it declares for smoke runs.
  private func isSmoke(_ node: Node?) -> Bool {
    if let node, case .scalar(let scalar) = node { return scalar.string == "smoke" }
    return false
  }

  private func parseBackends(_ node: Node?, known workloads: WorkloadRegistry, reader: inout NodeReader) throws
    -> [Scenario.BackendEntry]
  {
    if isSmoke(node) {
      return backends.descriptors.flatMap { descriptor in
        descriptor.smokeVariants.map {
          Scenario.BackendEntry(backend: descriptor.name, variant: $0, limits: [:])
        }
      }
    }
    let items = try reader.sequence(node, at: "backends", nonEmpty: true)
    var entries: [Scenario.BackendEntry] = []
    for (index, item) in items.enumerated() {
      let path = "backends[\(index)]"
      let map = try reader.mapping(item, at: path, allowed: Self.backendKeys)
      let name = try reader.string(map["backend"], at: "\(path).backend", required: true)!
      guard let descriptor = backends[name] else {
        throw reader.error(
          "\(path).backend", "unknown backend '\(name)'; known: \(backends.names.joined(separator: ", "))")
      }
      var limits: [String: [String: Int]] = [:]
      if let limitsNode = map["limits"] {
        let perWorkload = try reader.mapping(
          limitsNode, at: "\(path).limits", allowed: workloads.names, what: "workloads")
        for (workloadName, parametersNode) in perWorkload {
          let workload = workloads[workloadName]!
          let limitPath = "\(path).limits.\(workloadName)"
          let given = try reader.mapping(
            parametersNode, at: limitPath, allowed: workload.parameters.map(\.name),
            what: "parameters of '\(workloadName)'")
          for (parameter, value) in given {
            let spec = workload.parameters.first { $0.name == parameter }!
            limits[workloadName, default: [:]][parameter] = try reader.integer(
              value, at: "\(limitPath).\(parameter)", range: spec.range)
          }
        }
      }
      var only: Set<String>?
      if let onlyNode = map["workloads"] {
        only = []
        for (onlyIndex, item) in try reader.sequence(onlyNode, at: "\(path).workloads", nonEmpty: true)
          .enumerated()
        {
          let workload = try reader.scalar(item, at: "\(path).workloads[\(onlyIndex)]")
          guard workloads[workload] != nil else {
            throw reader.error(
              "\(path).workloads[\(onlyIndex)]",
              "unknown workload '\(workload)'; known: \(workloads.names.joined(separator: ", "))")
          }
          only?.insert(workload)
        }
      }
      let variantNodes =
        map["variants"] == nil
        ? [nil]
        : try reader.sequence(map["variants"], at: "\(path).variants", nonEmpty: true).map { Optional($0) }
      for (variantIndex, variantNode) in variantNodes.enumerated() {
        let variantPath = "\(path).variants[\(variantIndex)]"
        var requested: [String: String] = [:]
        if let variantNode {
          let settings = try reader.mapping(
            variantNode, at: variantPath, allowed: descriptor.axes.map(\.name),
            what: "settings of backend '\(name)'")
          for (key, value) in settings {
            requested[key] = try reader.scalar(value, at: "\(variantPath).\(key)")
          }
        }
        do {
          let variant = try descriptor.variant(requested)
          guard !entries.contains(where: { $0.backend == name && $0.variant == variant }) else {
            throw reader.error(variantPath, "duplicate variant '\(variant)' of backend '\(name)'")
          }
          entries.append(Scenario.BackendEntry(backend: name, variant: variant, limits: limits, only: only))
        } catch let error as VariantError {
          throw reader.error(variantPath, error.message)
        }
      }
    }
    return entries
  }

  private func parseWorkloads(_ node: Node?, reader: inout NodeReader, files: inout [WorkloadFile]) throws
    -> [Scenario.WorkloadEntry]
  {
    if isSmoke(node) {
      return try workloads.workloads.map { workload in
        var parameters = workload.defaultParameters
        for (name, value) in workload.smokeParameters { parameters.set(name, value) }
        do {
          try workload.validate(parameters)
        } catch {
          throw reader.error("workloads", "\(workload.name)'s smoke parameters: \(error)")
        }
        return Scenario.WorkloadEntry(workload: workload.name, cases: [parameters])
      }
    }
    let items = try reader.sequence(node, at: "workloads", nonEmpty: true)
    var entries: [Scenario.WorkloadEntry] = []
    for (index, item) in items.enumerated() {
      let path = "workloads[\(index)]"
      let fileKeys = workloads.fileReaders.map(\.key)
      let map = try reader.mapping(item, at: path, allowed: Self.workloadKeys + fileKeys)
      let named: [any Workload]
      if let fileReader = workloads.fileReaders.first(where: { map[$0.key] != nil }) {
        let key = fileReader.key
        guard map["workload"] == nil, fileKeys.filter({ map[$0] != nil }).count == 1 else {
          throw reader.error(path, "give either workload (a built-in) or \(key) (a \(key) workload file), not both")
        }
        let file = try reader.string(map[key], at: "\(path).\(key)", required: true)!
        let found = try fileReader.read(file: Self.resolve(file, beside: reader.file))
        files.append(found)
        named = found.workloads
      } else {
        let name = try reader.string(map["workload"], at: "\(path).workload", required: true)!
        guard let workload = workloads[name] else {
          throw reader.error(
            "\(path).workload",
            "unknown workload '\(name)'; known: \(workloads.names.joined(separator: ", "))")
        }
        named = [workload]
      }
      for workload in named {
        guard !entries.contains(where: { $0.workload == workload.name }) else {
          throw reader.error(
            "\(path).workload", "workload '\(workload.name)' is listed twice; use 'sizes' for several sizes"
          )
        }
        entries.append(try entry(workload, map, at: path, reader: &reader))
      }
    }
    return entries
  }

  /// A sql workload file's path as a scenario names it: relative to the scenario's own folder.
  static func resolve(_ path: String, beside scenario: String) -> String {
    guard !path.hasPrefix("/") else { return path }
    return URL(fileURLWithPath: scenario).deletingLastPathComponent().appendingPathComponent(path).path
  }

  /// The cases of `workload` from its entry's `parameters` and `sizes`.
  private func entry(_ workload: any Workload, _ map: [(String, Node)], at path: String, reader: inout NodeReader)
    throws -> Scenario.WorkloadEntry
  {
    let name = workload.name
    var parameters = workload.defaultParameters
    if let parameterNode = map["parameters"] {
      let given = try reader.mapping(
        parameterNode, at: "\(path).parameters",
        allowed: workload.parameters.map(\.name), what: "parameters of '\(name)'")
      for spec in workload.parameters {
        if let value = try reader.integer(
          given[spec.name], at: "\(path).parameters.\(spec.name)", range: spec.range)
        {
          parameters.set(spec.name, value)
        }
      }
    }
    var cases = [parameters]
    if map["sizes"] != nil {
      let sizeSpec = workload.parameters.first { $0.key == workload.sizeParameter }!
      let sizes = try reader.sequence(map["sizes"], at: "\(path).sizes", nonEmpty: true)
      guard sizes.count <= Self.maximumSizes else {
        throw reader.error(
          "\(path).sizes", "\(sizes.count) sizes; at most \(Self.maximumSizes) are allowed")
      }
      var seen = Set<Int>()
      cases = try sizes.enumerated().map { sizeIndex, sizeNode in
        var sized = parameters
        let size = try reader.integer(sizeNode, at: "\(path).sizes[\(sizeIndex)]", range: sizeSpec.range)!
        guard seen.insert(size).inserted else {
          throw reader.error(
            "\(path).sizes[\(sizeIndex)]", "\(size) is listed twice; each size makes one row")
        }
        sized[workload.sizeParameter] = size
        return sized
      }
    }
    for (caseIndex, parameters) in cases.enumerated() {
      do {
        try workload.validate(parameters)
      } catch {
        throw reader.error(
          map["sizes"] == nil ? "\(path).parameters" : "\(path).sizes[\(caseIndex)]", "\(error)")
      }
    }
    return Scenario.WorkloadEntry(
      workload: name, cases: cases, budget: try budget(map["budget"], at: path, reader: &reader),
      sizeParameter: map["sizes"] == nil ? nil : workload.sizeParameter.text)
  }

  static let budgetKeys = ["percentile", "ms", "per"]

  /// `budget: {percentile: 99, ms: 16.7, per: operation}`: the latency the entry's operations are held to.
  private func budget(_ node: Node?, at path: String, reader: inout NodeReader) throws -> LatencyBudget? {
    guard let node else { return nil }
    let map = try reader.mapping(node, at: "\(path).budget", allowed: Self.budgetKeys)
    let percentile = try reader.integer(map["percentile"], at: "\(path).budget.percentile", range: 1...99) ?? 99
    guard [50, 90, 99].contains(percentile) else {
      throw reader.error("\(path).budget.percentile", "\(percentile): give 50, 90 or 99")
    }
    guard
      let ms = try reader.decimal(map["ms"], at: "\(path).budget.ms", range: 0.001...3_600_000)
    else { throw reader.error("\(path).budget.ms", "required key is missing") }
    let per = try reader.string(map["per"], at: "\(path).budget.per", required: false) ?? "operation"
    guard per == "operation" || per == "repetition" else {
      throw reader.error("\(path).budget.per", "'\(per)': give operation or repetition")
    }
    return LatencyBudget(percentile: percentile, milliseconds: ms, perRepetition: per == "repetition")
  }
}
