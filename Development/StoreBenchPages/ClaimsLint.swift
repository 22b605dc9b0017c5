import Foundation
import StoreBenchCore

/// The claims lint over every published page (`scripts/test` runs it through `storebench lint-claims`): it reads
/// the forms the claim renderer prints (``ClaimSyntax``) on generated pages and hand-written docs alike, and the
/// page's own context (the marker's tie margin and first look, the crash results beside it, the runs it links).
public enum ClaimsLint {
  /// What the lint checks, one class each.
  public enum Rule: String, CaseIterable, Sendable {
    /// A verdict its printed interval does not support, or a ratio outside its own interval.
    case verdict
    /// An interval of a time from fewer repetitions than the page's first look.
    case fewRepetitions = "few-repetitions"
    /// An interval of a time of zero width.
    case zeroWidth = "zero-width"
    /// A durability claim without its crash states, or with a bound its count does not give.
    case durabilityEvidence = "durability-evidence"
    /// A durability claim that contradicts the crash results beside the page.
    case durabilityCSV = "durability-csv"
    /// A relative link that does not resolve.
    case link
    /// A quoted run time that differs from its run's environment.json, or names no run.
    case runTime = "run-time"
    /// README.md over its budget: ``readmeLimit`` lines, ``readmeCharacters`` characters, or a hand-written line
    /// (outside a generated block or a table) wider than ``readmeWidth``.
    case readmeLength = "readme-length"
    /// A bound figure its run does not give, or a measured figure beside a run that nothing binds
    /// (``FigureBinding``).
    case figure
    /// A generated block that differs from what its run renders (checked by `storebench lint-claims`, which
    /// renders every block of README.md and docs/ again).
    case generated
  }

  public struct Finding: Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let rule: Rule
    public let message: String

    public init(file: String, line: Int, rule: Rule, message: String) {
      (self.file, self.line, self.rule, self.message) = (file, line, rule, message)
    }
    public var description: String { "\(file):\(line): [\(rule.rawValue)] \(message)" }
  }

  public static let readmeLimit = 200
  /// The README's characters: 85 a line on average, so that the line budget cannot be met by longer lines.
  public static let readmeCharacters = 17_000
  /// The widest hand-written README line.
  public static let readmeWidth = 120

  /// Every Markdown page under `root` (hidden folders such as `.build` and `.git` skipped), in path order.
  public static func pages(under root: URL) -> [URL] {
    guard
      let walker = FileManager.default.enumerator(
        at: root, includingPropertiesForKeys: [.isRegularFileKey],
        options: [.skipsHiddenFiles])
    else { return [] }
    return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "md" }
      .sorted { $0.path < $1.path }
  }

  /// The findings on `pages` (default: every page under `root`), paths shown relative to `root`.
  public static func lint(root: URL, pages: [URL]? = nil) -> [Finding] {
    (pages ?? Self.pages(under: root)).flatMap { page in
      let text = (try? String(contentsOf: page, encoding: .utf8)) ?? ""
      return lint(page: text, at: page, name: relative(page, to: root))
    }
  }

  /// Where the README is over its budget: lines, characters, and each hand-written line over ``readmeWidth``.
  static func readmeBudget(_ lines: [String], name: String) -> [Finding] {
    var findings: [Finding] = []
    let characters = lines.reduce(0) { $0 + $1.count + 1 } - 1
    if lines.count - 1 > readmeLimit || characters > readmeCharacters {
      findings.append(
        Finding(
          file: name, line: lines.count, rule: .readmeLength,
          message: "README.md has \(lines.count - 1) lines and \(characters) characters, over \(readmeLimit) "
            + "lines or \(readmeCharacters) characters: detail belongs in docs/"))
    }
    var generated = false
    for (index, line) in lines.enumerated() {
      if line.hasPrefix("<!-- generated:") { generated = true }
      if !generated && !line.hasPrefix("|") && line.count > readmeWidth {
        findings.append(
          Finding(
            file: name, line: index + 1, rule: .readmeLength,
            message: "a line of \(line.count) characters, over \(readmeWidth): break it (tables and generated blocks "
              + "excepted)"))
      }
      if line.hasPrefix("<!-- end generated -->") { generated = false }
    }
    return findings
  }

  /// The findings on one page: `url` places it (its links and the evidence beside it), `name` is how findings name
  /// it.
  public static func lint(page: String, at url: URL, name: String) -> [Finding] {
    let folder = url.deletingLastPathComponent()
    let settings = ClaimSyntax.settings(of: page)
    let evidence = CrashNumbers(folders: evidenceFolders(of: page, beside: folder))
    var findings: [Finding] = []
    let lines = page.components(separatedBy: "\n")
    if url.lastPathComponent == "README.md" && folder.appendingPathComponent("Package.swift").isFileLike {
      findings += readmeBudget(lines, name: name)
    }
    // Pages storebench renders whole are rendered again from their runs (the tests compare them byte for byte);
    // hand-written pages bind their figures (``FigureBinding``).
    let handWritten = !ClaimSyntax.isRendered(page)
    var generated = false
    var code = false
    for (index, line) in lines.enumerated() {
      func report(_ rule: Rule, _ message: String) {
        findings.append(Finding(file: name, line: index + 1, rule: rule, message: message))
      }
      // A generated block is rendered from its run; a block marked `storebench unbound: WHY` holds hand-written
      // figures an open issue will render, named by its reason (nothing else may skip the binding).
      if line.hasPrefix("<!-- generated:") || line.hasPrefix("<!-- storebench unbound: ") { generated = true }
      if line.hasPrefix("<!-- end generated") || line.hasPrefix("<!-- end unbound") { generated = false }
      if line.hasPrefix("```") { code.toggle() }
      LineRules(line: line, settings: settings, evidence: evidence, folder: folder).check(report)
      if !code {
        FigureBinding.check(line, folder: folder, handWritten: handWritten && !generated, report: report)
      }
    }
    return findings
  }

  /// Each `<!-- storebench evidence: PATH -->` names a folder whose crash results the page quotes (together);
  /// without one, the page's own folder.
  static func evidenceFolders(of page: String, beside folder: URL) -> [URL] {
    let named = ClaimSyntax.matches(#"<!-- storebench evidence: ([^ ]+) -->"#, in: page)
      .map { URL(fileURLWithPath: $0[1], relativeTo: folder).standardizedFileURL }
    return named.isEmpty ? [folder] : named
  }

  public static func relative(_ url: URL, to root: URL) -> String {
    let path = url.standardizedFileURL.path
    let base = root.standardizedFileURL.path + "/"
    return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
  }
}

extension URL {
  var isFileLike: Bool { FileManager.default.fileExists(atPath: path) }
}
