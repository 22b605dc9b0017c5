import Foundation
import StoreBenchCore
import Testing

/// Errors name what failed: a system call through the one funnel (``SystemError``: call, path, errno), and a
/// failure of the harness as the harness's (``HarnessError``), never as "inconsistent store".
@Suite("Errors name what failed")
struct ErrorFunnelTests {
  @Test("SystemError names the call, the path and errno; check retries EINTR and throws on -1")
  func systemError() throws {
    let error = SystemError("open", path: "/nonexistent/x", code: ENOENT)
    #expect(error.description == "open /nonexistent/x: No such file or directory (errno 2)")
    #expect(throws: SystemError("mkdir", path: "/proc/x", code: ENOENT)) {
      try SystemError.check("mkdir", path: "/proc/x") { mkdir("/proc/x/y", 0o700) }
    }
    #expect(try SystemError.check("getpid") { getpid() } == getpid())
  }

  @Test("a child that cannot start and a request that cannot be read are harness failures, not store errors")
  func harnessFailures() throws {
    let child = try ChildProcess(executable: URL(fileURLWithPath: "/nonexistent/storebench"), arguments: [])
    do {
      try child.spawn()
      Issue.record("spawned a nonexistent executable")
    } catch {
      let text = "\(error)"
      #expect(
        text.hasPrefix("child process: posix_spawn /nonexistent/storebench: No such file or directory"),
        "\(text)")
      #expect(!text.contains("inconsistent store"))
    }
    #expect(throws: HarnessError.self) { try ChildRequest(argument: "{not json") }
  }

  @Test("a started child is registered until collected, so an exit at once on a signal kills it; the layer is not")
  func liveChildren() throws {
    let child = try ChildProcess(executable: URL(fileURLWithPath: "/bin/sleep"), arguments: ["30"])
    try child.spawn()
    let pid = child.processIdentifier
    #expect(pid > 0 && LiveChildren.contains(pid))
    let outcome = child.killAndWait()
    #expect(outcome.killedBySignal && outcome.signal == SIGKILL)
    #expect(!LiveChildren.contains(pid) && child.processIdentifier == 0)
    // A child that ends itself when its input closes (the page-cache layer) is left to do so.
    let server = try ChildProcess(executable: URL(fileURLWithPath: "/bin/cat"), arguments: [], input: true)
    server.killedWhenParentExitsAtOnce = false
    try server.spawn()
    #expect(!LiveChildren.contains(server.processIdentifier))
    #expect(server.wait().exitCode == 0)
  }

  @Test(
    "\"inconsistent store\" is thrown only where a store's content is wrong: backends, the data model, the cache, the C baselines"
  )
  func storeErrorsOnlyForStores() throws {
    let allowed = [
      "Sources/StoreBenchBackends/", "Sources/StoreBenchContract/Model/", "Sources/StoreBenchCore/Cache/",
      "Sources/StoreBenchOverhead/CBaseline.swift",
    ]
    let sources = packageRoot.appendingPathComponent("Sources")
    var offenders: [String] = []
    for case let relative as String in FileManager.default.enumerator(atPath: sources.path)?.allObjects ?? []
    where relative.hasSuffix(".swift") {
      let path = "Sources/" + relative
      let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
      if text.contains("StoreError.inconsistent(") && !allowed.contains(where: { path.hasPrefix($0) }) {
        offenders.append(path)
      }
    }
    #expect(offenders.isEmpty, "\(offenders)")
  }
}
