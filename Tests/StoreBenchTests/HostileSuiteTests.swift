import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore
import Testing

@testable import StoreBenchCommands

#if canImport(Glibc)
  import Glibc
#endif

/// The hostile suite: every command of storebench's tree (derived, never listed) against the hostile cases that fit
/// what it declares — its output a symlink, a device, a FIFO, one of its own inputs, a path over PATH_MAX or not
/// UTF-8, a folder of the user's files with and without --force; standard output on a full disk; SIGINT midway for
/// the long ones. A refusal exits 64 and changes nothing; nothing of storebench's is left in its temporary or work
/// directory. Cases run the debug binary in a sandbox of their own (docs/TRUST.md).
@Suite("Hostile suite: every command, every hostile case it can meet")
struct HostileSuiteTests {
  @Test("every command shown in --help has an example invocation (Exemplified), so the suite reaches it")
  func everyCommandIsExemplified() {
    let entries = CommandTree.entries(StoreBench.self)
    #expect(entries.count >= 14, "\(entries)")
    #expect(entries.filter { $0.example == nil }.map(\.description) == [])
    for entry in entries {
      for option in ["out", "csv", "db"] where entry.options.contains(option) {
        #expect(
          entry.example?.contains("{OUT}") == true || option == "db",
          "\(entry): declares --\(option) but its example writes nowhere the suite can aim")
      }
    }
  }

  @Test("a subcommand that exists only in the test target gets the hostile cases without the suite being edited")
  func newCommandIsCovered() {
    let cases = HostileCase.derive(ThrowawayRoot.self).filter { $0.command.path == ["throwaway"] }
    #expect(
      Set(cases.map(\.kind)) == [
        .exampleAndFullDisk, .symlink, .device, .fifo, .input, .longPath, .nonUTF8,
        .userFolder, .interrupt, .stoppedChildren, .crlfInputs, .nonUTF8Directory, .sqlOutside,
      ])
    #expect(cases.first?.command.hasForce == true)
    // And storebench's own commands are all there too.
    #expect(
      Set(HostileCase.derive(ThrowawayRoot.self).map(\.command.description))
        == Set(HostileCase.derive(StoreBench.self).map(\.command.description)).union(["throwaway"]))
  }

  @Test("storebench --help and --version on a full disk exit 1 (printed through the standard-output funnel)")
  func informationalOnFullDisk() throws {
    let runner = try HostileRunner(
      HostileCase(command: CommandTree.entries(StoreBench.self)[0], kind: .exampleAndFullDisk))
    for arguments in [["--help"], ["--version"], ["help", "run"]] {
      let full = try runner.runWithStandardOutput(atPath: "/dev/full", arguments)
      #expect(
        full.status == 1 && full.stderr.contains("cannot write to standard output"), "\(arguments): \(full)")
      #expect(try runStorebench(arguments).status == 0)
    }
  }

  @Test("a hostile case", arguments: HostileCase.derive(StoreBench.self))
  func hostile(_ item: HostileCase) throws {
    try HostileRunner(item).run()
  }
}

/// Runs one hostile case in a sandbox of its own.
struct HostileRunner {
  let item: HostileCase
  let box: Sandbox
  let inputs: URL

  init(_ item: HostileCase) throws {
    self.item = item
    box = try Sandbox()
    inputs = try box.root.child("inputs")
  }

  var example: [String] { item.command.example ?? [] }

