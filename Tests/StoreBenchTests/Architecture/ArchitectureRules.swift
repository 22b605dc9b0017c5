import Foundation
import StoreBenchCore

/// One Swift file of the package, tokenized; `path` is relative to the package root (`Sources/StoreBenchCore/…`).
struct SourceFile {
  let path: String
  let tokens: SwiftTokens

  init(path: String, text: String) {
    self.path = path
    tokens = SwiftTokens(text)
  }

  /// The target the file belongs to: the folder under `Sources/`, `Development/` or `Tests/`.
  var module: String { path.split(separator: "/").dropFirst().first.map(String.init) ?? "" }

  /// Every `.swift` file under `folders` of the package at `root`, in path order.
  static func tree(_ folders: [String] = ["Sources", "Development", "Tests"], root: URL) throws -> [SourceFile] {
    var files: [SourceFile] = []
    for folder in folders {
      let base = root.appendingPathComponent(folder)
      let relatives = (FileManager.default.enumerator(atPath: base.path)?.allObjects as? [String]) ?? []
      for relative in relatives.sorted() where relative.hasSuffix(".swift") {
        let text = try String(contentsOf: base.appendingPathComponent(relative), encoding: .utf8)
        files.append(SourceFile(path: "\(folder)/\(relative)", text: text))
      }
    }
    return files
  }
}

/// A rule broken at one place.
struct RuleFinding: CustomStringConvertible, Equatable {
  let path: String
  let line: Int
  let message: String

  var description: String { "\(path):\(line): \(message)" }
}

/// The rules docs/ARCHITECTURE.md states, as functions over tokenized sources: each returns where it is broken.
/// ArchitectureTests runs each over the whole tree (none found) and over a planted violation (found).
enum ArchitectureRules {
  /// The folders that read `/proc`: the Linux calls (counters, the process table) and the machine's facts.
  static let procReaders = ["Sources/StoreBenchMeasure/Platform/", "Sources/StoreBenchMeasure/Machine/"]

  /// `/proc` is read only in ``procReaders``: a string literal that is a path into it elsewhere is a finding
  /// (prose that names `/proc/self/io` as a column's source is not a read).
  static func procOutsidePlatform(_ files: [SourceFile]) -> [RuleFinding] {
    files.filter { file in
      file.path.hasPrefix("Sources/") && !procReaders.contains { file.path.hasPrefix($0) }
    }
    .flatMap { file in
      file.tokens.tokens.filter { $0.kind == .string && $0.text.hasPrefix("/proc") }.map {
        RuleFinding(
          path: file.path, line: $0.line,
          message: "reads /proc outside Platform/ and Machine/: \"\($0.text)\"")
      }
    }
  }

  /// The library wrappers and C modules are the libraries themselves, not backends: the rule skips them.
  static let libraryModules: Set = [
    "SQLiteAPI", "LMDBAPI", "GDBMAPI", "CSQLite", "CLMDB", "CGDBM", "CBaselines", "CFuse3", "PageCacheLayer",
    "CPerfEvent", "CValgrind",
  ]

  /// No backend's name or key outside `Sources/StoreBenchBackends/`: a string literal that is a backend's name
  /// or a strategy written with it (`"lmdb"`, `"lmdb[sync=nosync]"`, `"lmdb [sync=nosync]"`), that sets one of its
  /// settings (`"txn=single"`), or that contains one of its keys spelt with an underscore
  /// (`"sqlite_compile_options"`). Words of prose (`"memory"` in "peak resident memory") are not names.
  static func backendNamesOutsideBackends(
    _ files: [SourceFile], names: Set<String>, settings: [String: Set<String>], keys: Set<String>
  ) -> [RuleFinding] {
    files.filter {
      $0.path.hasPrefix("Sources/") && !$0.path.hasPrefix("Sources/StoreBenchBackends/")
        && !libraryModules.contains($0.module)
    }
    .flatMap { file in
      file.tokens.tokens.filter { $0.kind == .string }.compactMap { token -> RuleFinding? in
        let text = token.text
        let named = names.filter { name in
          text == name || text.contains("\(name)[") || text.contains("\(name) [")
        }
        .union(settings.keys.filter { Self.sets($0, to: settings[$0]!, in: text) })
        .union(keys.filter { $0.contains("_") && Self.containsWord($0, in: text) })
        guard !named.isEmpty else { return nil }
        return RuleFinding(
          path: file.path, line: token.line,
          message: "names \(named.sorted().joined(separator: ", ")) outside its backend: \"\(text)\"")
      }
    }
  }

  /// Where `word` occurs in `text` not preceded by a letter, digit, underscore or hyphen: the index after it.
  static func wordEnds(_ word: String, in text: String) -> [String.Index] {
    var ends: [String.Index] = []
    var searchRange = text.startIndex..<text.endIndex
    while let range = text.range(of: word, range: searchRange) {
      let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
      if before.map({ !$0.isLetter && !$0.isNumber && $0 != "_" && $0 != "-" }) ?? true {
        ends.append(range.upperBound)
      }
      searchRange = range.upperBound..<text.endIndex
    }
    return ends
  }

