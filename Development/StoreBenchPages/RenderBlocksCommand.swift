import ArgumentParser
import Foundation
import StoreBenchCore

/// `StoreBenchPages render-blocks [--check] [ROOT]` (`scripts/regenerate-pages` runs it, a test runs `--check`):
/// rewrites the generated blocks of README.md and docs/*.md from the committed runs they name, through the claim
/// renderer (``PageBlocks``). A block is `<!-- generated:NAME key=PATH … -->` … `<!-- end generated -->`; its paths
/// are relative to ROOT. `--check` writes nothing and exits 1 naming every block that differs.
struct RenderBlocksCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName:
      "render-blocks", abstract: "render the generated blocks of README.md and docs/ from committed runs.")

  @Flag(help: "Write nothing; exit 1 when a block differs from what this binary renders.") var check = false
  @Argument(help: "The package root (default: the current folder).") var root: String = "."

  func run() throws {
    let base = try packageFolder(root, command: "render-blocks")
    var stale: [String] = []
    let blocks = PageBlocks(root: base)
    for page in PageBlocks.pages(root: base) {
      let text = try failing(.badInput) { try String(contentsOf: page, encoding: .utf8) }
      let (rendered, changed) = try failing(.failure) { try blocks.render(text, page: page) }
      guard !changed.isEmpty, rendered != text else { continue }
      stale += changed.map { "\(page.lastPathComponent): generated:\($0)" }
      if !check {
        try failing(.failure) { try AtomicFile.write(Data(rendered.utf8), to: page) }
        printError("rewrote \(page.lastPathComponent): \(changed.joined(separator: ", "))")
      }
    }
    if check && !stale.isEmpty {
      throw PageFailure(
        exit: .failure,
        message: "render-blocks: these blocks differ from what this binary "
          + "renders from the committed runs (scripts/regenerate-pages rewrites them):\n  "
          + stale.joined(separator: "\n  "))
    }
  }
}
