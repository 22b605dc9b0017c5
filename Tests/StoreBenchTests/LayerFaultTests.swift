import Foundation
import StoreBenchContract
import StoreBenchCore
import StoreBenchCrash
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The page-cache layer's server as a child like any other: every wait on it is bounded and ends on the first signal,
/// and what goes wrong with it is the harness's fault, named as such — never the model's verdict on a variant, never
/// the words of a machine without FUSE.
@Suite(
  "Page-cache layer faults: a stopped, killed or silent server", .serialized,
  .enabled(
    if: PageCacheMount.unavailableReason() == nil,
    "needs /dev/fuse and the permission to mount: \(PageCacheMount.unavailableReason() ?? "")"))
struct LayerFaultTests {
  /// A stand-in for the server: a shell script run as `page-cache-layer --mount DIR`.
  func fakeServer(_ body: String, in temp: TemporaryDirectory) throws -> URL {
    let script = temp.url.appendingPathComponent("server-\(UUID().uuidString).sh")
    try Data("#!/bin/sh\n\(body)\n".utf8).write(to: script)
    chmod(script.path, 0o755)
    return script
  }

  @Test("a server that never mounts: its exit, its own words, a signal's stop, and SIGSTOP each say what happened")
  func neverMounts() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    func mount(_ body: String, stop: @escaping () -> Bool = { false }) throws -> (any Error, Double) {
      let started = monotonicNanoseconds()
      do {
        _ = try PageCacheMount(
          executable: try fakeServer(body, in: temp), mountpoint: try temp.child("m-\(UUID().uuidString)"),
          stop: stop)
      } catch {
        return (error, Double(monotonicNanoseconds() - started) / 1e9)
      }
      Issue.record("\(body): mounted")
      throw CancellationError()
    }
    let (exited, _) = try mount("echo 'cannot start' >&2; exit 3")
    let harness = try #require(exited as? HarnessError)
    #expect(harness.part == .pageCacheLayer)
    #expect(harness.detail.contains("exited 3 before it mounted") && harness.detail.contains("cannot start"))
    #expect(!"\(exited)".contains("cannot be simulated here"))

    let (refused, _) = try mount("echo 'error mount: not allowed here'; sleep 5")
    #expect((refused as? PageCacheMount.Unavailable)?.reason.contains("error mount: not allowed here") == true)

    let asked = Date().addingTimeInterval(0.5)
    let (stopped, took) = try mount("sleep 60") { Date() > asked }
    #expect(stopped is CrashTrials.Stopped && took < 2, "\(stopped) after \(took) s")

    let (halted, seconds) = try mount("kill -STOP $$; sleep 60")
    let named = try #require(halted as? HarnessError)
    #expect(named.part == .pageCacheLayer && named.detail.contains("was stopped (SIGSTOP)"), "\(named)")
    #expect(seconds < 10, "gave up after \(seconds) s, not at the 15 s start limit")
  }

  /// `storebench crash` on one sqlite variant (enumerated power cuts), with `fault` done to the layer's server once
  /// it serves; then `signal` to the command (nil: none). Returns the exit, its stderr and how long it took after.
  func crash(_ fault: Int32, then signal: Int32?) throws -> (status: Int32, stderr: String, seconds: Double) {
    let box = try Sandbox()
    let scenario = box.url.appendingPathComponent("crash.yaml")
    try Data(
      """
      name: crash
      backends: [{backend: sqlite, variants: [{txn: single, journal: wal, sync: full}]}]
      workloads: [{workload: insert, parameters: {count: 50}}]
      """.utf8
    ).write(to: scenario)
    let out = box.url.appendingPathComponent("out")
    let run = try box.start([
      "crash", "--scenario", scenario.path, "--fault", "power-loss", "--trials", "1", "--batches", "200",
      "--out", out.path, "--workdir", box.work.path,
    ])
    // The server of this sandbox's store, once it runs.
    var server: pid_t?
    let deadline = Date().addingTimeInterval(120)
    while server == nil, run.process.isRunning, Date() < deadline {
      server =
        FolderGuardTests.processes(naming: "page-cache-layer --mount \(box.work.path)").compactMap {
          pid_t($0)
        }.first
      usleep(10_000)
    }
    let target = try #require(server, "no page-cache layer server appeared: \(run.stderr)")
    usleep(300_000)
    kill(target, fault)
    if let signal {
      usleep(1_000_000)
      kill(run.process.processIdentifier, signal)
    }
    let started = Date()
    let status = run.finish(within: 90)
    let seconds = Date().timeIntervalSince(started)
    if fault == SIGSTOP { kill(target, SIGKILL) }
    #expect(box.leftovers().isEmpty, "left \(box.leftovers())")
    #expect(PageCacheMount.listed().filter { $0.mountpoint.hasPrefix(box.url.path) }.isEmpty, "a mount is left")
    #expect(
      !FileManager.default.fileExists(atPath: out.appendingPathComponent("durability.csv").path),
      "a partial report was written")
    return (status ?? -1, run.stderr, seconds)
  }

  @Test("a stopped server and a Ctrl-C: crash stops at once (exit 130) and leaves no work directory, mount or image")
  func stoppedThenInterrupted() throws {
    let (status, stderr, seconds) = try crash(SIGSTOP, then: SIGINT)
    #expect(status == 130, "\(stderr.suffix(600))")
    #expect(seconds < 3, "the first SIGINT took \(seconds) s")
  }

  @Test("a stopped server and no signal: crash fails (exit 1) within seconds, naming the stopped server")
  func stoppedServer() throws {
    let (status, stderr, seconds) = try crash(SIGSTOP, then: nil)
    #expect(status == 1, "\(stderr.suffix(600))")
    #expect(stderr.contains("page-cache layer server (pid") && stderr.contains("was stopped (SIGSTOP)"))
    #expect(seconds < 30)
  }

  @Test("a server killed mid-variant is a harness fault (exit 1) naming it, not a not-modelled row")
  func killedServer() throws {
    let (status, stderr, _) = try crash(SIGKILL, then: nil)
    #expect(status == 1, "\(stderr.suffix(600))")
    #expect(stderr.contains("page-cache layer server (pid") && stderr.contains("killed by signal 9"), "\(stderr)")
    #expect(!stderr.contains("not-modelled"))
  }
}
