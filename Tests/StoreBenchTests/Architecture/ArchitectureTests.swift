import Foundation
import StoreBenchBackends
import StoreBenchCore
import Testing

/// The rules docs/ARCHITECTURE.md states, each held over the whole tree (every module) and shown to fire on a
/// planted violation, so that a rule which can no longer fail is noticed.
@Suite("Architecture rules over the whole tree")
struct ArchitectureTests {
  static let tree = Result { try SourceFile.tree(root: packageRoot) }

  static func plant(_ path: String, _ text: String) -> [SourceFile] {
    [SourceFile(path: path, text: text)]
  }

  @Test("the tokenizer drops comments, keeps strings apart from code and scans interpolations as code")
  func tokenizer() {
    let source = #"""
      import Foundation
      @testable import StoreBenchCore
      // "/proc/in a comment"
      /* nested /* "/proc" */ still comment */
      let a = "plain \(call("inner")) tail", b = #"raw "quoted" \(notCode)"#
      let c = """
          multi "line"
          """
      let d = 0..<10, e = 1.5e3, `for` = x?.y
      """#
    let tokens = SwiftTokens(source)
    #expect(tokens.imports == ["Foundation", "StoreBenchCore"])
    #expect(
      tokens.tokens.filter { $0.kind == .string }.map(\.text) == [
        "plain ", "inner", " tail", #"raw "quoted" \(notCode)"#, "    multi \"line\"\n    ",
      ])
    #expect(tokens.tokens.filter { $0.kind == .number }.map(\.text) == ["0", "10", "1.5e3"])
    #expect(tokens.tokens.contains { $0.kind == .identifier && $0.text == "call" })
    #expect(tokens.tokens.contains { $0.kind == .identifier && $0.text == "for" })
    #expect(!tokens.tokens.contains { $0.text.contains("proc") })
    #expect(tokens.tokens.first { $0.text == "d" }?.line == 9)
  }

  @Test(
    "/proc is read only in StoreBenchMeasure/Platform/ and Machine/; a read planted elsewhere is found, a comment is not"
  )
  func procOnlyInPlatform() throws {
    let tree = try Self.tree.get()
    #expect(tree.count > 200, "the scan found \(tree.count) files")
    #expect(ArchitectureRules.procOutsidePlatform(tree) == [])
    let planted = Self.plant(
      "Sources/StoreBenchCore/Planted.swift",
      """
      // reads /proc/self/status in a comment: not a finding
      let text = try String(contentsOfFile: "/proc/\\(pid)/status")
      """)
    #expect(ArchitectureRules.procOutsidePlatform(planted).map(\.line) == [2])
    #expect(
      ArchitectureRules.procOutsidePlatform(
        Self.plant("Sources/StoreBenchMeasure/Platform/Planted.swift", #"let s = "/proc/self/io""#)) == [])
  }

  /// The registry's vocabulary: every backend's name, its settings with their values, its library-version keys.
  static func backendVocabulary() -> (names: Set<String>, settings: [String: Set<String>], keys: Set<String>) {
    let descriptors = BackendRegistry.standard().descriptors
    var settings: [String: Set<String>] = [:]
    for axis in descriptors.flatMap(\.axes) {
      if case .choice(let values) = axis.allowed {
        settings[axis.name, default: []].formUnion(values)
      } else {
        settings[axis.name, default: []].formUnion([])
      }
    }
    return (Set(descriptors.map(\.name)), settings, Set(descriptors.flatMap { $0.libraryVersions().keys }))
  }

  @Test("no backend name or backend key outside StoreBenchBackends/ (every module, Advice and History included)")
  func backendNamesStayInTheirFolder() throws {
    let (names, settings, keys) = Self.backendVocabulary()
    #expect(names.count == BackendRegistry.standard().descriptors.count && !settings.isEmpty && !keys.isEmpty)
    let findings = ArchitectureRules.backendNamesOutsideBackends(
      try Self.tree.get(), names: names, settings: settings, keys: keys)
    #expect(findings == [], "\(findings.map(\.description).joined(separator: "\n"))")
    let planted = Self.plant(
      "Sources/StoreBenchAdvice/Planted.swift",
      """
      let versions = ["sqlite_compile_options", "peak resident memory"]
      let candidate = "lmdb [sync=nosync]"
      let setting = ",txn=single", batch = "batch_ops=50"
      let html = "<span style='color'>", git = "--format=%ct"
      // sqlite, in a comment: not a finding
      """)
    let found = ArchitectureRules.backendNamesOutsideBackends(
      planted, names: names, settings: settings, keys: keys)
    #expect(found.map(\.line) == [1, 2, 3, 3], "\(found)")
  }

  @Test("exit codes are spelled only in StoreBenchExit: exit, _exit and ExitCode elsewhere take a case, not a number")
  func exitCodesInTheMapping() throws {
    #expect(ArchitectureRules.exitCodesOutsideTheMapping(try Self.tree.get()) == [])
    let planted = Self.plant(
      "Sources/storebench/Planted.swift",
      """
      throw ExitCode(3)
      Foundation.exit(Exit.ok.rawValue)
      _exit(128 + number)
      throw ExitCode(.damaged)
      """)
    #expect(ArchitectureRules.exitCodesOutsideTheMapping(planted).map(\.line) == [1, 3])
  }

  @Test("@unchecked Sendable only on the two types ARCHITECTURE.md lists, in sources and tests")
  func uncheckedSendableListed() throws {
    let page = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
    let allowed: Set = ["LockedView", "LMDBEnvironment"]
    for type in allowed { #expect(page.contains("`\(type)`"), "ARCHITECTURE.md no longer lists \(type)") }
    #expect(page.contains("Two `@unchecked Sendable` remain"))
    #expect(ArchitectureRules.uncheckedSendable(try Self.tree.get(), allowed: allowed) == [])
    let planted = Self.plant(
      "Tests/StoreBenchTests/Planted.swift",
      """
      final class Counter: @unchecked Sendable {}
      /// A comment saying @unchecked Sendable is not a finding.
      final class LockedView: ArticleWriter, @unchecked Sendable {}
      """)
    #expect(
      ArchitectureRules.uncheckedSendable(planted, allowed: allowed).map(\.message) == [
        "Counter is @unchecked Sendable; only [\"LMDBEnvironment\", \"LockedView\"] may be"
      ])
  }

  /// ARCHITECTURE.md's module table: each target and the names its "depends on" column allows.
  static func layeringTable() throws -> [String: Set<String>] {
    let page = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
    let section = try #require(page.components(separatedBy: "## Modules").dropFirst().first)
    let name = try Regex("`([A-Za-z][A-Za-z0-9]*)`")
    var table: [String: Set<String>] = [:]
    for line in section.split(separator: "\n").prefix(while: { !$0.hasPrefix("Inside") })
    where line.hasPrefix("| `") {
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      let target = try #require(cells[1].firstMatch(of: name)).output[1].substring.map(String.init) ?? ""
      table[target] = Set(
        cells[cells.count - 2].matches(of: name).compactMap { $0.output[1].substring }.map(String.init))
    }
    return table
  }

  @Test("the module layering is ARCHITECTURE.md's table: imports and Package.swift's dependencies stay within it")
  func layering() throws {
    let table = try Self.layeringTable()
    #expect(table["StoreBenchBackends"]?.contains("StoreBenchCore") == false)
    #expect(ArchitectureRules.layering(try Self.tree.get(), table: table) == [])
    let manifest = SwiftTokens(
      try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8))
    let targets = ArchitectureRules.packageTargets(manifest)
    #expect(targets["StoreBenchBackends"]?.contains("GRDB") == true, "Package.swift was not read: \(targets)")
    for (target, dependencies) in targets where target != "StoreBenchTests" {
      let allowed = try #require(table[target], "\(target) is not in ARCHITECTURE.md's table")
      #expect(
        dependencies.isSubset(of: allowed), "\(target) depends on \(dependencies.subtracting(allowed).sorted())"
      )
    }
    let planted = Self.plant(
      "Sources/StoreBenchBackends/Planted.swift", "import Foundation\nimport StoreBenchCore\n")
    #expect(ArchitectureRules.layering(planted, table: table).count == 1)
  }

  @Test("a column name is spelled once (ReportColumnID.swift): a planted second spelling is found, prose is not")
  func columnNamesSpelledOnce() throws {
    let names = Set(ReportColumns.samples.map(\.name) + ReportColumns.summary.map(\.name))
    #expect(names.contains("wall_s") && names.contains("median_p99_us") && names.contains("workload"))
    let findings = ArchitectureRules.columnNamesSpelledTwice(try Self.tree.get(), names: names)
    #expect(findings == [], "\(findings.count):\n\(findings.map(\.description).joined(separator: "\n"))")
    let planted = Self.plant(
      "Sources/StoreBenchHistory/Planted.swift",
      """
      let time = row["median_s"], name = cells["workload"]
      let limit = ("p99_us", 1.0)
      let prose = "the median of wall_s over ok repetitions", key = "workload"
      """)
    let found = ArchitectureRules.columnNamesSpelledTwice(planted, names: names)
    #expect(found.map(\.line) == [1, 1, 2], "\(found)")
  }

  @Test("folders inside a module depend one way: a planted cycle across three folders is found, members are not")
  func foldersDependOneWay() throws {
    let tree = try Self.tree.get()
    let findings = ArchitectureRules.folderCycles(tree)
    #expect(findings == [], "\(findings.map(\.description).joined(separator: "\n"))")
    let planted = [
      SourceFile(path: "Sources/M/A/A.swift", text: "struct Alpha { let b: Beta }"),
      SourceFile(path: "Sources/M/B/B.swift", text: "public enum Beta { case one(Gamma) }"),
      SourceFile(path: "Sources/M/C/C.swift", text: "final class Gamma {\n    let a = [Alpha]()\n}"),
      SourceFile(path: "Sources/M/D/D.swift", text: "struct Delta { let x = Alpha.self }"),
      SourceFile(path: "Sources/M/E/E.swift", text: "struct Epsilon { let d = value.Delta }"),
      SourceFile(path: "Sources/M/Top.swift", text: "struct Top { let e: Epsilon; let d: Delta }"),
    ]
    let found = ArchitectureRules.folderCycles(planted)
    #expect(found.count == 1, "\(found)")
    #expect(found.first?.message.hasPrefix("M's folders A, B, C depend on each other") == true, "\(found)")
    #expect(found.first?.message.contains("C/ → A/ (C.swift:2 names Alpha)") == true, "\(found)")
    let twoWay = ArchitectureRules.folderCycles(
      planted + [SourceFile(path: "Sources/M/A/Back.swift", text: "let delta = Delta()")])
    #expect(twoWay.count == 1 && twoWay[0].message.contains("A, B, C, D"), "\(twoWay)")
  }
}
