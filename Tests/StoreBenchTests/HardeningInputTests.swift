import Foundation
import StoreBenchBackends
import StoreBenchCore
import StoreBenchStandard
import Testing

/// Hostile and unusual input: refused with a clear message and exit 64, never a hang, never a miscount, and
/// nothing left in TMPDIR or the work directory (cases 7–12, 15 and 17–20 of the hardening issue; docs/TRUST.md).
@Suite("Hardening: never hang, never miscount, refuse what cannot be read")
struct HardeningInputTests {
  /// `levels` levels of mapping keys that are aliases of lists of aliases: each level multiplies the expansion by 9.
  static func aliasBomb(levels: Int) -> String {
    var yaml = "name: bomb\n? &b0 [x, x, x, x, x, x, x, x, x]\n: 1\n"
    for level in 1...levels {
      yaml += "? &b\(level) [" + Array(repeating: "*b\(level - 1)", count: 9).joined(separator: ", ") + "]\n: 1\n"
    }
    return yaml
  }

  @Test("7. a scenario whose keys are nested aliases is refused at once (64), before the parser expands anything")
  func aliasBombIsRefused() throws {
    let box = try Sandbox()
    let scenario = try box.root.file("bomb.yaml", Self.aliasBomb(levels: 9))
    let run = try box.start([
      "run", "--scenario", scenario, "--out", box.url.appendingPathComponent("out").path,
      "--workdir", box.work.path,
    ])
    let status = run.finish(within: 30)
    #expect(status == 64, "it must be refused, not time out: \(run.stderr)")
    #expect(run.stderr.contains("not supported in scenarios") && run.stderr.contains("line 2"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: box.url.appendingPathComponent("out").path))
    // Aliases anywhere, deep nesting and plain anchors are refused too; the parser is never reached.
    let parser = ScenarioParser(backends: .standard(), workloads: .standard)
    for text in [
      "name: a\nbackends: &x [{backend: memory}]\nworkloads: *x\n",
      "name: a\nx: " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "\n",
    ] {
      #expect(throws: ScenarioError.self) { try parser.parse(data: Data(text.utf8), file: "t.yaml") }
    }
  }

  @Test("8. verify-store on a FIFO store file is refused (64) at once; Ctrl-C and SIGKILL leave no work directory")
  func verifyStoreNeverBlocks() throws {
    let box = try Sandbox()
    let store = try box.root.child("store")
    #expect(mkfifo(store.appendingPathComponent("store.sqlite").path, 0o600) == 0)
    let run = try box.start(["verify-store", "--backend", "sqlite", "--workdir", box.work.path, store.path])
    let status = run.finish(within: 30)
    #expect(status == 64 && run.stderr.contains("is a FIFO"), "\(run.stderr)")
    #expect(box.leftovers().isEmpty, "\(box.leftovers())")

    // What a SIGKILL leaves is removed by the next command, whichever it is.
    let abandoned = try box.abandonedWorkDirectory(prefix: "storebench-verify-")
    try FileManager.default.removeItem(at: store.appendingPathComponent("store.sqlite"))
    try Data("not a database".utf8).write(to: store.appendingPathComponent("store.sqlite"))
    let next = try box.run(["verify-store", "--backend", "sqlite", "--workdir", box.work.path, store.path])
    #expect(next.status == 3 && next.stderr.contains("removed \(abandoned.path)"), "\(next.stderr)")
    #expect(box.leftovers().isEmpty, "\(box.leftovers())")
  }

  @Test("8. Ctrl-C during verify-store removes its private copy and exits 130")
  func verifyStoreInterrupted() throws {
    let box = try Sandbox()
    // Large enough that the check outlasts the signal by far: the test asks for 130, not "130 or done".
    let store = try Self.sqliteStore(in: box, articles: 100_000)
    let run = try box.start(["verify-store", "--backend", "sqlite", "--workdir", box.work.path, store.path])
    #expect(run.wait { !box.leftovers().isEmpty }, "the private copy appears")
    run.process.interrupt()
    let status = run.finish(within: 30)
    #expect(status == 130, "\(run.stderr)")
    #expect(box.leftovers().isEmpty, "\(box.leftovers())")
  }

