import Foundation
import StoreBenchCore
import Testing

/// A storebench process running in the background, its stderr in a file.
final class BackgroundRun {
  let process = Process()
  let stderrURL: URL

  init(
    _ arguments: [String], stderrIn directory: URL, directory workingDirectory: URL = packageRoot,
    environment: [String: String] = [:]
  ) throws {
    stderrURL = directory.appendingPathComponent("stderr-\(UUID().uuidString).txt")
    _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
    process.executableURL = try storebenchBinary()
    process.arguments = arguments
    process.currentDirectoryURL = workingDirectory
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: stderrURL)
    try process.run()
  }

  var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

  /// Waits until stderr contains `text` (or the process ends, or 60 s pass); returns whether it appeared.
  func waitFor(_ text: String) -> Bool {
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline {
      if stderr.contains(text) { return true }
      if !process.isRunning { return stderr.contains(text) }
      usleep(20_000)
    }
    return false
  }

  func finish() -> Int32 {
    process.waitUntilExit()
    return process.terminationStatus
  }
}

/// A scenario whose run takes a few seconds: fixed repetitions of small inserts on two backends.
func slowScenario(in temp: TemporaryDirectory, repetitions: Int = 40) throws -> String {
  try temp.file(
    "slow.yaml",
    """
    name: slow
    warmup: 0
    repetitions: \(repetitions)
    backends: [{backend: sqlite, variants: [{txn: single, journal: wal, sync: normal}]}, {backend: memory}]
    workloads: [{workload: insert, parameters: {count: 3000}}, {workload: uid-set, parameters: {stored: 2000}}]
    """)
}

