import Foundation
import StoreBenchCore
import Testing

/// A report file named by its path never replaces a file a storebench folder owns: the manifest, or anything a
/// manifest lists, in the target's folder or above it, whatever the command read.
@Suite("A report never replaces a folder's own files")
struct StandaloneOutputTests {
  /// A copy of a committed advise folder (its own manifest, and `run/` with another).
  static func advised(in temp: TemporaryDirectory) throws -> URL {
    let folder = temp.url.appendingPathComponent("advice")
    try FileManager.default.copyItem(
      at: packageRoot.appendingPathComponent("results/example/advice-widget"), to: folder)
    try? FileManager.default.removeItem(at: folder.appendingPathComponent("again"))
    return folder
  }

  @Test(
    "check --summary, compare --csv and --summary, export --out onto a run's summary.json, its manifest or a file of a recorded folder: refused (64), the file unchanged; beside them: written"
  )
  func ownFilesRefused() throws {
    let temp = try TemporaryDirectory()
    let advice = try Self.advised(in: temp)
    let run = advice.appendingPathComponent("run")
    let budgets = try temp.file(
      "budgets.yaml", "budgets:\n  - {name: saves, workload: insert, metric: syncs_per_op, max: 1000}\n")
    let targets = [
      run.appendingPathComponent("summary.json"), run.appendingPathComponent(".storebench-manifest.json"),
      advice.appendingPathComponent("advice.json"), run.appendingPathComponent("charts/overview.png"),
    ]
    for target in targets {
      let before = try Data(contentsOf: target)
      for arguments in [
        ["check", "--budgets", budgets, run.path, "--summary", target.path],
        ["compare", run.path, run.path, "--csv", target.path],
        ["compare", run.path, run.path, "--summary", target.path],
        ["export", run.path, "--format", "bmf", "--out", target.path],
      ] {
        let result = try runStorebench(arguments)
        #expect(result.status == 64, "\(arguments.joined(separator: " ")): \(result.stderr)")
        #expect(result.stderr.contains("is a file of the storebench folder"), "\(result.stderr)")
        #expect(try Data(contentsOf: target) == before, "\(target.path) changed")
      }
    }
    // A file no manifest lists, in the same folder, is the user's to write.
    let beside = run.appendingPathComponent("my-export.json")
    let written = try runStorebench(["export", run.path, "--format", "bmf", "--out", beside.path])
    #expect(written.status == 0, "\(written.stderr)")
    #expect(FileManager.default.fileExists(atPath: beside.path))
  }

  @Test(
    "--force on a folder whose recorded run/ holds a user's file: refused before anything is removed, naming the file; without it, the previous output goes"
  )
  func forceKeepsForeignFiles() throws {
    let temp = try TemporaryDirectory()
    let advice = try Self.advised(in: temp)
    let mine = advice.appendingPathComponent("run/my-notes.txt")
    try Data("mine".utf8).write(to: mine)
    #expect(throws: RunOutput.Refusal.self) {
      let claim = try RunOutput(advice, existing: .replace, kind: .advise)
      claim.release()
    }
    do {
      let claim = try RunOutput(advice, existing: .replace, kind: .advise)
      claim.release()
    } catch {
      #expect("\(error)".contains("run/my-notes.txt") && "\(error)".contains("nothing was removed"), "\(error)")
    }
    #expect(FileManager.default.fileExists(atPath: mine.path))
    #expect(FileManager.default.fileExists(atPath: advice.appendingPathComponent("run/summary.csv").path))
    try FileManager.default.removeItem(at: mine)
    let claim = try RunOutput(advice, existing: .replace, kind: .advise)
    defer { claim.release() }
    try claim.removePrevious()
    #expect(!FileManager.default.fileExists(atPath: advice.appendingPathComponent("run").path))
  }

  @Test(
    "from a working directory whose name is not UTF-8, a command that would resolve a relative path is refused (64) and writes nowhere, not into a U+FFFD sibling"
  )
  func nonUTF8WorkingDirectory() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let binary = try storebenchBinary().path
    // The directory is made and entered by the shell, by bytes: Foundation would spell its path with U+FFFD.
    let script =
      #"d="$(printf 'd\377x')"; mkdir "$d" && cd "$d" && "$1" run --backend memory --workload insert "#
      + #"--size 10 --reps 1 --out o --no-counters; echo "exit=$?"; echo "inside=$(ls -A | wc -l)""#
    let (_, stdout, stderr) = try runProgram(
      URL(fileURLWithPath: "/bin/sh"), ["-c", script, "sh", binary], in: temp.url)
    #expect(stdout.contains("exit=64"), "\(stdout)\(stderr)")
    #expect(stderr.contains("is not valid UTF-8"), "\(stderr)")
    // Only the directory the shell made: nothing published beside it, nothing inside it.
    let names = try FileManager.default.contentsOfDirectory(atPath: temp.url.path)
    #expect(names.count == 1, "\(names)")
    #expect(stdout.contains("inside=0"), "\(stdout)")
  }
}