  static func containsWord(_ word: String, in text: String) -> Bool { !wordEnds(word, in: text).isEmpty }

  /// Whether `text` sets the setting `name` to one of its `values` (`"txn=single"`); an empty `values` stands for
  /// an integer setting (`"batch_ops=50"`). `style='…'` in HTML or `--format=%ct` is not a setting.
  static func sets(_ name: String, to values: Set<String>, in text: String) -> Bool {
    wordEnds("\(name)=", in: text).contains { end in
      let value = String(text[end...].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
      return values.isEmpty ? !value.isEmpty && value.allSatisfy(\.isNumber) : values.contains(value)
    }
  }

  /// Exit codes are spelled only in the one mapping (`StoreBenchExit`): a call of `exit`, `_exit` or `ExitCode`
  /// elsewhere passes a `StoreBenchExit`, never a number.
  static func exitCodesOutsideTheMapping(_ files: [SourceFile]) -> [RuleFinding] {
    let mapping: Set = ["Sources/StoreBenchContract/Errors/StoreBenchExit.swift"]
    let calls: Set = ["exit", "_exit", "ExitCode"]
    return files.filter { $0.path.hasPrefix("Sources/") && !mapping.contains($0.path) }.flatMap { file in
      let tokens = file.tokens.tokens
      var findings: [RuleFinding] = []
      for (index, token) in tokens.enumerated()
      where token.kind == .identifier && calls.contains(token.text) && index + 1 < tokens.count
        && tokens[index + 1].text == "(" && (index == 0 || tokens[index - 1].text != "func")
      {
        var depth = 0
        var end = index + 1
        repeat {
          if tokens[end].text == "(" { depth += 1 }
          if tokens[end].text == ")" { depth -= 1 }
          end += 1
        } while depth > 0 && end < tokens.count
        let arguments = tokens[(index + 2)..<max(index + 2, end - 1)]
        if let number = arguments.first(where: { $0.kind == .number }) {
          findings.append(
            RuleFinding(
              path: file.path, line: token.line,
              message: "\(token.text)(…) with the number \(number.text): name a StoreBenchExit case"))
        }
      }
      return findings
    }
  }

  /// `@unchecked Sendable` only on the types `allowed` names: each finding names the type that declares it.
  static func uncheckedSendable(_ files: [SourceFile], allowed: Set<String>) -> [RuleFinding] {
    files.flatMap { file in
      let tokens = file.tokens.tokens
      var findings: [RuleFinding] = []
      for index in tokens.indices.dropLast(2)
      where tokens[index].text == "@" && tokens[index + 1].text == "unchecked"
        && tokens[index + 2].text == "Sendable"
      {
        // The declaration it belongs to: the nearest `class`/`struct`/`enum`/`actor`/`extension` before it.
        let kinds: Set = ["class", "struct", "enum", "actor", "extension"]
        let declaration = tokens[..<index].lastIndex { $0.kind == .identifier && kinds.contains($0.text) }
        let type = declaration.map { tokens[$0 + 1].text } ?? "?"
        if !allowed.contains(type) {
          findings.append(
            RuleFinding(
              path: file.path, line: tokens[index].line,
              message: "\(type) is @unchecked Sendable; only \(allowed.sorted()) may be"))
        }
      }
      return findings
    }
  }

  /// Each module imports only what the layering table allows it (`table`: target → the targets and products it
  /// may depend on), besides the platform's own modules; a module missing from the table is a finding too.
  static func layering(_ files: [SourceFile], table: [String: Set<String>]) -> [RuleFinding] {
    let platform: Set = ["Foundation", "Dispatch", "Synchronization", "Glibc", "Darwin", "Testing"]
    return files.filter { !$0.path.hasPrefix("Tests/StoreBenchTests/") }.flatMap { file -> [RuleFinding] in
      guard let allowed = table[file.module] else {
        return [RuleFinding(path: file.path, line: 1, message: "\(file.module) is not in the layering table")]
      }
      let imported = file.tokens.imports.filter { !platform.contains($0) && !allowed.contains($0) }
      return imported.map {
        RuleFinding(
          path: file.path, line: 1,
          message: "\(file.module) imports \($0); the table allows \(allowed.sorted())")
      }
    }
  }

  /// The targets Package.swift declares and what each depends on (target names, and products by name).
  static func packageTargets(_ manifest: SwiftTokens) -> [String: Set<String>] {
    let tokens = manifest.tokens
    var targets: [String: Set<String>] = [:]
    let declarations: Set = ["target", "executableTarget", "testTarget", "systemLibrary"]
    var index = 0
    while index + 4 < tokens.count {
      defer { index += 1 }
      guard tokens[index].text == ".", declarations.contains(tokens[index + 1].text),
        tokens[index + 2].text == "(", tokens[index + 3].text == "name", tokens[index + 5].kind == .string
      else { continue }
      let name = tokens[index + 5].text
      var dependencies: Set<String> = []
      var cursor = index + 6
      var depth = 1
      var inDependencies = false
      var bracket = 0
      while cursor < tokens.count && depth > 0 {
        let token = tokens[cursor]
        if token.text == "(" { depth += 1 }
        if token.text == ")" { depth -= 1 }
        if token.text == "dependencies" && depth == 1 { inDependencies = true }
        if inDependencies && token.text == "[" { bracket += 1 }
        if inDependencies && token.text == "]" {
          bracket -= 1
          if bracket == 0 { inDependencies = false }
        }
        if inDependencies && token.kind == .string && tokens[cursor - 2].text != "package" {
          dependencies.insert(token.text)
        }
        cursor += 1
      }
      targets[name] = dependencies
    }
    return targets
  }
}

extension ArchitectureRules {
  /// The one file that spells the columns' names (``SampleColumn``, ``SummaryStatistic``).
  static let columnNames = "Sources/StoreBenchFormats/ReportColumnID.swift"

