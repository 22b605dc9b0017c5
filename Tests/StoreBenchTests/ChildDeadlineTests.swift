import Foundation
import StoreBenchMeasure
import Testing

/// Every wait on a child has a deadline: a child that was stopped (SIGSTOP) or hangs is killed at the repetition's
/// bound, or at the first SIGINT, and its row fails naming why — the command never waits on it forever.
@Suite("A stopped child costs its deadline, not the command", .serialized)
struct ChildDeadlineTests {
  /// The pids whose parent is `parent` (from /proc).
  static func children(of parent: Int32) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { pid in
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return false }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      return fields.count > 2 && Int32(fields[1]) == parent
    }
  }

  /// Starts a shared run whose app takes about 10 s, waits for its processes and stops them all.
  static func stoppedSharedRun(_ box: Sandbox, budget: Int) throws -> BackgroundRun {
    let run = try box.start([
      "run", "--backend", "sqlite", "--workload", "shared", "--size", "1000", "--param", "pause_us=10000",
      "--param", "stored=100", "--reps", "1", "--warmup", "0", "--budget", String(budget), "--out",
      box.url.appendingPathComponent("out").path, "--workdir", box.work.path, "--no-counters",
    ])
    let started = Date()
    var stopped: [Int32] = []
    while Date().timeIntervalSince(started) < 30 {
      let found = children(of: run.process.processIdentifier)
      if found.count >= 2 {
        Thread.sleep(forTimeInterval: 0.5)
        stopped = children(of: run.process.processIdentifier)
        for pid in stopped { kill(pid, SIGSTOP) }
        break
      }
      Thread.sleep(forTimeInterval: 0.1)
    }
    #expect(stopped.count >= 2, "the app and its extension started: \(run.stderr)")
    return run
  }

  @Test("a tool the environment asks (swift-frontend, git) that hangs costs its deadline, not the command")
  func machineFactsToolIsBounded() {
    let started = Date()
    #expect(MachineFacts.run(["sleep", "30"], seconds: 1) == nil)
    #expect(Date().timeIntervalSince(started) < 10)
    #expect(MachineFacts.run(["echo", "a"]) == "a\n")
  }

  @Test(
    "stopped app and extension processes: the run ends within its bound (budget_seconds), the row failed naming the kill"
  )
  func stoppedChildrenEndAtBound() throws {
    let box = try Sandbox()
    let started = Date()
    let run = try Self.stoppedSharedRun(box, budget: 8)
    let status = run.finish(within: 60)
    #expect(status == 1, "\(run.stderr.suffix(600))")
    #expect(Date().timeIntervalSince(started) < 40)
    // A stopped child is known for one after 5 s (its state in /proc), before its deadline.
    #expect(
      run.stderr.contains("was killed by storebench: it was stopped (SIGSTOP)"), "\(run.stderr.suffix(600))")
    #expect(box.leftovers().isEmpty, "\(box.leftovers())")
  }

  @Test("stopped app and extension processes: the first SIGINT ends the run (130) within seconds")
  func stoppedChildrenFirstSignal() throws {
    let box = try Sandbox()
    let run = try Self.stoppedSharedRun(box, budget: 600)
    Thread.sleep(forTimeInterval: 1)
    let sent = Date()
    kill(run.process.processIdentifier, SIGINT)
    #expect(run.finish(within: 30) == 130, "\(run.stderr.suffix(600))")
    #expect(Date().timeIntervalSince(sent) < 10)
    #expect(box.leftovers().isEmpty, "\(box.leftovers())")
  }

  @Test(
    "the first line of a child (a launch's timed wait) ends at the limit: a child stopped before it, or a stop's request; the lines after it are kept"
  )
  func firstLineBounded() throws {
    func child(_ script: String) throws -> ChildProcess {
      try ChildProcess(executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script])
    }
    let stopped = try child("kill -STOP $$; echo late")
    stopped.limit(seconds: 60) { false }
    try stopped.spawn()
    var started = Date()
    #expect(stopped.firstLine() == nil)
    #expect(Date().timeIntervalSince(started) < 10)
    #expect(stopped.wait().how.contains("it was stopped (SIGSTOP)"))

    let asked = Date().addingTimeInterval(0.5)
    let sleeping = try child("sleep 30; echo late")
    sleeping.limit(seconds: 60) { Date() > asked }
    try sleeping.spawn()
    started = Date()
    #expect(sleeping.firstLine() == nil)
    #expect(Date().timeIntervalSince(started) < 2)
    #expect(sleeping.wait().gaveUp == "the command was stopped by a signal")

    for limited in [true, false] {
      let talking = try child("echo one; echo two; echo three")
      if limited { talking.limit(seconds: 60) { false } }
      try talking.spawn()
      #expect(talking.firstLine() == "one")
      let outcome = talking.wait()
      #expect(outcome.remainingLines == ["two", "three"] && outcome.exitCode == 0, "\(outcome.remainingLines)")
    }
  }

  @Test(
    "verify-store's checking child stopped (SIGSTOP): the command fails (exit 1) within seconds naming it, never a 'corrupt' verdict, and leaves nothing"
  )
  func stoppedVerifyChild() throws {
    let box = try Sandbox()
    let store = try HardeningInputTests.sqliteStore(in: box, articles: 100_000)
    let run = try box.start(["verify-store", "--backend", "sqlite", "--workdir", box.work.path, store.path])
    let copy = box.work.path + "/storebench-verify-"
    var child: [String] = []
    #expect(
      run.wait {
        child = HardeningInputTests.processes(mentioning: copy)
        return !child.isEmpty
      }, "the checking child starts")
    for pid in child.compactMap(Int32.init) { kill(pid, SIGSTOP) }
    let started = Date()
    let status = run.finish(within: 60)
    for pid in child.compactMap(Int32.init) { kill(pid, SIGKILL) }
    #expect(status == 1, "\(run.stderr.suffix(600))")
    #expect(Date().timeIntervalSince(started) < 20)
    #expect(
      run.stderr.contains("verify-store's checking process was killed by storebench: it was stopped (SIGSTOP)"))
    #expect(!run.stderr.contains("corrupt"), "\(run.stderr.suffix(600))")
    #expect(box.leftovers().isEmpty, "\(box.leftovers())")
  }
}
