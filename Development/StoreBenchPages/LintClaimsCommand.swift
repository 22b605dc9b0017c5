import ArgumentParser
import Foundation
import StoreBenchCore

/// `StoreBenchPages lint-claims [ROOT]` (`scripts/test` runs it): the claims lint over every Markdown page under
/// ROOT (``ClaimsLint``). Exit 1 with one line per finding; 0 when every page holds.
struct LintClaimsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName:
      "lint-claims",
    abstract: "check every published page's claims against their evidence (docs/MEASURING.md).")

  @Argument(help: "The folder whose Markdown pages are checked (default: the current one).") var root: String = "."

  func run() throws {
    let url = try packageFolder(root, command: "lint-claims")
    let pages = ClaimsLint.pages(under: url)
    let findings = ClaimsLint.lint(root: url, pages: pages) + (try staleBlocks(root: url))
    for finding in findings { FileHandle.standardOutput.write(Data((finding.description + "\n").utf8)) }
    printError(
      "\(pages.count) pages checked: \(findings.isEmpty ? "every claim holds" : "\(findings.count) findings")")
    if !findings.isEmpty {
      throw PageFailure(
        exit: .failure, message: "lint-claims: \(findings.count) claims do not hold")
    }
  }

  /// Every generated block of README.md and docs/ rendered again from the run it names (``PageBlocks``): a block
  /// whose figures differ from its run's is a finding, whatever its numbers look like.
  private func staleBlocks(root: URL) throws -> [ClaimsLint.Finding] {
    let blocks = PageBlocks(root: root)
    var findings: [ClaimsLint.Finding] = []
    for page in PageBlocks.pages(root: root) {
      let text = try failing(.badInput) { try String(contentsOf: page, encoding: .utf8) }
      let name = ClaimsLint.relative(page, to: root)
      let changed: [String]
      do {
        changed = try blocks.render(text, page: page).1
      } catch {
        findings.append(
          .init(file: name, line: 1, rule: .generated, message: "its blocks cannot be rendered: \(error)"))
        continue
      }
      let lines = text.components(separatedBy: "\n")
      for block in changed {
        let line = (lines.firstIndex { $0.hasPrefix("<!-- generated:\(block)") } ?? 0) + 1
        findings.append(
          .init(
            file: name, line: line, rule: .generated,
            message: "generated:\(block) differs from what its run renders (scripts/regenerate-pages)"))
      }
    }
    return findings
  }
}