  /// The placeholders but {OUT}, made in `inputs`.
  func fixtures() throws -> [String: String] {
    let slow = item.kind == .interrupt || item.kind == .stoppedChildren
    var values = [
      "{WORK}": box.work.path, "{BIN}": try storebenchBinary().path, "{SIZE}": slow ? "100000" : "300",
      "{TRIALS}": slow ? "300" : "2",
    ]
    if example.contains("{STORE}") {
      let store = try box.root.child("inputs/store")
      let descriptor = try #require(BackendRegistry.standard()["sqlite"])
      let opened = try descriptor.open(
        StoreLocation(directory: store, variant: try descriptor.variant([:])), as: (any ArticleStore).self)
      try opened.load(articles: DatasetGenerator(seed: 1).articles(count: 20))
      try opened.close()
      values["{STORE}"] = store.path
    }
    if example.contains("{SCENARIO}") {
      let path = inputs.appendingPathComponent("scenario.yaml")
      try Data(
        (slow
          ? """
          name: slow
          warmup: 0
          repetitions: 40
          backends: [{backend: sqlite, variants: [{txn: single, journal: wal, sync: normal}]}, {backend: memory}]
          workloads: [{workload: insert, parameters: {count: 3000}}]
          """
          : """
          name: tiny
          warmup: 0
          repetitions: 2
          backends: [{backend: memory}]
          workloads: [{workload: insert, parameters: {count: 50}}]
          """).utf8
      ).write(to: path)
      values["{SCENARIO}"] = path.path
    }
    if example.contains("{BUDGETS}") {
      let path = inputs.appendingPathComponent("budgets.yaml")
      try Data("budgets:\n  - {workload: insert, metric: p99_us, max: 10s}\n".utf8).write(to: path)
      values["{BUDGETS}"] = path.path
    }
    if example.contains("{PROFILE}") {
      values["{PROFILE}"] = try box.tinyProfile(in: inputs, trials: slow ? 40 : 1)
    }
    if example.contains("{RUN}") || example.contains("{DB}") {
      let run = inputs.appendingPathComponent("run")
      try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("results/baseline/smoke"), to: run)
      values["{RUN}"] = run.path
      if example.contains("{DB}") {
        let db = inputs.appendingPathComponent("history.sqlite")
        let added = try box.run(["history", "add", "--db", db.path, run.path])
        try #require(added.status == 0, "\(added.stderr)")
        values["{DB}"] = db.path
      }
    }
    return values
  }

  func arguments(_ values: [String: String], out: String) -> [String] {
    example.map { $0 == "{OUT}" ? out : (values[$0] ?? $0) }
  }

  /// A fresh output path of the command's shape.
  var freshOutput: String {
    box.url.appendingPathComponent(item.command.output == .file ? "out.file" : "out").path
  }

  /// The sandbox's own files (not the inputs, not stderr captures), to prove a refusal created nothing.
  func sandboxState() -> [String: Data] {
    Sandbox.snapshot(box.url).filter { !$0.key.hasPrefix("inputs") && !$0.key.hasPrefix("stderr-") }
  }

  func run() throws {
    let values = try fixtures()
    let inputsBefore = Sandbox.snapshot(inputs)
    switch item.kind {
    case .exampleAndFullDisk: try exampleAndFullDisk(values)
    case .interrupt: try interrupt(values)
    case .stoppedChildren: try stoppedChildren(values)
    case .crlfInputs: try crlfInputs(values)
    case .nonUTF8Directory: try nonUTF8Directory(values)
    case .sqlOutside: try sqlOutside(values)
    default: try refusal(values)
    }
    if item.kind.isOutputRefusal {
      #expect(Sandbox.snapshot(inputs) == inputsBefore, "\(item): an input changed")
    }
    #expect(box.leftovers().isEmpty, "\(item): left \(box.leftovers())")
  }

  /// The example works (its documented success), and the same with standard output on a full disk exits 1 when it
  /// prints anything (0 when it prints nothing): never a trap, never a success nobody could read.
  func exampleAndFullDisk(_ values: [String: String]) throws {
    let normal = try box.run(arguments(values, out: freshOutput))
    let allowed = item.command.exampleExits
    #expect(allowed.contains(normal.status), "\(item): the example exited \(normal.status): \(normal.stderr)")
    let full = try runWithStandardOutput(atPath: "/dev/full", arguments(values, out: freshOutput + "-2"))
    if normal.stdout.isEmpty {
      #expect(full.status == normal.status, "\(item): \(full.stderr)")
    } else {
      #expect(
        full.status == 1 && full.stderr.contains("cannot write to standard output"),
        "\(item): exit \(full.status): \(full.stderr)")
    }
    // Its help, too, goes through the standard-output funnel: on a full disk it is exit 1, never a silent 0.
    let help = try runWithStandardOutput(atPath: "/dev/full", item.command.path + ["--help"])
    #expect(
      help.status == 1 && help.stderr.contains("cannot write to standard output"),
      "\(item) --help: exit \(help.status): \(help.stderr)")
  }

  /// The example started, once it is under way: it said something on stderr (progress) and 1.5 s more passed.
  func startUnderWay(_ values: [String: String]) throws -> BackgroundRun {
    let process = try box.start(arguments(values, out: freshOutput))
    let started = Date()
    while process.stderr.isEmpty && process.process.isRunning && Date().timeIntervalSince(started) < 20 {
      usleep(20_000)
    }
    usleep(1_500_000)
    return process
  }

  /// SIGINT once the command is under way: exit 130, promptly.
  func interrupt(_ values: [String: String]) throws {
    let process = try startUnderWay(values)
    try #require(process.process.isRunning, "\(item): finished before it could be interrupted: \(process.stderr)")
    kill(process.process.processIdentifier, SIGINT)
    let status = process.finish(within: 120)
    #expect(status == 130, "\(item): exit \(String(describing: status)): \(process.stderr.suffix(600))")
  }

  /// A hostile output: refused with exit 64, nothing created, the target left as it was.
  func refusal(_ values: [String: String]) throws {
    let shape = item.command.output
    var runs: [[String]] = []
    var check: () -> Void = {}
    switch item.kind {
    case .symlink:
      let link = box.url.appendingPathComponent("link")
      let victim = box.url.appendingPathComponent("victim")
      if shape == .folder {
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: victim.appendingPathComponent("notes.txt"))
      } else {
        try Data("precious".utf8).write(to: victim)
      }
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)
      runs = [arguments(values, out: link.path)]
    case .device:
      let node = box.url.appendingPathComponent("node")
      // A private node of /dev/full (as root), never the system's own.
      guard mknod(node.path, S_IFCHR | 0o666, dev_t((1 << 8) | 7)) == 0 else {
        Issue.record("\(item): cannot make a device node here (not root?)")
        return
      }
      runs = [arguments(values, out: node.path)]
      check = {
        var info = stat()
        #expect(lstat(node.path, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
      }
    case .fifo:
      let fifo = box.url.appendingPathComponent("fifo")
      #expect(mkfifo(fifo.path, 0o600) == 0)
      runs = [arguments(values, out: fifo.path)]
      check = {
        var info = stat()
        #expect(lstat(fifo.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
      }
    case .input:
      let target: String
      if shape == .file {
        target =
          values["{RUN}"].map { $0 + "/summary.csv" } ?? values["{DB}"] ?? values["{SCENARIO}"] ?? values[
            "{PROFILE}"] ?? values["{BUDGETS}"]!
      } else {
        target = values["{RUN}"] ?? inputs.path
      }
      let base = arguments(values, out: target)
      runs = [base] + (item.command.hasForce ? [base + ["--force"]] : [])
    case .longPath:
      let long = box.url.path + "/" + String(repeating: "d/", count: Int(PATH_MAX) / 2 + 10) + "out"
      runs = [arguments(values, out: long)]
    case .nonUTF8:
      let status = try spawnRaw(
        arguments(values, out: "\u{1}BAD\u{1}"), replacing: "\u{1}BAD\u{1}",
        with: Array((box.url.path + "/bad").utf8) + [0xFF] + Array("out".utf8))
      #expect(status == 64, "\(item): exit \(status)")
    case .userFolder:
      let mine = try box.root.child("mine")
      for name in ["notes.txt", "report.md", "profile.yaml", "scenario.yaml", "index.html", "durability.csv"] {
        try Data("the user's \(name)".utf8).write(to: mine.appendingPathComponent(name))
      }
      try Data("{}".utf8).write(to: mine.appendingPathComponent("environment.json"))
      for folder in [".git", "charts", "run"] { _ = try box.root.child("mine/\(folder)") }
      try Data("ref: refs/heads/main\n".utf8).write(to: mine.appendingPathComponent(".git/HEAD"))
      try Data("{}".utf8).write(to: mine.appendingPathComponent("run/environment.json"))
      let base = arguments(values, out: mine.path)
      runs = [base] + (item.command.hasForce ? [base + ["--force"]] : [])
    case .recordedFile:
      runs = [arguments(values, out: try recordedFileTarget())]
    default:
      return
    }
    let before = sandboxState()
    for arguments in runs {
      let result = try box.run(arguments)
      #expect(
        result.status == 64,
        "\(item) \(arguments.last ?? ""): exit \(result.status): \(result.stderr.suffix(400))")
    }
    check()
    #expect(sandboxState() == before, "\(item): the sandbox changed")
  }

  /// Runs the binary with standard output on `path` (standard error captured).
  func runWithStandardOutput(atPath path: String, _ arguments: [String]) throws -> (status: Int32, stderr: String) {
    let process = Process()
    process.executableURL = try storebenchBinary()
    process.arguments = arguments
    process.currentDirectoryURL = box.url
    process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": box.tmp.path]) { $1 }
    let errURL = box.url.appendingPathComponent("stderr-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    process.standardOutput = FileHandle(forWritingAtPath: path)
    process.standardError = try FileHandle(forWritingTo: errURL)
    try process.run()
    process.waitUntilExit()
    return (process.terminationStatus, (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
  }

  /// Runs the binary with one argument replaced by raw bytes (Foundation's Process takes only valid strings).
  func spawnRaw(_ arguments: [String], replacing marker: String, with bytes: [UInt8], executable: String? = nil)
    throws -> Int32
  {
    let binary = try executable ?? storebenchBinary().path
    var owned: [UnsafeMutablePointer<CChar>?] = [strdup(binary)]
    for argument in arguments {
      if argument == marker {
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
        pointer[bytes.count] = 0
        owned.append(pointer)
      } else {
        owned.append(strdup(argument))
      }
    }
    owned.append(nil)
    defer { for pointer in owned { free(pointer) } }
    var environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": box.tmp.path]) { $1 }.map {
      strdup("\($0)=\($1)")
    }
    environment.append(nil)
    defer { for pointer in environment { free(pointer) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    // Every path argument is absolute: the child's working directory (the test's) does not matter.
    let started = posix_spawn(&pid, binary, &actions, nil, owned, environment)
    try #require(started == 0)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return (status >> 8) & 0xFF
  }
}