@Suite("A run owns its output", .serialized)
struct RunOwnershipTests {
  func quickRun(_ temp: TemporaryDirectory, out: URL, extra: [String] = []) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    let scenario = try temp.file(
      "quick.yaml",
      """
      name: tiny
      warmup: 0
      repetitions: 2
      backends: [{backend: memory}]
      workloads: [{workload: insert, parameters: {count: 50}}]
      """)
    return try runStorebench(
      ["run", "--scenario", scenario, "--out", out.path, "--workdir", temp.url.path] + extra)
  }

  @Test(
    "a non-empty --out is refused and left alone; --force removes what storebench wrote there (its manifest), never the user's files"
  )
  func nonEmptyOutput() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let out = temp.url.appendingPathComponent("out")
    #expect(try quickRun(temp, out: out).status == 0)
    #expect(try runStorebench(["report", out.path]).status == 0, "report.md and classes.csv join the manifest")
    // Files a person put there, under names storebench also uses: not in the manifest, so not storebench's.
    try FileManager.default.createDirectory(
      at: out.appendingPathComponent("charts"), withIntermediateDirectories: true)
    try Data("old".utf8).write(to: out.appendingPathComponent("durability.csv"))
    try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))
    let before = try Data(contentsOf: out.appendingPathComponent("samples.csv"))

    let refused = try quickRun(temp, out: out)
    #expect(
      refused.status == 64 && refused.stderr.contains("is not empty") && refused.stderr.contains("--force"),
      "\(refused.stderr)")
    #expect(try Data(contentsOf: out.appendingPathComponent("samples.csv")) == before)

    let forced = try quickRun(temp, out: out, extra: ["--force"])
    #expect(forced.status == 0, "\(forced.stderr)")
    let names = Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
    #expect(
      names == [
        "samples.csv", "summary.csv", "summary.json", "environment.json", ".storebench-manifest.json",
        "notes.txt", "charts", "durability.csv",
      ], "\(names)")
    #expect(try String(contentsOf: out.appendingPathComponent("durability.csv"), encoding: .utf8) == "old")
    let manifest = try #require(try OutputManifest.read(in: out))
    #expect(
      manifest.files == ["environment.json", "samples.csv", "summary.csv", "summary.json"], "\(manifest.files)")
  }

  @Test("a second run into the same --out refuses while the first runs, and the first one's report is whole")
  func concurrentRun() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let out = temp.url.appendingPathComponent("out")
    let scenario = try slowScenario(in: temp, repetitions: 6)
    let first = try BackgroundRun(
      ["run", "--scenario", scenario, "--out", out.path, "--workdir", temp.url.path],
      stderrIn: temp.url)
    #expect(first.waitFor("[1/"))
    let second = try runStorebench(["run", "--scenario", scenario, "--out", out.path, "--workdir", temp.url.path])
    #expect(
      second.status == 64 && second.stderr.contains("another storebench run is writing to"), "\(second.stderr)")
    #expect(first.finish() == 0, "\(first.stderr)")
    let samples = try CSVFormat.decode(
      String(contentsOf: out.appendingPathComponent("samples.csv"), encoding: .utf8))
    #expect(samples.rows.count == 4 * 6 && samples.rows.allSatisfy { $0.count == samples.header.count })
  }

  @Test(
    "a planted symlink among a run's files is removed with the run, never written through; compare --csv at a symlink is refused"
  )
  func plantedSymlinks() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let out = temp.url.appendingPathComponent("out")
    let victim = temp.url.appendingPathComponent("victim.txt")
    try Data("precious".utf8).write(to: victim)
    #expect(try quickRun(temp, out: out).status == 0, "a run to replace")
    for name in ["samples.csv", "samples.csv.partial", "summary.csv"] {
      try? FileManager.default.removeItem(at: out.appendingPathComponent(name))
      try FileManager.default.createSymbolicLink(at: out.appendingPathComponent(name), withDestinationURL: victim)
    }
    let run = try quickRun(temp, out: out, extra: ["--force"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
    let csv = temp.url.appendingPathComponent("findings.csv")
    try FileManager.default.createSymbolicLink(at: csv, withDestinationURL: victim)
    let compared = try runStorebench(["compare", out.path, out.path, "--csv", csv.path, "--allow-underpowered"])
    #expect(compared.status == 64 && compared.stderr.contains("is a symlink"), "\(compared.stderr)")
    #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
    #expect(
      (try? FileManager.default.destinationOfSymbolicLink(atPath: csv.path)) == victim.path,
      "the link is left as it was")
  }

  @Test(
    "SIGINT stops after the current repetition, publishes the completed rows marked interrupted, removes the work directory and exits 130; --resume finishes the run"
  )
  func interruptAndResume() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let out = temp.url.appendingPathComponent("out")
    let work = temp.url.appendingPathComponent("work")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let scenario = try slowScenario(in: temp)
    let run = try BackgroundRun(
      ["run", "--scenario", scenario, "--out", out.path, "--workdir", work.path],
      stderrIn: temp.url)
    #expect(run.waitFor("[1/"))
    usleep(1_500_000)
    run.process.interrupt()
    #expect(run.finish() == 130, "\(run.stderr)")
    #expect(
      run.stderr.contains("interrupted by SIGINT") && run.stderr.contains("storebench run --resume \(out.path)"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty, "work directory left behind")
    let environment = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: out.appendingPathComponent("environment.json"))) as? [String: Any])
    #expect((environment["interrupted"] as? String)?.hasPrefix("SIGINT") == true)
    let partial = try CSVFormat.decode(
      String(contentsOf: out.appendingPathComponent("samples.csv"), encoding: .utf8))
    #expect(partial.rows.count >= 8 && partial.rows.count < 4 * 40)
    let gate = try runStorebench(["compare", out.path, out.path])
    #expect(
      gate.status == 1 && gate.stderr.contains("interrupted"), "an interrupted run is not a result to gate on")

    let resumed = try runStorebench(["run", "--resume", out.path, "--workdir", work.path])
    #expect(resumed.status == 0, "\(resumed.stderr)")
    let full = try CSVFormat.decode(String(contentsOf: out.appendingPathComponent("samples.csv"), encoding: .utf8))
    #expect(full.rows.count == 4 * 40)
    #expect(Array(full.rows.prefix(partial.rows.count)) == partial.rows, "the completed rows are kept as they were")
    let summary = try CSVFormat.decode(
      String(contentsOf: out.appendingPathComponent("summary.csv"), encoding: .utf8))
    let n = summary.header.firstIndex(of: "n")!
    #expect(summary.rows.allSatisfy { $0[n] == "40" })
    let again = try runStorebench(["run", "--resume", out.path, "--workdir", work.path])
    #expect(again.status == 64 && again.stderr.contains("was not interrupted"), "\(again.stderr)")
  }

  @Test("crash interrupted keeps the variants it finished in durability.csv and exits 130")
  func crashKeepsFinishedVariants() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let scenario = try temp.file(
      "crash.yaml",
      """
      name: crash
      backends: [{backend: sqlite, variants: [{txn: single, journal: wal, sync: normal}]}, {backend: lmdb}, {backend: gdbm}]
      workloads: [{workload: insert}]
      """)
    let out = temp.url.appendingPathComponent("out")
    let run = try BackgroundRun(
      [
        "crash", "--fault", "kill", "--scenario", scenario, "--kills", "40", "--batch", "10", "--max-delay-ms",
        "20",
        "--out", out.path, "--workdir", temp.url.path,
      ], stderrIn: temp.url)
    #expect(run.waitFor("sqlite [txn=single"))
    run.process.interrupt()
    #expect(run.finish() == 130, "\(run.stderr)")
    #expect(
      run.stderr.contains("interrupted by SIGINT: 1 of 3 variants finished") || run.stderr.contains("2 of 3"),
      "\(run.stderr)")
    let table = try CSVFormat.decode(
      String(contentsOf: out.appendingPathComponent("durability.csv"), encoding: .utf8))
    #expect(table.rows.first?.first == "sqlite" && (1...2).contains(table.rows.count))
  }

  @Test("a work directory left by a dead storebench process is removed and reported at the next start")
  func abandonedWorkDirectories() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let dead = Process()
    dead.executableURL = URL(fileURLWithPath: "/bin/true")
    try dead.run()
    dead.waitUntilExit()
    let abandoned = temp.url.appendingPathComponent("storebench-AbCd12")
    try FileManager.default.createDirectory(
      at: abandoned.appendingPathComponent("round0-case0"), withIntermediateDirectories: true)
    try Data("\(dead.processIdentifier) 12345".utf8).write(to: abandoned.appendingPathComponent(".owner"))
    let foreign = temp.url.appendingPathComponent("storebench-XyZ789")
    try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
    let result = try quickRun(temp, out: temp.url.appendingPathComponent("out"))
    #expect(result.status == 0)
    #expect(result.stderr.contains("removed \(abandoned.path)"))
    #expect(!FileManager.default.fileExists(atPath: abandoned.path))
    #expect(FileManager.default.fileExists(atPath: foreign.path), "a directory without an owner record is not ours")
  }
}
