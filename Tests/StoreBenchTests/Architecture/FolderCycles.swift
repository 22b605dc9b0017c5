/// Folders inside a module depend one way: the rule that keeps a module's rooms layered (docs/ARCHITECTURE.md,
/// "Folders depend one way").
///
/// A folder depends on another when one of its files names a type declared at the top level of a file in the other
/// (`Runner/` → `Workloads/` when `RepetitionRunner.swift` names `Workload`). Names after a `.` are members, not
/// types, and are skipped. The rule finds every set of two or more folders of one module that reach each other (a
/// strongly connected component of that graph), and names, for each dependency inside the set, the first file and
/// type that makes it.
extension ArchitectureRules {
  /// The folder a file sits in inside its module (`Runner` for `Sources/StoreBenchCore/Runner/Runner.swift`); nil
  /// for a file at the module's top.
  static func folder(of file: SourceFile) -> String? {
    let parts = file.path.split(separator: "/")
    return parts.count >= 4 ? String(parts[2]) : nil
  }

  /// The types a file declares at its top level (brace depth 0).
  static func declaredTypes(_ file: SourceFile) -> [String] {
    let keywords: Set = ["struct", "class", "enum", "protocol", "actor", "typealias"]
    var depth = 0
    var names: [String] = []
    let tokens = file.tokens.tokens
    for (index, token) in tokens.enumerated() {
      if token.kind == .punctuation {
        if token.text == "{" { depth += 1 }
        if token.text == "}" { depth -= 1 }
      } else if depth == 0, token.kind == .identifier, keywords.contains(token.text), index + 1 < tokens.count,
        tokens[index + 1].kind == .identifier, tokens[index + 1].text.first?.isUppercase == true
      {
        names.append(tokens[index + 1].text)
      }
    }
    return names
  }

  /// The folder cycles of every module under `Sources/` and `Development/`, one finding per cycle.
  static func folderCycles(_ files: [SourceFile]) -> [RuleFinding] {
    let product = files.filter { $0.path.hasPrefix("Sources/") || $0.path.hasPrefix("Development/") }
    return Dictionary(grouping: product, by: \.module).sorted { $0.key < $1.key }.flatMap { module, files in
      cycles(in: module, files)
    }
  }

  /// A dependency between two folders: the first file and type that makes it.
  private struct Edge {
    let path: String
    let line: Int
    let type: String
  }

  private static func cycles(in module: String, _ files: [SourceFile]) -> [RuleFinding] {
    var home: [String: String] = [:]
    for file in files {
      guard let folder = folder(of: file) else { continue }
      for name in declaredTypes(file) { home[name] = folder }
    }
    var edges: [String: [String: Edge]] = [:]
    for file in files {
      guard let folder = folder(of: file) else { continue }
      let tokens = file.tokens.tokens
      for (index, token) in tokens.enumerated() where token.kind == .identifier {
        guard let target = home[token.text], target != folder, edges[folder]?[target] == nil else { continue }
        if index > 0, tokens[index - 1].kind == .punctuation, tokens[index - 1].text == "." { continue }
        edges[folder, default: [:]][target] = Edge(path: file.path, line: token.line, type: token.text)
      }
    }
    let graph = edges.mapValues { Set($0.keys) }
    return stronglyConnected(graph).map { component in
      let inside = component.flatMap { from in
        component.compactMap { to in edges[from]?[to].map { (from, to, $0) } }
      }
      let first = inside[0].2
      let reasons = inside.map { from, to, edge in
        "\(from)/ → \(to)/ (\(edge.path.split(separator: "/").last ?? ""):\(edge.line) names \(edge.type))"
      }
      return RuleFinding(
        path: first.path, line: first.line,
        message: "\(module)'s folders \(component.joined(separator: ", ")) depend on each other: "
          + reasons.joined(separator: "; "))
    }
  }

  /// The sets of two or more nodes that reach each other (Tarjan), each sorted, in order of their first node.
  static func stronglyConnected(_ graph: [String: Set<String>]) -> [[String]] {
    let nodes = Set(graph.keys).union(graph.values.flatMap { $0 }).sorted()
    var index: [String: Int] = [:]
    var low: [String: Int] = [:]
    var stack: [String] = []
    var onStack: Set<String> = []
    var components: [[String]] = []
    func visit(_ node: String) {
      index[node] = index.count
      low[node] = index[node]
      stack.append(node)
      onStack.insert(node)
      for next in (graph[node] ?? []).sorted() {
        if index[next] == nil {
          visit(next)
          low[node] = min(low[node]!, low[next]!)
        } else if onStack.contains(next) {
          low[node] = min(low[node]!, index[next]!)
        }
      }
      guard low[node] == index[node] else { return }
      var component: [String] = []
      while let top = stack.popLast() {
        onStack.remove(top)
        component.append(top)
        if top == node { break }
      }
      if component.count > 1 { components.append(component.sorted()) }
    }
    for node in nodes where index[node] == nil { visit(node) }
    return components.sorted { $0[0] < $1[0] }
  }
}
