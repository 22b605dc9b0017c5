import ArgumentParser
import Foundation
import StoreBenchCore

/// `storebench lint-claims [ROOT]` (hidden; `scripts/test` runs it): the claims lint over every Markdown page under
/// ROOT (``ClaimsLint``). Exit 1 with one line per finding; 0 when every page holds.
struct LintClaimsCommand: ParsableCommand {
    static let configuration = CommandConfiguration.internal(
        "lint-claims",
        abstract: "Internal: check every published page's claims against their evidence (docs/MEASURING.md).")

    @Argument(help: "The folder whose Markdown pages are checked (default: the current one).") var root: String = "."

    func run() throws {
        let url = URL(fileURLWithPath: root, isDirectory: true)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure(exit: .badInput, message: "storebench lint-claims: \(root) is not a folder")
        }
        let pages = ClaimsLint.pages(under: url)
        let findings = ClaimsLint.lint(root: url, pages: pages)
        for finding in findings { writeStandardOutput(Data((finding.description + "\n").utf8)) }
        printError(
            "\(pages.count) pages checked: \(findings.isEmpty ? "every claim holds" : "\(findings.count) findings")")
        if !findings.isEmpty {
            throw CommandFailure(
                exit: .failure, message: "storebench lint-claims: \(findings.count) claims do not hold")
        }
    }
}