  /// The modules that read or write report files (the contract, the measuring primitives and the backends sit
  /// below the columns and never see them).
  static let readsReports: Set = [
    "StoreBenchFormats", "StoreBenchStatistics", "StoreBenchAnalysis", "StoreBenchCore", "StoreBenchCrash",
    "StoreBenchSQLWorkloads", "StoreBenchSharing", "StoreBenchStandard",
    "StoreBenchAdvice", "StoreBenchHistory", "StoreBenchOverhead",
    "StoreBenchCommands", "StoreBenchConformance", "StoreBenchKit", "StoreBenchPages",
  ]

  /// Keys of other formats that happen to share a column's name, each with its file: a scenario's and a workload
  /// file's keys (`target_precision`, `workload`, `parameters`), a profile's, environment.json's repetition policy,
  /// a backend's `list --json` entry, a generated block's options, and two stored formats with keys of their own —
  /// the history database's schema (with migrations) and advice.json's (`AdviceRecord`): a report column renamed
  /// must not rename a stored database's column or a published answer's key.
  static let otherVocabularies: [String: Set<String>] = [
    "Sources/StoreBenchCore/Scenario/ScenarioParser.swift": [
      "target_precision", "backend", "workload", "parameters",
    ],
    "Sources/StoreBenchCore/Scenario/RepetitionPolicy.swift": ["target_precision"],
    "Sources/StoreBenchCore/Scenario/Scenario+YAML.swift": ["target_precision"],
    "Sources/StoreBenchSQLWorkloads/SQLWorkloadParser.swift": ["parameters", "size"],
    "Sources/StoreBenchAdvice/AppProfile.swift": ["settings", "processes"],
    "Sources/StoreBenchAdvice/AdvicePlan+Measure.swift": ["settings"],
    "Sources/StoreBenchAnalysis/RunFolder/RunEnvironment.swift": ["target_precision"],
    "Sources/StoreBenchConformance/ExecutableCheck.swift": ["settings"],
    "Development/StoreBenchPages/PageBlocks.swift": ["workload"],
    "Sources/StoreBenchHistory/HistoryDatabase.swift": ["median_s", "wall_s"],
    "Sources/StoreBenchAdvice/AdviceRecord.swift": ["lost_updates", "syncs_per_op", "written_bytes_per_day"],
    "Sources/StoreBenchHistory/HistoryDatabase+Read.swift": [
      "workload", "backend", "variant", "size", "parameters", "dataset", "status", "n",
    ],
  ]

  /// A column name is spelled once: outside ``columnNames``, a string literal that is a column's name (`"wall_s"`,
  /// `"median_p99_us"`) is a finding when the name has more than one word, and so is any column's name used as a
  /// subscript key (`cells["workload"]`); prose that mentions a column inside a sentence is not a spelling.
  static func columnNamesSpelledTwice(_ files: [SourceFile], names: Set<String>) -> [RuleFinding] {
    files.filter { readsReports.contains($0.module) && $0.path != columnNames }.flatMap { file in
      let tokens = file.tokens.tokens
      return tokens.indices.compactMap { index -> RuleFinding? in
        let token = tokens[index]
        guard token.kind == .string, names.contains(token.text) else { return nil }
        let subscripted =
          index >= 1 && index + 1 < tokens.count && tokens[index - 1].text == "["
          && tokens[index + 1].text == "]"
        guard token.text.contains("_") || subscripted,
          !(otherVocabularies[file.path] ?? []).contains(token.text)
        else { return nil }
        return RuleFinding(
          path: file.path, line: token.line,
          message: "spells the column \"\(token.text)\": refer to its SampleColumn or ColumnID")
      }
    }
  }
}
