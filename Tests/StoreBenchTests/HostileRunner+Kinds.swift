import Foundation
import SQLiteAPI
import StoreBenchCore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension HostileCase.Kind {
  /// The kinds whose command must refuse its output (exit 64) and change nothing, its inputs included.
  var isOutputRefusal: Bool {
    [.symlink, .device, .fifo, .input, .longPath, .nonUTF8, .userFolder, .recordedFile].contains(self)
  }
}

/// The hostile kinds that are not an output refusal: inputs as another tool saves them, a working directory that is
/// not UTF-8, children stopped under a Ctrl-C, and a workload file's SQL aimed at another database.
extension HostileRunner {
  /// A file that a storebench folder's manifest lists and that the command does not read (the report.md of a
  /// recorded run folder beside its inputs): an output aimed at it must be refused.
  func recordedFileTarget() throws -> String {
    let folder = box.url.appendingPathComponent("recorded")
    try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("results/baseline/smoke"), to: folder)
    try Data("the run's report".utf8).write(to: folder.appendingPathComponent("report.md"))
    var manifest = OutputManifest(
      kind: "run", files: ["environment.json", "report.md", "samples.csv", "summary.csv"])
    try manifest.add([], in: folder)
    return folder.appendingPathComponent("report.md").path
  }

  /// Every text input re-saved with CRLF line ends (git's autocrlf, a spreadsheet): the example still ends as
  /// documented, never with a trap.
  func crlfInputs(_ values: [String: String]) throws {
    var files: [URL] = []
    if let run = values["{RUN}"] {
      let folder = URL(fileURLWithPath: run)
      files += try FileManager.default.contentsOfDirectory(atPath: run).filter { $0.hasSuffix(".csv") }.map {
        folder.appendingPathComponent($0)
      }
    }
    files += ["{SCENARIO}", "{PROFILE}", "{BUDGETS}"].compactMap { values[$0] }.map { URL(fileURLWithPath: $0) }
    for file in files {
      let text = try String(contentsOf: file, encoding: .utf8)
      try Data(
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n").utf8
      )
      .write(to: file)
    }
    #expect(!files.isEmpty)
    let result = try box.run(arguments(values, out: freshOutput))
    #expect(
      item.command.exampleExits.contains(result.status),
      "\(item): exit \(result.status): \(result.stderr.suffix(600))")
  }

  /// Run from a directory whose name is not UTF-8 (every path absolute): refused (64), nothing written anywhere.
  func nonUTF8Directory(_ values: [String: String]) throws {
    let bytes = Array((box.url.path + "/d").utf8) + [0xFF] + Array("x".utf8)
    let made = (bytes + [0]).withUnsafeBufferPointer { buffer in
      buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { mkdir($0, 0o755) }
    }
    try #require(made == 0)
    let before = sandboxState()
    let marker = "\u{1}DIR\u{1}"
    let status = try spawnRaw(
      ["-c", "cd \"$1\" || exit 99; shift; exec \"$@\"", "sh", marker, try storebenchBinary().path]
        + arguments(values, out: freshOutput), replacing: marker, with: bytes, executable: "/bin/sh")
    #expect(status == 64, "\(item): exit \(status)")
    #expect(sandboxState() == before, "\(item): the sandbox changed")
  }

  /// The command's children (every descendant) stopped once it is under way, then one SIGINT: it ends (130) within
  /// seconds, and none of its children is left.
  func stoppedChildren(_ values: [String: String]) throws {
    let process = try startUnderWay(values)
    var stopped: [pid_t: UInt64?] = [:]
    for _ in 0..<5 {
      for pid in Self.descendants(of: process.process.processIdentifier) where stopped[pid] == nil {
        stopped[pid] = ProcessTable.stat(of: pid)?.startTicks
        kill(pid, SIGSTOP)
      }
      usleep(100_000)
    }
    try #require(process.process.isRunning, "\(item): finished before it could be interrupted: \(process.stderr)")
    kill(process.process.processIdentifier, SIGINT)
    let sent = Date()
    let status = process.finish(within: 60)
    let seconds = Date().timeIntervalSince(sent)
    let left = stopped.filter { ProcessTable.isRunning($0.key, startTicks: $0.value) }.map(\.key)
    for pid in left { kill(pid, SIGKILL) }
    #expect(status == 130, "\(item): exit \(String(describing: status)): \(process.stderr.suffix(600))")
    #expect(seconds < 15, "\(item): the first SIGINT took \(seconds) s with \(stopped.count) children stopped")
    #expect(left.isEmpty, "\(item): children left running: \(left)")
  }

  /// Every descendant of `parent` (from /proc).
  static func descendants(of parent: pid_t) -> [pid_t] {
    let children = ChildDeadlineTests.children(of: parent)
    return children + children.flatMap { descendants(of: $0) }
  }

  /// A scenario whose workload file's schema attaches a database of the user's and drops its table: refused (64)
  /// before anything runs, the database untouched, nothing written.
  func sqlOutside(_ values: [String: String]) throws {
    let folder = try box.root.child("sql")
    let other = folder.appendingPathComponent("userapp.db").path
    let victim = try SQLiteConnection(path: other)
    try victim.execute("CREATE TABLE notes(id INTEGER)")
    try victim.close()
    try Data(
      SQLWorkloadTests.file(
        schema: "CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL, folder INTEGER NOT NULL); "
          + "ATTACH DATABASE '\(other)' AS u; DROP TABLE u.notes;"
      ).utf8
    ).write(to: folder.appendingPathComponent("t.yaml"))
    let scenario = folder.appendingPathComponent("scenario.yaml")
    try Data(
      "name: sql\nwarmup: 0\nrepetitions: 2\nbackends: [{backend: sqlite}]\nworkloads:\n  - sql: t.yaml\n".utf8
    ).write(to: scenario)
    var values = values
    values["{SCENARIO}"] = scenario.path
    let before = sandboxState()
    let result = try box.run(arguments(values, out: freshOutput))
    #expect(
      result.status == 64 && result.stderr.contains("ATTACH and DETACH are not allowed"),
      "\(item): exit \(result.status): \(result.stderr.suffix(400))")
    let check = try SQLiteConnection(path: other)
    defer { try? check.close() }
    #expect(try check.columnTexts("SELECT name FROM sqlite_master") == ["notes"], "\(item): the database changed")
    #expect(sandboxState() == before, "\(item): the sandbox changed")
  }
}
