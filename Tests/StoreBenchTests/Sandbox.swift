import Foundation
import Testing

/// A private corner of the disk for one hostile-input test: `root` (under /var/tmp, a real disk), its own TMPDIR
/// (`tmp`) and work directory (`work`), both of which must be empty again when the test ends: whatever storebench
/// leaves there, it left. Tests stay exact when the suite runs in parallel, since no two share a TMPDIR.
final class Sandbox {
  let root: TemporaryDirectory
  var url: URL { root.url }
  let tmp: URL
  let work: URL

  init() throws {
    root = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    tmp = try root.child("tmp")
    work = try root.child("work")
  }

  /// Runs storebench with the sandbox's TMPDIR, in `directory` (default: the sandbox).
  func run(_ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
    try runStorebench(arguments, in: directory ?? url, environment: ["TMPDIR": tmp.path])
  }

  /// Starts storebench in the background with the sandbox's TMPDIR.
  func start(_ arguments: [String], in directory: URL? = nil) throws -> BackgroundRun {
    try BackgroundRun(arguments, stderrIn: url, directory: directory ?? url, environment: ["TMPDIR": tmp.path])
  }

  /// What storebench left in the sandbox's TMPDIR and work directory.
  func leftovers() -> [String] {
    [tmp, work].flatMap { directory in
      ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).map {
        "\(directory.lastPathComponent)/\($0)"
      }
    }
  }

  /// A tiny scenario (memory backend, 50 inserts, 2 repetitions) in the sandbox; returns its path.
  func tinyScenario(_ name: String = "tiny.yaml") throws -> String {
    try root.file(
      name,
      """
      name: tiny
      warmup: 0
      repetitions: 2
      backends: [{backend: memory}]
      workloads: [{workload: insert, parameters: {count: 50}}]
      """)
  }

  /// A tiny app profile (300 records; sqlite WAL/NORMAL and memory; `trials` crash trials per fault) in the
  /// sandbox; returns its path.
  func tinyProfile(_ name: String = "profile.yaml", in folder: URL? = nil, trials: Int = 1) throws -> String {
    let path = (folder ?? url).appendingPathComponent(name)
    try Data(
      """
      name: tiny
      data: {records: 300, summary_bytes: 300}
      per_day: {save: 20, launch: 3}
      budgets: {save: {ms: 100}}
      durability: kill
      candidates: ["sqlite[txn=single,journal=wal,sync=normal]", "memory"]
      crash_trials: \(trials)
      run_seconds: 30
      """.utf8
    ).write(to: path)
    return path.path
  }

  /// Every file below `directory` with its bytes (symlinks as their target), to prove nothing changed.
  static func snapshot(_ directory: URL) -> [String: Data] {
    var result: [String: Data] = [:]
    let base = directory.path
    for case let relative as String in FileManager.default.enumerator(atPath: base)?.allObjects ?? [] {
      let path = base + "/" + relative
      if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
        result[relative] = Data("-> \(target)".utf8)
      } else {
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        result[relative] =
          isDirectory.boolValue
          ? Data("dir".utf8) : (FileManager.default.contents(atPath: path) ?? Data("?".utf8))
      }
    }
    return result
  }

  /// A directory that looks like what a killed storebench command left: `<prefix>XXXXXX` with an `.owner`
  /// record of a process that has ended.
  func abandonedWorkDirectory(prefix: String) throws -> URL {
    let dead = Process()
    dead.executableURL = URL(fileURLWithPath: "/bin/true")
    try dead.run()
    dead.waitUntilExit()
    let directory = work.appendingPathComponent(prefix + "Qw3rTy")
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("store"), withIntermediateDirectories: true)
    try Data("\(dead.processIdentifier) 12345".utf8).write(to: directory.appendingPathComponent(".owner"))
    return directory
  }
}

extension BackgroundRun {
  /// Waits until `condition` holds (or 60 s pass, or the process ends); returns whether it held.
  func wait(until condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline {
      if condition() { return true }
      if !process.isRunning { return condition() }
      usleep(5_000)
    }
    return false
  }

  /// Waits at most `seconds` for the process to end; kills it (SIGKILL) and returns nil when it does not.
  func finish(within seconds: Double) -> Int32? {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    guard !process.isRunning else {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      return nil
    }
    return process.terminationStatus
  }
}
