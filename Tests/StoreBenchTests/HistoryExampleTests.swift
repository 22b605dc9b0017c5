import Foundation
import StoreBenchConformance
import Testing

/// The committed example history (results/example/history) is what today's binary draws from its history.sqlite.gz:
/// a change to the page, the check or the variant names makes this fail until scripts/regenerate-history-example
/// runs again.
@Suite("History example")
struct HistoryExampleTests {
  static let example = packageRoot.appendingPathComponent("results/example/history")

  @Test("results/example/history: index.html and check.txt are what the binary renders from the committed history")
  func exampleIsCurrent() throws {
    let directory = try TemporaryDirectory()
    // Unpacked into a temporary folder: the committed history stays as committed.
    let db = directory.url.appendingPathComponent("history.sqlite")
    let gunzip = Process()
    gunzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    gunzip.arguments = ["gunzip", "-c", Self.example.appendingPathComponent("history.sqlite.gz").path]
    _ = FileManager.default.createFile(atPath: db.path, contents: nil)
    gunzip.standardOutput = try FileHandle(forWritingTo: db)
    try gunzip.run()
    gunzip.waitUntilExit()
    #expect(gunzip.terminationStatus == 0)
    let page = directory.url.appendingPathComponent("page")
    let html = try runStorebench(["history", "html", "--db", db.path, page.path])
    #expect(html.status == 0, "\(html)")
    let rendered = try String(contentsOf: page.appendingPathComponent("index.html"), encoding: .utf8)
    let committed = try String(contentsOf: Self.example.appendingPathComponent("index.html"), encoding: .utf8)
    #expect(
      ContractData.sameBytes(rendered, committed),
      "results/example/history/index.html is stale: run scripts/regenerate-history-example")
    let check = try runStorebench(["history", "check", "--db", db.path])
    let committedCheck = try String(contentsOf: Self.example.appendingPathComponent("check.txt"), encoding: .utf8)
    #expect(
      ContractData.sameBytes(check.stdout, committedCheck),
      "results/example/history/check.txt is stale: run scripts/regenerate-history-example")
    #expect(check.status == (committedCheck.contains("; exit 2.") ? 2 : 0))
    #expect(FileManager.default.fileExists(atPath: Self.example.appendingPathComponent("screenshot.png").path))
  }
}
