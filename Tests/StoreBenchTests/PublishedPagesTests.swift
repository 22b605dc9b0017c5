import Foundation
import Testing

/// Generated text goes stale: every committed page is what today's binary renders from its committed data
/// (scripts/regenerate-pages renders them all in one pass). advice.md: AdviceTests.committedAnswersCurrent; the
/// trend page and check.txt: HistoryExampleTests.
@Suite("Published pages are regenerated, not edited")
struct PublishedPagesTests {
  /// Every committed run folder with a report.md (the example, the app scenarios, the quick run, each advise run).
  static func reportFolders() throws -> [URL] {
    let examples = packageRoot.appendingPathComponent("results/example")
    var folders = [examples]
    for name in try FileManager.default.contentsOfDirectory(atPath: examples.path).sorted() {
      for candidate in [
        examples.appendingPathComponent(name),
        examples.appendingPathComponent(name).appendingPathComponent("run"),
      ]
      where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("report.md").path) {
        folders.append(candidate)
      }
    }
    return folders
  }

  @Test("report.md and classes.csv of every committed run are what `storebench report` renders from the run")
  func reports() throws {
    let folders = try Self.reportFolders()
    #expect(folders.count >= 8, "\(folders.map(\.path))")
    for folder in folders {
      let temp = try TemporaryDirectory()
      let copy = temp.url.appendingPathComponent("run")
      try FileManager.default.copyItem(at: folder, to: copy)
      let result = try runStorebench(["report", copy.path])
      #expect(result.status == 0, "\(folder.path): \(result.stderr)")
      for name in ["report.md", "classes.csv"] {
        let committed = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        let rendered = try String(contentsOf: copy.appendingPathComponent(name), encoding: .utf8)
        #expect(rendered == committed, "\(folder.path)/\(name) is stale: run scripts/regenerate-pages")
      }
    }
  }

  @Test(
    "the generated blocks of README.md and docs/ are what `StoreBenchPages render-blocks` renders from the committed runs"
  )
  func blocks() throws {
    let result = try runPageTool(["render-blocks", "--check", packageRoot.path])
    #expect(result.status == 0, "\(result.stderr)")
  }
}