  @Test("8. Ctrl-C while verify-store's checking child runs ends the child too, and leaves nothing")
  func verifyStoreInterruptedInChild() throws {
    let box = try Sandbox()
    let store = try Self.sqliteStore(in: box, articles: 100_000)
    let run = try box.start(["verify-store", "--backend", "sqlite", "--workdir", box.work.path, store.path])
    // The child's request (JSON, slashes maybe escaped) names the private copy in the sandbox's work directory.
    let copy = box.work.path + "/storebench-verify-"
    // Interrupted once the child has the copy open: left alone, it would then check on for a second or two.
    #expect(
      run.wait { Self.processes(mentioning: copy).contains { Self.hasOpen($0, named: "store.sqlite") } },
      "the checking child opens the copy")
    run.process.interrupt()
    #expect(run.finish(within: 30) == 130, "\(run.stderr)")
    // Killed with its parent, the child is gone within milliseconds.
    let deadline = Date().addingTimeInterval(0.5)
    while !Self.processes(mentioning: copy).isEmpty && Date() < deadline { usleep(10_000) }
    #expect(Self.processes(mentioning: copy).isEmpty, "the child outlived its parent")
    #expect(box.leftovers().isEmpty, "\(box.leftovers())")
  }

  /// A default-settings sqlite store of `articles` generated articles in the sandbox's `store` directory.
  static func sqliteStore(in box: Sandbox, articles: Int) throws -> URL {
    let store = try box.root.child("store")
    let sqlite = try #require(BackendRegistry.standard()["sqlite"])
    let writer = try sqlite.open(app: StoreLocation(directory: store, variant: try sqlite.variant([:])))
    try writer.load(articles: DatasetGenerator(seed: 7).articles(count: articles))
    try writer.close()
    return store
  }

  /// The pids of running processes (zombies aside) whose command line contains `text` (or `text` with its slashes
  /// escaped, as JSON writes them).
  static func processes(mentioning text: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return names.filter { name in
      guard Int32(name) != nil, Int32(name) != getpid(),
        let line = FileManager.default.contents(atPath: "/proc/\(name)/cmdline"), !line.isEmpty,
        let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
        !stat.contains(") Z ")
      else { return false }
      let command = String(decoding: line.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
      return command.contains(text) || command.contains(text.replacingOccurrences(of: "/", with: "\\/"))
    }
  }

  /// Whether process `pid` has a file open whose name ends with `name`.
  static func hasOpen(_ pid: String, named name: String) -> Bool {
    let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
    return fds.contains { fd in
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"))?.hasSuffix(name)
        == true
    }
  }

  @Test("9. --size with a repeated or an empty size is refused (64)")
  func sizeLists() throws {
    let box = try Sandbox()
    for sizes in ["5,5", "1,,2", "3,", "0"] {
      let result = try box.run([
        "run", "--backend", "memory", "--workload", "insert", "--size", sizes, "--dry-run",
      ])
      #expect(result.status == 64, "\(sizes): \(result.stderr)")
    }
  }

  @Test(
    "9. duplicated sample lines never inflate n: a samples.csv repeated 4× or with more repetitions than summary.csv is refused"
  )
  func duplicatedSamples() throws {
    let box = try Sandbox()
    let source = try String(contentsOfFile: HardeningOutputTests.even + "/samples.csv", encoding: .utf8)
    let lines = source.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    let repeated =
      ([lines[0]] + lines.dropFirst().flatMap { Array(repeating: $0, count: 4) }).joined(separator: "\r\n")
      + "\r\n"
    let file = try box.root.file("samples.csv", repeated)
    for current in [file, box.url.path] {
      let result = try box.run(["compare", HardeningOutputTests.even, current, "--allow-underpowered"])
      #expect(result.status == 1 && result.stderr.contains("appears twice"), "\(result.stderr)")
    }
    // More repetitions than summary.csv says: rows of another run, refused.
    let run = box.url.appendingPathComponent("run")
    #expect(
      try box.run(["run", "--scenario", try box.tinyScenario(), "--out", run.path, "--workdir", box.work.path])
        .status == 0)
    let samples = run.appendingPathComponent("samples.csv")
    var table = try CSVFormat.decode(String(contentsOf: samples, encoding: .utf8))
    let repetition = try #require(table.header.firstIndex(of: "repetition"))
    var extra = try #require(table.rows.last)
    extra[repetition] = "3"
    table.rows.append(extra)
    try CSVFormat.encode([table.header] + table.rows).write(to: samples)
    let more = try box.run(["compare", run.path, run.path, "--allow-underpowered"])
    #expect(more.status == 1 && more.stderr.contains("rows of another run"), "\(more.stderr)")
  }

  @Test("11. an --expect-checksum that is not 16 hex digits is refused (64), not reported lost")
  func checksumSyntax() throws {
    let box = try Sandbox()
    let store = try box.root.child("store")
    try Data().write(to: store.appendingPathComponent("store.sqlite"))
    for checksum in ["zz;rm -rf", "", "59a39d8ce7440dc", "59a39d8ce7440dc7a"] {
      let result = try box.run(["verify-store", "--backend", "sqlite", "--expect-checksum", checksum, store.path])
      #expect(
        result.status == 64 && result.stderr.contains("16 hexadecimal digits"), "\(checksum): \(result.stderr)")
    }
  }

  @Test(
    "12. work directories a SIGKILL left (crash trials, verify copies, overhead runs, runs) are removed by the next run"
  )
  func abandonedDirectoriesOfEveryCommand() throws {
    let box = try Sandbox()
    let left = try ["storebench-crash-", "storebench-verify-", "storebench-overhead-", "storebench-"].map {
      try box.abandonedWorkDirectory(prefix: $0)
    }
    let result = try box.run([
      "run", "--scenario", try box.tinyScenario(), "--out", box.url.appendingPathComponent("out").path,
      "--workdir", box.work.path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    for directory in left { #expect(result.stderr.contains("removed \(directory.path)")) }
    #expect(box.leftovers().isEmpty, "\(box.leftovers())")
  }

  @Test(
    "15. a run leaves nothing in TMPDIR (the toolchain's version comes from swift-frontend, which leaves no directory)"
  )
  func nothingInTMPDIR() throws {
    let box = try Sandbox()
    let result = try box.run([
      "run", "--scenario", try box.tinyScenario(), "--out", box.url.appendingPathComponent("out").path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(box.leftovers().isEmpty, "\(box.leftovers())")
  }

  @Test("17. a path argument that is not UTF-8 is refused (64), and no directory with U+FFFD in its name appears")
  func nonUTF8Paths() throws {
    let box = try Sandbox()
    let scenario = try box.tinyScenario()
    let binary = try storebenchBinary().path
    let before = box.root.tree()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    // The shell builds the raw bytes; Foundation's Process can only pass valid UTF-8.
    process.arguments = [
      "-c", "exec \"$0\" run --scenario \"$1\" --out \"$(printf 'out/bad\\377\\376name')\" 2>\"$2\"",
      binary, scenario, box.url.appendingPathComponent("err.txt").path,
    ]
    process.currentDirectoryURL = box.url
    process.environment = ["TMPDIR": box.tmp.path, "PATH": "/usr/bin:/bin"]
    try process.run()
    process.waitUntilExit()
    let stderr = (try? String(contentsOf: box.url.appendingPathComponent("err.txt"), encoding: .utf8)) ?? ""
    #expect(
      process.terminationStatus == 64 && stderr.contains("not valid UTF-8") && stderr.contains("\\xff\\xfe"),
      "\(stderr)")
    #expect(box.root.tree().filter { $0 != "err.txt" } == before)
  }

  @Test("18. --resume works from another working directory (the scenario path is recorded absolute)")
  func resumeFromElsewhere() throws {
    let box = try Sandbox()
    _ = try slowScenario(in: box.root, repetitions: 12)
    let out = box.url.appendingPathComponent("out")
    let run = try box.start(["run", "--scenario", "slow.yaml", "--out", "out", "--workdir", box.work.path])
    #expect(run.waitFor("[1/"))
    run.process.interrupt()
    #expect(run.finish() == 130, "\(run.stderr)")
    let elsewhere = try box.root.child("elsewhere")
    let resumed = try box.run(["run", "--resume", out.path, "--workdir", box.work.path], in: elsewhere)
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(box.leftovers().isEmpty)
  }

  @Test(
    "19. scenario names are read as written: nan, 1.5, 0x10, Infinity, null, yes",
    arguments: ["nan", "1.5", "0x10", "Infinity", "null", "yes"])
  func namesAreText(_ name: String) throws {
    let parser = ScenarioParser(backends: .standard(), workloads: .standard)
    let scenario = try parser.parse(
      data: Data("name: \(name)\nbackends: [{backend: memory}]\nworkloads: [{workload: insert}]\n".utf8),
      file: "t.yaml")
    #expect(scenario.name == name)
  }

  @Test("20. control characters from a scenario are escaped in messages, never sent raw to the terminal")
  func controlCharactersEscaped() throws {
    let box = try Sandbox()
    let scenario = try box.root.file(
      "evil.yaml",
      "name: \"x\\e]0;pwned\\a\\e[2J\"\nbackends: [{backend: memory}]\nworkloads: [{workload: insert}]\n")
    let result = try box.run(["run", "--scenario", scenario, "--dry-run"])
    #expect(result.status == 64)
    #expect(
      !result.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 },
      "raw escape in: \(result.stderr.debugDescription)")
    #expect(result.stderr.contains("\\u{1B}]0;pwned\\u{7}"), "\(result.stderr)")
    #expect("a\u{1B}b\u{9B}c\nd".escapingControlCharacters(keepingNewlines: true) == "a\\u{1B}b\\u{9B}c\nd")
  }

  @Test(
    "also: report and compare name a missing samples.csv; --scenario scenarios/smoke.yaml works from any directory")
  func missingFilesAreNamed() throws {
    let box = try Sandbox()
    let empty = try box.root.child("empty")
    let report = try box.run(["report", empty.path])
    #expect(
      report.status != 0 && report.stderr.contains("no samples.csv, summary.csv, environment.json"),
      "\(report.stderr)")
    let compare = try box.run(["compare", empty.path, empty.path])
    #expect(compare.status != 0 && compare.stderr.contains("no samples.csv"), "\(compare.stderr)")
    let bundled = try box.run(["run", "--scenario", "scenarios/smoke.yaml", "--dry-run"])
    #expect(bundled.status == 0, "\(bundled.stderr)")
    let missing = try box.run(["run", "--scenario", "scenarios/nope.yaml", "--dry-run"])
    #expect(
      missing.status == 64 && missing.stderr.contains("looked in") && missing.stderr.contains(box.url.path),
      "\(missing.stderr)")
  }
}
