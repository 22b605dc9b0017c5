import Foundation
import SQLiteAPI
import StoreBenchCore
import Testing

/// Hostile and unusual outputs: storebench never overwrites what is not a report of its own, and a refusal or a
/// signal leaves nothing behind (cases 1–6, 13, 14 and 16 of the hardening issue; docs/TRUST.md lists them).
@Suite("Hardening: never overwrite what is not ours, leave nothing behind")
struct HardeningOutputTests {
  static let even = packageRoot.appendingPathComponent("Tests/Fixtures/split-even").path
  static let odd = packageRoot.appendingPathComponent("Tests/Fixtures/split-odd").path

  @Test("1. compare --csv at a device node, a FIFO or a directory is refused (64) and the node stays what it was")
  func reportTargetsAreRegularFiles() throws {
    let box = try Sandbox()
    let fifo = box.url.appendingPathComponent("fifo")
    let directory = try box.root.child("dir")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    var targets = [(fifo, S_IFIFO), (directory, S_IFDIR)]
    // The issue's own case, /dev/full, reproduced on a private node (as root) rather than the system's.
    let device = box.url.appendingPathComponent("full")
    if mknod(device.path, S_IFCHR | 0o666, dev_t((1 << 8) | 7)) == 0 { targets.append((device, S_IFCHR)) }
    for (target, type) in targets {
      let result = try box.run(["compare", Self.even, Self.odd, "--csv", target.path, "--allow-underpowered"])
      #expect(
        result.status == 64 && result.stderr.contains("writes reports only to regular files"),
        "\(target.lastPathComponent): \(result.stderr)")
      var info = stat()
      #expect(
        lstat(target.path, &info) == 0 && info.st_mode & S_IFMT == type,
        "\(target.lastPathComponent) was replaced")
      #expect(result.stdout.isEmpty, "nothing is reported before the refusal")
    }
    #expect(box.leftovers().isEmpty)
  }

  @Test("5. compare --csv naming one of its own inputs is refused (64) and the input is unchanged")
  func compareDoesNotOverwriteItsInput() throws {
    let box = try Sandbox()
    let copy = box.url.appendingPathComponent("A")
    try FileManager.default.copyItem(atPath: Self.even, toPath: copy.path)
    let before = Sandbox.snapshot(copy)
    try FileManager.default.createSymbolicLink(
      atPath: box.url.appendingPathComponent("link").path, withDestinationPath: copy.path)
    for target in [
      "A/samples.csv", "./A/../A/samples.csv", "link/samples.csv",
      box.url.appendingPathComponent("A/samples.csv").path,
    ] {
      let result = try box.run(["compare", "A", Self.odd, "--csv", target])
      #expect(result.status == 64 && result.stderr.contains("is the input"), "\(target): \(result.stderr)")
    }
    #expect(Sandbox.snapshot(copy) == before)
  }

  @Test("2. verify-store copies a symlinked store's contents: the real killed WAL store is byte-identical after")
  func verifyStoreFollowsSymlinksIntoACopy() throws {
    let box = try Sandbox()
    let live = try box.root.child("live")
    let real = try box.root.child("real")
    let linked = try box.root.child("linked")
    // A killed WAL writer's store: the files as they are on disk while the writer still has them open.
    let connection = try SQLiteConnection(path: live.appendingPathComponent("store.sqlite").path)
    try connection.execute("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0")
    try connection.execute("CREATE TABLE t(x); INSERT INTO t VALUES (randomblob(30000)), (randomblob(10000))")
    for name in ["store.sqlite", "store.sqlite-wal", "store.sqlite-shm"] {
      try FileManager.default.copyItem(
        at: live.appendingPathComponent(name), to: real.appendingPathComponent(name))
    }
    try connection.close()
    try FileManager.default.createSymbolicLink(
      at: linked.appendingPathComponent("store.sqlite"),
      withDestinationURL: real.appendingPathComponent("store.sqlite"))
    let before = Sandbox.snapshot(real)
    #expect(before.count == 3)
    for settings in ["journal=wal sync=normal", "default"] {
      let result = try box.run([
        "verify-store", "--backend", "sqlite", "--settings", settings, "--workdir", box.work.path, linked.path,
      ])
      // The copy holds store.sqlite alone (the -wal files were not linked), so the check reads it as it is.
      #expect([0, 3].contains(result.status), "\(settings): \(result.stderr)")
      #expect(Sandbox.snapshot(real) == before, "\(settings): the real store changed")
    }
    #expect(box.leftovers().isEmpty, "\(box.leftovers())")
  }

  @Test(
    "3. run --force on a directory that never held a run is refused, and a scenario inside --out is never removed")
  func forceReplacesOnlyARun() throws {
    let box = try Sandbox()
    let mine = try box.root.child("mine")
    try Data("my notes".utf8).write(to: mine.appendingPathComponent("report.md"))
    try Data("a,b\n1,2\n".utf8).write(to: mine.appendingPathComponent("samples.csv"))
    try FileManager.default.createDirectory(
      at: mine.appendingPathComponent("charts"), withIntermediateDirectories: true)
    let before = Sandbox.snapshot(mine)
    let scenario = try box.tinyScenario()
    let refused = try box.run([
      "run", "--scenario", scenario, "--out", mine.path, "--force", "--workdir", box.work.path,
    ])
    #expect(refused.status == 64 && refused.stderr.contains("is not a storebench run"), "\(refused.stderr)")
    #expect(Sandbox.snapshot(mine) == before)

    // A previous run in --out, and the scenario being run saved there: as a file of the user's (not in the
    // manifest) it is never removed, so the run goes ahead; as report.md that `report` wrote (in the manifest),
    // --force would remove it, so the run is refused.
    let out = box.url.appendingPathComponent("out")
    #expect(
      try box.run(["run", "--scenario", scenario, "--out", out.path, "--workdir", box.work.path]).status == 0)
    let mineInside = out.appendingPathComponent("my-scenario.yaml")
    try FileManager.default.copyItem(atPath: scenario, toPath: mineInside.path)
    let kept = try box.run([
      "run", "--scenario", mineInside.path, "--out", out.path, "--force", "--workdir", box.work.path,
    ])
    #expect(kept.status == 0, "\(kept.stderr)")
    #expect(FileManager.default.contents(atPath: mineInside.path) == FileManager.default.contents(atPath: scenario))
    #expect(try box.run(["report", out.path]).status == 0)
    let inside = out.appendingPathComponent("report.md")
    let handle = try FileHandle(forWritingTo: inside)  // the same file (inode), now holding the scenario
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: try Data(contentsOf: URL(fileURLWithPath: scenario)))
    try handle.close()
    let again = try box.run([
      "run", "--scenario", inside.path, "--out", out.path, "--force", "--workdir", box.work.path,
    ])
    #expect(again.status == 64 && again.stderr.contains("is an input of this command"), "\(again.stderr)")
    #expect(FileManager.default.contents(atPath: inside.path) == FileManager.default.contents(atPath: scenario))
    #expect(box.leftovers().isEmpty)
  }

  @Test("4. --out \"\" is refused (64) with or without --force; nothing in the current directory changes")
  func emptyOutput() throws {
    let box = try Sandbox()
    let here = try box.root.child("here")
    try Data("mine".utf8).write(to: here.appendingPathComponent("report.md"))
    try FileManager.default.createDirectory(
      at: here.appendingPathComponent("charts"), withIntermediateDirectories: true)
    let before = Sandbox.snapshot(here)
    let scenario = try box.tinyScenario()
    for extra in [[], ["--force"]] {
      let result = try box.run(
        ["run", "--scenario", scenario, "--out", "", "--workdir", box.work.path] + extra, in: here)
      #expect(result.status == 64 && result.stderr.contains("--out is empty"), "\(result.stderr)")
      #expect(Sandbox.snapshot(here) == before)
    }
    let crash = try box.run(["crash", "--scenario", scenario, "--out", "", "--workdir", box.work.path], in: here)
    #expect(crash.status == 64 && crash.stderr.contains("--out is empty"), "\(crash.stderr)")
    #expect(Sandbox.snapshot(here) == before && box.leftovers().isEmpty)
  }

  @Test(
    "6. crash --out: new, empty, a run's folder (its crash results join the run's, nothing of the run changes) or (with --force) a crash run's own; a folder of loose files is refused"
  )
  func crashOutputIsItsOwn() throws {
    let box = try Sandbox()
    let scenario = try box.tinyScenario()
    let run = box.url.appendingPathComponent("run")
    #expect(
      try box.run(["run", "--scenario", scenario, "--out", run.path, "--workdir", box.work.path]).status == 0)
    let runFiles = ["samples.csv", "summary.csv", "summary.json", "environment.json"]
    let before = Sandbox.snapshot(run).filter { runFiles.contains($0.key) }
    for force in [false, true] {
      let result = try box.run(
        [
          "crash", "--scenario", scenario, "--fault", "kill", "--trials", "1", "--out", run.path,
          "--workdir", box.work.path,
        ] + (force ? ["--force"] : []))
      #expect(result.status == 0, "force=\(force): \(result.stderr)")
      #expect(
        Sandbox.snapshot(run).filter { runFiles.contains($0.key) } == before,
        "the run's own files are unchanged")
      let manifest = try #require(try OutputManifest.read(in: run))
      #expect(
        manifest.kind == "run" && manifest.files.contains("durability.csv")
          && manifest.files.contains("durability.environment.json"), "\(manifest)")
    }
    let loose = try box.root.child("loose")
    try Data("backend,variant\nmine,1\n".utf8).write(to: loose.appendingPathComponent("durability.csv"))
    for force in [false, true] {
      let before = Sandbox.snapshot(loose)
      let result = try box.run(
        [
          "crash", "--scenario", scenario, "--fault", "kill", "--trials", "1", "--out", loose.path,
          "--workdir", box.work.path,
        ] + (force ? ["--force"] : []))
      #expect(result.status == 64 && result.stderr.contains("is not a storebench crash run"), "\(result.stderr)")
      #expect(Sandbox.snapshot(loose) == before)
    }
    #expect(box.leftovers().isEmpty)
  }

  @Test("13. a refused run (non-empty --out) leaves no .storebench.lock; a finished run leaves none either")
  func refusedRunLeavesNoLock() throws {
    let box = try Sandbox()
    let out = try box.root.child("out")
    try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))
    let scenario = try box.tinyScenario()
    let refused = try box.run(["run", "--scenario", scenario, "--out", out.path, "--workdir", box.work.path])
    #expect(refused.status == 64)
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["notes.txt"])
    let fresh = box.url.appendingPathComponent("fresh")
    #expect(
      try box.run(["run", "--scenario", scenario, "--out", fresh.path, "--workdir", box.work.path]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: fresh.appendingPathComponent(".storebench.lock").path))
    #expect(box.leftovers().isEmpty)
  }

  @Test("14. an --out too long for the system is refused (64) before any of its directories is made")
  func overlongOutput() throws {
    let box = try Sandbox()
    let scenario = try box.tinyScenario()
    let long =
      box.url.appendingPathComponent("deep").path
      + String(repeating: "/" + String(repeating: "d", count: 200), count: 21)
    let before = box.root.tree()
    let result = try box.run(["run", "--scenario", scenario, "--out", long, "--workdir", box.work.path])
    #expect(result.status == 64 && result.stderr.contains("paths are limited"), "\(result.stderr)")
    let name = box.url.appendingPathComponent(String(repeating: "n", count: 300)).path
    let named = try box.run(["run", "--scenario", scenario, "--out", name, "--workdir", box.work.path])
    #expect(named.status == 64 && named.stderr.contains("names are limited"), "\(named.stderr)")
    #expect(box.root.tree() == before)
  }

  @Test("16. a second SIGINT exits at once and leaves no staging directory, lock or work directory")
  func doubleInterrupt() throws {
    let box = try Sandbox()
    let out = box.url.appendingPathComponent("out")
    let scenario = try slowScenario(in: box.root)
    let run = try box.start(["run", "--scenario", scenario, "--out", out.path, "--workdir", box.work.path])
    #expect(run.waitFor("[1/"))
    run.process.interrupt()
    usleep(50_000)
    run.process.interrupt()
    let status = run.finish(within: 60)
    #expect(status == 130, "\(run.stderr)")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
    #expect(!names.contains { $0.hasPrefix(".staging-") || $0 == ".storebench.lock" }, "\(names)")
    #expect(box.leftovers().isEmpty, "\(box.leftovers())")
  }
}
