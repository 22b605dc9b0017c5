import Foundation
import StoreBenchCore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The failures "Safety by construction" found in `advise`, `history` and `export`, each reproduced and held by the
/// shared mechanism that fixed it (the hostile suite covers the rest by construction).
@Suite("Safety by construction: the failures found, held", .serialized)
struct SafetyRegressionTests {
  static func profile(in box: Sandbox, trials: Int = 1) throws -> String {
    try box.tinyProfile("small-\(trials).yaml", trials: trials)
  }

  @Test(
    "advise --dry-run writes its scenario only in a private directory: planted links at the old predictable name stay untouched"
  )
  func dryRunTemporaryFile() throws {
    let box = try Sandbox()
    let profile = try Self.profile(in: box)
    let victim = box.url.appendingPathComponent("victim.txt")
    try Data("precious".utf8).write(to: victim)
    // The old name was $TMPDIR/advise-<pid>.yaml: plant links for the next few hundred process ids.
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/bin/true")
    try probe.run()
    probe.waitUntilExit()
    let next = Int(probe.processIdentifier)
    for pid in next..<(next + 400) {
      try FileManager.default.createSymbolicLink(
        at: box.tmp.appendingPathComponent("advise-\(pid).yaml"), withDestinationURL: victim)
    }
    let result = try box.run(["advise", "--profile", profile, "--dry-run", "--workdir", box.work.path])
    #expect(result.status == 0 && result.stdout.contains("estimated duration"), "\(result.stderr)")
    #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
    let left = try FileManager.default.contentsOfDirectory(atPath: box.tmp.path)
    #expect(
      left.count == 400 && left.allSatisfy { $0.hasPrefix("advise-") },
      "only the planted links: \(left.filter { !$0.hasPrefix("advise-") })")
  }

  @Test(
    "advise --out DIR --force on a folder of the user's that holds a profile.yaml and a scenario.yaml: refused, nothing deleted"
  )
  func adviseForceKeepsUserFolder() throws {
    let box = try Sandbox()
    let project = try box.root.child("project")
    _ = try box.root.child("project/.git")
    _ = try box.root.child("project/src")
    try Data("ref: refs/heads/main\n".utf8).write(to: project.appendingPathComponent(".git/HEAD"))
    try Data("let x = 1\n".utf8).write(to: project.appendingPathComponent("src/main.swift"))
    try Data("notes".utf8).write(to: project.appendingPathComponent("NOTES.md"))
    try FileManager.default.copyItem(
      atPath: try Self.profile(in: box), toPath: project.appendingPathComponent("profile.yaml").path)
    try Data("name: mine\n".utf8).write(to: project.appendingPathComponent("scenario.yaml"))
    let before = Sandbox.snapshot(project)
    for profile in [project.appendingPathComponent("profile.yaml").path, try Self.profile(in: box)] {
      let result = try box.run([
        "advise", "--profile", profile, "--out", project.path, "--force", "--workdir", box.work.path,
      ])
      #expect(result.status == 64 && result.stderr.contains("not a storebench advise folder"), "\(result.stderr)")
      #expect(Sandbox.snapshot(project) == before)
    }
    #expect(box.leftovers().isEmpty)
  }

  @Test(
    "advise --force replaces only what a previous advise wrote, and Ctrl-C during its crash trials exits 130 with no answer"
  )
  func adviseForceAndInterrupt() throws {
    let box = try Sandbox()
    let out = box.url.appendingPathComponent("answer")
    let first = try box.run([
      "advise", "--profile", try Self.profile(in: box), "--out", out.path, "--workdir", box.work.path,
      "--no-crash",
    ])
    #expect(first.status == 0, "\(first.stderr)")
    try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))
    let manifest = try #require(try OutputManifest.read(in: out))
    #expect(
      manifest.kind == "advise"
        && Set(manifest.files) == ["advice.json", "advice.md", "profile.yaml", "run", "scenario.yaml"])

    let slow = try Self.profile(in: box, trials: 40)
    let run = try box.start(["advise", "--profile", slow, "--out", out.path, "--force", "--workdir", box.work.path])
    #expect(run.waitFor("kill live"), "the crash trials began: \(run.stderr)")
    kill(run.process.processIdentifier, SIGINT)
    #expect(run.finish(within: 60) == 130, "\(run.stderr.suffix(500))")
    #expect(run.stderr.contains("interrupted by SIGINT during the crash trials"))
    #expect(
      !FileManager.default.fileExists(atPath: out.appendingPathComponent("advice.md").path),
      "no answer from half the trials")
    #expect(
      try String(contentsOf: out.appendingPathComponent("notes.txt"), encoding: .utf8) == "mine",
      "the user's file stays")
    #expect(box.leftovers().isEmpty, "\(box.leftovers())")
  }

  @Test(
    "advise whose only candidate's row failed (the store filled up) exits 1, a run that failed — not 6, no strategy"
  )
  func adviseFailedRow() throws {
    let box = try Sandbox()
    let profile = try box.root.file(
      "full.yaml",
      """
      name: full
      data: {records: 20000, summary_bytes: 300}
      per_day: {save: 20}
      durability: kill
      candidates: ["lmdb[mapsize_mb=1]"]
      run_seconds: 30
      """)
    let out = box.url.appendingPathComponent("answer")
    let result = try box.run([
      "advise", "--profile", profile, "--out", out.path, "--workdir", box.work.path, "--no-crash",
    ])
    #expect(
      result.status == 1 && result.stderr.contains("failed row(s)") && result.stderr.contains("MDB_MAP_FULL"),
      "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("advice.md").path))
    #expect(box.leftovers().isEmpty)
  }

  @Test(
    "history: --db \"\" is bad input; html with a missing history leaves no folder; a foreign WAL database gets no -wal/-shm; another GRDB app's database is refused"
  )
  func historyDatabaseRefusals() throws {
    let box = try Sandbox()
    let run = try RunFolderTests.copyOfRun(in: box.root)
    let empty = try box.run(["history", "add", "--db", "", run.path])
    #expect(
      empty.status == 64 && empty.stderr.contains("--db is empty") && !empty.stdout.contains("added"), "\(empty)")

    let page = box.url.appendingPathComponent("page")
    let missing = try box.run([
      "history", "html", "--db", box.url.appendingPathComponent("none.sqlite").path, page.path,
    ])
    #expect(missing.status == 1 && !FileManager.default.fileExists(atPath: page.path), "\(missing.stderr)")

    func sqlite(_ path: URL, _ script: String) throws {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = [
        "python3", "-c",
        "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit(); c.close()",
        path.path, script,
      ]
      try process.run()
      process.waitUntilExit()
    }
    let wal = box.url.appendingPathComponent("wal.sqlite")
    try sqlite(wal, "PRAGMA journal_mode=WAL; CREATE TABLE note(id); INSERT INTO note VALUES (1);")
    let grdb = box.url.appendingPathComponent("grdb.sqlite")
    try sqlite(
      grdb,
      "CREATE TABLE grdb_migrations(identifier TEXT NOT NULL PRIMARY KEY); INSERT INTO grdb_migrations VALUES ('v1');"
    )
    for database in [wal, grdb] {
      let before = try Data(contentsOf: database)
      let refused = try box.run(["history", "add", "--db", database.path, run.path])
      #expect(refused.status == 64 && refused.stderr.contains("not a storebench history"), "\(refused.stderr)")
      #expect(try Data(contentsOf: database) == before)
      #expect(
        !FileManager.default.fileExists(atPath: database.path + "-wal")
          && !FileManager.default.fileExists(atPath: database.path + "-shm"))
    }
    #expect(box.leftovers().isEmpty)
  }

  @Test(
    "history html --force on a trend page folder from before manifests replaces its page and keeps the data beside it; a lone index.html of the user's is refused"
  )
  func legacyPageFolder() throws {
    let box = try Sandbox()
    let run = try RunFolderTests.copyOfRun(in: box.root)
    let db = box.url.appendingPathComponent("h.sqlite").path
    #expect(try box.run(["history", "add", "--db", db, run.path]).status == 0)
    let page = try box.root.child("page")
    try Data("<!doctype html>\n<html lang=en><head><meta charset=utf-8><title>storebench history</title>\n".utf8)
      .write(to: page.appendingPathComponent("index.html"))
    try Data("the committed history".utf8).write(to: page.appendingPathComponent("history.sqlite.gz"))
    try Data("check".utf8).write(to: page.appendingPathComponent("check.txt"))
    let forced = try box.run(["history", "html", "--db", db, "--force", page.path])
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(
      try String(contentsOf: page.appendingPathComponent("history.sqlite.gz"), encoding: .utf8)
        == "the committed history")
    #expect(
      try String(contentsOf: page.appendingPathComponent("index.html"), encoding: .utf8).contains(
        OutputMarks.pageGenerator))

    let mine = try box.root.child("mine")
    try Data("<html><body>my page</body></html>".utf8).write(to: mine.appendingPathComponent("index.html"))
    let refused = try box.run(["history", "html", "--db", db, "--force", mine.path])
    #expect(refused.status == 64 && refused.stderr.contains("OUT_DIR"), "\(refused.stderr)")
    #expect(
      try String(contentsOf: mine.appendingPathComponent("index.html"), encoding: .utf8)
        == "<html><body>my page</body></html>")
  }

  @Test("history check shows a run's control characters escaped, never sends them to the terminal")
  func checkEscapes() throws {
    let temp = try TemporaryDirectory()
    let db = temp.url.appendingPathComponent("h.sqlite").path
    let run = temp.url.appendingPathComponent("run")
    try writeSyntheticRun(
      in: run, commit: "c1", host: "evil\u{1B}[2J\u{1B}]0;owned\u{07}", rows: [("insert", 1, [1, 1, 1])])
    #expect(try runStorebench(["history", "add", "--db", db, run.path]).status == 0)
    let check = try runStorebench(["history", "check", "--db", db])
    #expect(
      check.status == 0 && !check.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 },
      "\(check.stdout)")
  }

  @Test(
    "a work tree whose removal was cut short (no owner record left) is removed by the next command after a minute")
  func interruptedRemoval() throws {
    let temp = try TemporaryDirectory()
    let stale = temp.url.appendingPathComponent("storebench-AbC123.removing/.retired/store")
    try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
    let fresh = temp.url.appendingPathComponent("storebench-XyZ789.removing")
    try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
    let old = Date().addingTimeInterval(-120)
    try FileManager.default.setAttributes(
      [.modificationDate: old], ofItemAtPath: stale.deletingLastPathComponent().deletingLastPathComponent().path)
    let removed = WorkDirectory.removeAbandoned(in: temp.url)
    #expect(removed.map { URL(fileURLWithPath: $0).lastPathComponent } == ["storebench-AbC123.removing"])
    #expect(FileManager.default.fileExists(atPath: fresh.path), "one that may still be being removed stays")
  }
}
