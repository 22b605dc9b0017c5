import Foundation
import StoreBenchCore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The output funnel's folder rules that are not one hostile case of every command: a folder of another kind named
/// as such, a recorded sub-folder (`charts/`) with a manifest of its own, a read-only run folder's report, and `ab`'s
/// rounds in a process group of their own.
@Suite("Folder guards: another kind's folder, charts/, a read-only report, ab's Ctrl-C", .serialized)
struct FolderGuardTests {
  func quickRun(_ box: Sandbox, out: URL) throws -> (status: Int32, stdout: String, stderr: String) {
    try box.run(["run", "--scenario", try box.tinyScenario(), "--out", out.path, "--workdir", box.work.path])
  }

  @Test("a folder whose manifest names another kind is refused by that kind's name, --force or not")
  func foreignKind() throws {
    let box = try Sandbox()
    let out = box.url.appendingPathComponent("advice")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    try Data("mine".utf8).write(to: out.appendingPathComponent("advice.md"))
    var manifest = OutputManifest(kind: "advise", files: ["advice.md"])
    try manifest.add([], in: out)
    let before = Sandbox.snapshot(out)
    let forced = try box.run([
      "run", "--scenario", try box.tinyScenario(), "--out", out.path, "--workdir", box.work.path, "--force",
    ])
    #expect(forced.status == 64)
    #expect(
      forced.stderr.contains("is a storebench advise folder (its .storebench-manifest.json says so)"),
      "\(forced.stderr)")
    #expect(!forced.stderr.contains("no storebench manifest"))
    #expect(Sandbox.snapshot(out) == before)
  }

  @Test(
    "charts/ recorded with record-output gets a manifest of its own: --force keeps a user's file there (refused), removes the charts without one"
  )
  func chartsFolder() throws {
    let box = try Sandbox()
    let run = box.url.appendingPathComponent("run")
    #expect(try quickRun(box, out: run).status == 0)
    #expect(try box.run(["record-output", run.path, "charts"]).status == 0)
    let charts = try box.root.child("run/charts")
    try Data("png".utf8).write(to: charts.appendingPathComponent("overview.png"))
    let recorded = try box.run(["record-output", charts.path, "overview.png"])
    #expect(recorded.status == 0, "\(recorded.stderr)")
    #expect(try OutputManifest.read(in: charts)?.files == ["overview.png"])
    // A folder its parent's manifest does not list is not storebench's.
    let stray = try box.root.child("run/stray")
    #expect(try box.run(["record-output", stray.path, "x.png"]).status == 64)

    try Data("my notes".utf8).write(to: charts.appendingPathComponent("notes.txt"))
    let kept = try quickRun(box, out: run, force: true)
    #expect(kept.status == 64 && kept.stderr.contains("charts/notes.txt"), "\(kept.stderr)")
    #expect(FileManager.default.fileExists(atPath: charts.appendingPathComponent("notes.txt").path))

    try FileManager.default.removeItem(at: charts.appendingPathComponent("notes.txt"))
    #expect(try quickRun(box, out: run, force: true).status == 0)
    #expect(!FileManager.default.fileExists(atPath: charts.path))
    #expect(FileManager.default.fileExists(atPath: stray.path), "a folder no manifest lists stays")
  }

  func quickRun(_ box: Sandbox, out: URL, force: Bool) throws -> (status: Int32, stdout: String, stderr: String) {
    try box.run([
      "run", "--scenario", try box.tinyScenario(), "--out", out.path, "--workdir", box.work.path, "--force",
    ])
  }

  @Test("report on a read-only run folder prints the summary, says report.md could not be written, and exits 1")
  func readOnlyReport() throws {
    let box = try Sandbox()
    let run = box.url.appendingPathComponent("run")
    #expect(try quickRun(box, out: run).status == 0)
    let before = Sandbox.snapshot(run)
    // A read-only bind mount of the folder in a mount namespace of the command's own (root ignores modes).
    let script =
      "mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro \"$1\" && exec \"$2\" report \"$1\""
    let (status, printed, said) = try runProgram(
      URL(fileURLWithPath: "/usr/bin/unshare"),
      ["-m", "sh", "-c", script, "sh", run.path, try storebenchBinary().path])
    #expect(status == 1, "\(said)")
    #expect(printed.contains("| insert |"), "the summary is printed: \(printed)")
    #expect(said.contains("cannot be written") && said.contains("report.md"), "\(said)")
    #expect(Sandbox.snapshot(run) == before)
  }

  @Test(
    "ab: a SIGINT reaches the round's whole process group, once: behind a wrapper script (kill to ab alone) and from a terminal (kill to ab's group), the round stops after its repetition and records it was interrupted"
  )
  func abProcessGroup() throws {
    for (wrapped, toGroup) in [(true, false), (false, true)] {
      try interruptAB(wrapped: wrapped, toGroup: toGroup)
    }
  }

  /// Starts `ab` in a process group of its own (a shell's foreground job), its baseline binary behind a shell
  /// script that does not `exec` when `wrapped`; SIGINT to ab (or to its group) once round 1 is under way.
  func interruptAB(wrapped: Bool, toGroup: Bool) throws {
    let box = try Sandbox()
    let scenario = box.url.appendingPathComponent("slow.yaml")
    try Data(
      """
      name: slow
      warmup: 0
      repetitions: 100
      backends: [{backend: sqlite, variants: [{txn: single, journal: wal, sync: normal}]}]
      workloads: [{workload: insert, parameters: {count: 30000}}]
      """.utf8
    ).write(to: scenario)
    let binary = try storebenchBinary().path
    var baseline = binary
    if wrapped {
      baseline = box.url.appendingPathComponent("wrapped-storebench").path
      try Data("#!/bin/sh\n\"\(binary)\" \"$@\"\n".utf8).write(to: URL(fileURLWithPath: baseline))
      chmod(baseline, 0o755)
    }
    let out = box.url.appendingPathComponent("ab")
    let log = box.url.appendingPathComponent("stderr-ab.txt")
    let arguments = [
      binary, "ab", "--baseline-binary", baseline, "--current-binary", binary, "--scenario", scenario.path,
      "--rounds", "2", "--reps-per-round", "100", "--warmup", "0", "--allow-underpowered", "--out", out.path,
      "--workdir", box.work.path,
    ]
    let argv = arguments.map { strdup($0) } + [nil]
    let variables = ProcessInfo.processInfo.environment.merging(["TMPDIR": box.tmp.path]) { $1 }.map {
      strdup("\($0)=\($1)")
    }
    let envp = variables + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var actions = posix_spawn_file_actions_t()
    var attributes = posix_spawnattr_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawnattr_init(&attributes)
    defer {
      posix_spawn_file_actions_destroy(&actions)
      posix_spawnattr_destroy(&attributes)
    }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)
    var pid: pid_t = 0
    try #require(posix_spawn(&pid, binary, &actions, &attributes, argv, envp) == 0)
    func said() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
    let started = Date()
    while !said().contains("[1/100]") && Date().timeIntervalSince(started) < 60 { usleep(50_000) }
    usleep(1_000_000)
    kill(toGroup ? -pid : pid, SIGINT)
    var status: Int32 = 0
    let deadline = Date().addingTimeInterval(120)
    while waitpid(pid, &status, WNOHANG) == 0 {
      if Date() > deadline { kill(-pid, SIGKILL) }
      usleep(20_000)
    }
    let label = wrapped ? "behind a wrapper" : "from a terminal"
    #expect((status >> 8) & 0xFF == 130 && status & 0x7F == 0, "\(label): \(said().suffix(600))")
    let round = out.appendingPathComponent("rounds/baseline-1")
    let environment = try #require(
      FileManager.default.contents(atPath: round.appendingPathComponent("environment.json").path),
      "\(label): the round wrote nothing")
    let object = try #require(try JSONSerialization.jsonObject(with: environment) as? [String: Any])
    #expect(object["interrupted"] != nil, "\(label): the round heard one signal: \(object.keys)")
    #expect(Self.processes(naming: out.path).isEmpty, "\(label): a round still runs")
    #expect(box.leftovers().isEmpty, "\(label): \(box.leftovers())")
  }

  /// The pids of running processes whose command line contains `text`.
  static func processes(naming text: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { entry in
      guard Int(entry) != nil, let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else {
        return false
      }
      return String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self).contains(text)
    }
  }
}
