import Foundation
import StoreBenchContract
import StoreBenchHistory
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `storebench history add|check|html` end to end, on synthetic run directories.
@Suite("History database")
struct HistoryDatabaseTests {
  /// Runs c000000NN… with one row each: `values[i]` is run i's median (its six repetitions spread ±1% around it).
  static func runs(_ values: [Double], in directory: TemporaryDirectory, offset: Int = 0) throws -> [String] {
    try values.enumerated().map { index, value in
      let number = index + offset
      let url = directory.url.appendingPathComponent(String(format: "run%02d", number))
      try writeSyntheticRun(
        in: url, commit: String(format: "c%08d", number), commitTime: number,
        rows: [("insert", value, [0.99, 0.995, 1, 1, 1.005, 1.01].map { $0 * value })])
      return url.path
    }
  }

  @Test("A re-added run is a no-op that says so; a directory that is not a run is refused (exit 1) naming the file")
  func idempotentAdd() throws {
    let directory = try TemporaryDirectory()
    let db = directory.url.appendingPathComponent("h.sqlite").path
    let run = try Self.runs([1], in: directory)[0]
    let first = try runStorebench(["history", "add", "--db", db, run])
    #expect(first.status == 0 && first.stdout.contains("added run 1"), "\(first)")
    let again = try runStorebench(["history", "add", "--db", db, run])
    #expect(
      again.status == 0 && again.stdout.contains("already in the history as run 1, nothing changed"), "\(again)")
    #expect(again.stdout.contains("1 runs, 1 rows, 6 samples"))
    #expect(
      !FileManager.default.fileExists(atPath: db + "-wal")
        && !FileManager.default.fileExists(atPath: db + "-shm"),
      "the history is closed: no WAL left beside it")
    let notARun = try runStorebench(["history", "add", "--db", db, directory.url.path])
    #expect(
      notARun.status == 1 && notARun.stderr.contains("storebench history add:")
        && notARun.stderr.contains("no samples.csv, summary.csv, environment.json"), "\(notARun)")
    let noFolder = try runStorebench(["history", "add", "--db", "/nonexistent/h.sqlite", run])
    #expect(noFolder.status == 64 && noFolder.stderr.contains("/nonexistent does not exist"), "\(noFolder)")
  }

  @Test(
    "--db never changes a file that is not a history (an app's SQLite database, a text file); check never creates one"
  )
  func foreignFilesUntouched() throws {
    let directory = try TemporaryDirectory()
    let run = try Self.runs([1], in: directory)[0]
    let app = directory.url.appendingPathComponent("app.sqlite")
    let create = Process()
    create.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    create.arguments = [
      "python3", "-c",
      "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table note(id)'); c.commit()",
      app.path,
    ]
    try create.run()
    create.waitUntilExit()
    let text = directory.url.appendingPathComponent("notes.txt")
    try Data("my notes\n".utf8).write(to: text)
    for file in [app, text] {
      let before = try Data(contentsOf: file)
      let refused = try runStorebench(["history", "add", "--db", file.path, run])
      #expect(
        refused.status == 64 && refused.stderr.contains("not a storebench history")
          && refused.stderr.contains("nothing was changed"), "\(refused)")
      #expect(try Data(contentsOf: file) == before)
      #expect(!FileManager.default.fileExists(atPath: file.path + "-wal"))
    }
    #expect(try Data(contentsOf: app).count > 0)
    // Devices, FIFOs and directories are refused before SQLite opens them: no journal is left beside them.
    let fifo = directory.url.appendingPathComponent("fifo")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    for (path, kind) in [
      ("/dev/null", "a character device"), (fifo.path, "a FIFO"), (directory.url.path, "a directory"),
    ] {
      let refused = try runStorebench(["history", "add", "--db", path, run])
      #expect(
        refused.status == 64 && refused.stderr.contains("\(path): \(kind), not a history file"), "\(refused)")
      #expect(!FileManager.default.fileExists(atPath: path + "-journal"), "\(path)-journal was left behind")
    }
    let missing = directory.url.appendingPathComponent("none.sqlite")
    let check = try runStorebench(["history", "check", "--db", missing.path])
    #expect(check.status == 1 && check.stderr.contains("no history here yet"), "\(check)")
    #expect(!FileManager.default.fileExists(atPath: missing.path))
  }

  @Test("Interrupted runs and runs with failed rows are refused (nothing added) unless --allow-partial")
  func partialRefused() throws {
    let directory = try TemporaryDirectory()
    let db = directory.url.appendingPathComponent("h.sqlite").path
    let good = try Self.runs([1], in: directory)[0]
    let interrupted = directory.url.appendingPathComponent("interrupted")
    let failed = directory.url.appendingPathComponent("failed")
    try writeSyntheticRun(in: interrupted, commit: "aaaa", rows: [("insert", 1, [1, 1])], interrupted: true)
    try writeSyntheticRun(
      in: failed, commit: "bbbb", commitTime: 1, rows: [("insert", 1, [1, 1])], status: "failed")
    for partial in [interrupted, failed] {
      let refused = try runStorebench(["history", "add", "--db", db, good, partial.path])
      // A run folder that cannot be added exits 1 from every reader of run folders (StoreBenchExit.for).
      #expect(refused.status == 1 && refused.stderr.contains("nothing added"), "\(refused)")
    }
    #expect(!FileManager.default.fileExists(atPath: db), "nothing was added, not even the good run")
    let allowed = try runStorebench([
      "history", "add", "--db", db, "--allow-partial", interrupted.path, failed.path,
    ])
    #expect(
      allowed.status == 0 && allowed.stdout.contains("partial: interrupted (SIGINT)")
        && allowed.stdout.contains("partial: 1 failed row(s)"), "\(allowed)")
  }

  @Test("Two concurrent adds from two processes both land, also on a history neither has created yet")
  func concurrentAdds() throws {
    let directory = try TemporaryDirectory()
    let runs = try Self.runs((1...10).map(Double.init), in: directory)
    for round in 0..<5 {
      let db = directory.url.appendingPathComponent("h\(round).sqlite").path
      let processes = try [runs[2 * round], runs[2 * round + 1]].map { run -> Process in
        let process = Process()
        process.executableURL = try storebenchBinary()
        process.arguments = ["history", "add", "--db", db, run]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(
          forWritingTo: URL(
            fileURLWithPath:
              try directory.file("stderr-\(round)-\(run.suffix(2))", "")))
        return process
      }
      for process in processes { try process.run() }
      for process in processes { process.waitUntilExit() }
      let errors = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter {
        $0.hasPrefix("stderr-\(round)")
      }
      .map { try String(contentsOfFile: directory.url.appendingPathComponent($0).path, encoding: .utf8) }
      #expect(processes.map(\.terminationStatus) == [0, 0], "round \(round): \(errors)")
      let database = try HistoryDatabase(path: db)
      defer { try? database.close() }
      #expect(
        try database.counts().runs == 2
          && database.runs().map(\.commit).sorted()
            == [2 * round, 2 * round + 1].map { String(format: "c%08d", $0) }
      )
    }
  }

  @Test(
    "check names an injected 20% step's first commit (exit 0), then a 40% slower newest commit exits 2; html draws both"
  )
  func injectedStep() throws {
    let directory = try TemporaryDirectory()
    let db = directory.url.appendingPathComponent("h.sqlite").path
    var gaussian = Gaussian(rng: SplitMix64(seed: 3))
    let values = (0..<20).map { index in (index >= 10 ? 1.2 : 1.0) * (1 + 0.03 * gaussian.next()) }
    let added = try runStorebench(["history", "add", "--db", db] + Self.runs(values, in: directory))
    #expect(added.status == 0, "\(added)")
    let check = try runStorebench(["history", "check", "--db", db])
    #expect(check.status == 0, "\(check)")
    #expect(check.stdout.contains("Step at c00000010 (after c00000009): 1 series moved"), "\(check.stdout)")
    #expect(
      check.stdout.contains("shows a step by chance (0.01 expected among the 1 time series scanned here)"),
      "\(check.stdout)")
    #expect(check.stdout.contains("Verdict: the newest commit is no regression; exit 0."))

    _ = try runStorebench(["history", "add", "--db", db] + Self.runs([1.2 * 1.4], in: directory, offset: 20))
    let regressed = try runStorebench(["history", "check", "--db", db])
    #expect(regressed.status == 2, "\(regressed)")
    #expect(
      regressed.stdout.contains("Newest commit c00000020") && regressed.stdout.contains("regressions: 1"),
      "\(regressed.stdout)")

    let page = directory.url.appendingPathComponent("page")
    let html = try runStorebench(["history", "html", "--db", db, page.path])
    #expect(html.status == 0, "\(html)")
    let text = try String(contentsOf: page.appendingPathComponent("index.html"), encoding: .utf8)
    #expect(text.contains("<h3>insert</h3>") && text.contains("step ×1.") && text.contains("c00000020"))
    #expect(text.contains("1 series regressed") && !text.contains("<script"))
    // The regressed point is ringed on its chart and named under it, with its ratio and the runs it was judged
    // against: the 10 since the step, not the 20 before it.
    #expect(
      text.contains("#1 regressed ×1.")
        && text.contains("newest commit c00000020: #1 memory [default] · 100 regressed ×1.")
        && text.contains("against 10 earlier runs"), "\(text)")
    let again = try runStorebench(["history", "html", "--db", db, page.path])
    #expect(
      again.status == 64 && again.stderr.contains("choose an empty or new directory, or pass --force"), "\(again)"
    )
    #expect(try runStorebench(["history", "html", "--db", db, "--force", page.path]).status == 0)
    let file = page.appendingPathComponent("index.html").path
    let notAFolder = try runStorebench(["history", "html", "--db", db, "--force", file])
    #expect(
      notAFolder.status == 64 && notAFolder.stderr.contains("is a regular file, not a directory"), "\(notAFolder)"
    )
  }

  @Test(
    "--machine (or STOREBENCH_MACHINE) joins runs from hosts whose names change into one series; without it each host is a machine of its own"
  )
  func namedMachine() throws {
    let directory = try TemporaryDirectory()
    var gaussian = Gaussian(rng: SplitMix64(seed: 5))
    // Ten CI jobs, each on a runner with a new host name and two kernels among them; the last one 30% slower.
    let runs = try (0..<10).map { (index: Int) -> String in
      let url = directory.url.appendingPathComponent(String(format: "run%02d", index))
      let value: Double = (index == 9 ? 1.3 : 1.0) * (1 + 0.02 * gaussian.next())
      try writeSyntheticRun(
        in: url, commit: String(format: "c%08d", index), commitTime: index, host: "runner-\(index)",
        rows: [("insert", value, [0.99, 1, 1.01].map { $0 * value })])
      return url.path
    }
    let plain = directory.url.appendingPathComponent("plain.sqlite").path
    #expect(try runStorebench(["history", "add", "--db", plain] + runs).status == 0)
    let apart = try runStorebench(["history", "check", "--db", plain])
    #expect(apart.status == 0 && apart.stdout.components(separatedBy: "\n## ").count == 11, "\(apart.stdout)")
    #expect(apart.stdout.contains("not enough history to judge the newest commit"))

    let named = directory.url.appendingPathComponent("named.sqlite").path
    let added = try runStorebench(
      ["history", "add", "--db", named] + runs, environment: ["STOREBENCH_MACHINE": "ci-4core"])
    #expect(added.status == 0 && added.stdout.contains("machine ci-4core, scenario synthetic"), "\(added)")
    let joined = try runStorebench(["history", "check", "--db", named])
    #expect(
      joined.status == 2 && joined.stdout.contains("## machine ci-4core (cpu, Linux, ext4)")
        && joined.stdout.contains("10 run(s)") && joined.stdout.contains("Its runs come from 10 hosts")
        && joined.stdout.contains("regressions: 1"), "\(joined.stdout)")
    let page = directory.url.appendingPathComponent("page")
    #expect(try runStorebench(["history", "html", "--db", named, page.path]).status == 0)
    let html = try String(contentsOf: page.appendingPathComponent("index.html"), encoding: .utf8)
    #expect(html.contains("<h2>synthetic on machine ci-4core</h2>") && html.contains("its runs come from 10 hosts"))

    // --machine wins over the variable; a blank name is bad input, and nothing is added.
    let other = directory.url.appendingPathComponent("other.sqlite").path
    let explicit = try runStorebench(
      ["history", "add", "--db", other, "--machine", "arm-runner", runs[0]],
      environment: ["STOREBENCH_MACHINE": "ci-4core"])
    #expect(explicit.status == 0 && explicit.stdout.contains("machine arm-runner,"), "\(explicit)")
    let blank = try runStorebench(["history", "add", "--db", other, "--machine", " ", runs[1]])
    #expect(blank.status == 64 && blank.stderr.contains("machine name"), "\(blank)")
    #expect(try HistoryDatabase(path: other, create: false).counts().runs == 1)
  }
}
