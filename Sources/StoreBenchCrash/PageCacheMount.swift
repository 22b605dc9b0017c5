import Foundation
import StoreBenchCore

#if canImport(Glibc)
  import Glibc
#endif

/// The power-loss page-cache model mounted at `mountpoint` for one trial: a `storebench page-cache-layer` child
/// serving an in-memory FUSE file system that logs every change (see docs/POWER-LOSS.md and `PageCacheLayer.h`).
///
/// ``unmount()`` (also run by `deinit`) asks the server to quit and waits for it; the server also unmounts when its
/// input ends, so a parent that dies (even by SIGKILL) leaves no mount behind. A server killed itself leaves a dead
/// mount, which ``removeStale()`` finds and detaches at the next start.
public final class PageCacheMount {
  public let mountpoint: URL
  private let server: ChildProcess
  private var mounted = true
  private let stop: () -> Bool
  private var serverPID: pid_t = 0

  /// The layer cannot run here: `reason` says why (no `/dev/fuse`, no permission to mount, …).
  public struct Unavailable: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { "power loss cannot be simulated here: \(reason)" }
  }

  /// The file-system type the layer's mounts have in `/proc/self/mountinfo`.
  public static let fileSystemType = "fuse.storebench"
  static let sourcePrefix = "storebench-pagecache:"

  /// Why this machine cannot mount the layer, or nil when it can try.
  public static func unavailableReason() -> String? {
    guard access("/dev/fuse", F_OK) == 0 else {
      return "/dev/fuse does not exist (load the fuse module, or run where FUSE is allowed)"
    }
    guard access("/dev/fuse", R_OK | W_OK) == 0 else {
      return "/dev/fuse is not readable and writable by this user"
    }
    guard geteuid() == 0 || access("/usr/bin/fusermount3", X_OK) == 0 else {
      return "not root and no fusermount3 (install the fuse3 package)"
    }
    return nil
  }

  /// Mounts the layer on the empty directory `mountpoint`. Throws ``Unavailable`` when this machine cannot mount
  /// it (no `/dev/fuse`, or the server's own "error mount" answer), and a ``HarnessError`` naming the server when it
  /// dies, hangs or is stopped before it mounts. `stop` (a signal's request, asked every 100 ms) ends every wait on
  /// the server: it is killed and the wait throws ``CrashTrials/Stopped``.
  public init(executable: URL, mountpoint: URL, stop: @escaping () -> Bool = { false }) throws {
    if let reason = Self.unavailableReason() { throw Unavailable(reason: reason) }
    self.mountpoint = mountpoint
    self.stop = stop
    server = try ChildProcess(
      executable: executable, arguments: ["page-cache-layer", "--mount", mountpoint.path],
      input: true)
    server.killedWhenParentExitsAtOnce = false
    server.limit(seconds: .infinity, stop: stop)
    try server.spawn()
    serverPID = server.processIdentifier
    let first = server.nextLine(waitingMilliseconds: Self.startMilliseconds)
    guard first == "ready" else {
      mounted = false
      let ended = server.ended
      let outcome = ended ? server.wait() : server.killAndWait()
      _ = umount2(mountpoint.path, Int32(MNT_DETACH))
      if stop() { throw CrashTrials.Stopped() }
      if let first, first.hasPrefix("error mount") {
        throw Unavailable(reason: [first, outcome.errors].filter { !$0.isEmpty }.joined(separator: "; "))
      }
      let what: String
      if let first {
        what = "answered \"\(first)\" instead of ready"
      } else if ended || outcome.gaveUp != nil {
        what = "\(outcome.how) before it mounted"
      } else {
        what = "did not mount within \(Self.startMilliseconds / 1_000) s (killed)"
      }
      throw HarnessError(
        .pageCacheLayer,
        "the page-cache layer server (pid \(serverPID)) for \(mountpoint.path) \(what)"
          + (outcome.errors.isEmpty ? "" : ": \(outcome.errors)"))
    }
  }

  deinit { unmount() }

  /// How long the server may take to mount and say it is ready, and to answer one command.
  static let startMilliseconds = 15_000
  static let answerMilliseconds = 300_000

  /// Sends one command and returns its `ok …` answer; throws with the layer's `error …` answer, with
  /// ``CrashTrials/Stopped`` when the stop ended the wait, and with a harness fault naming the server when it died,
  /// was killed or did not answer in time (a fault of the harness, never the model's verdict on the variant).
  @discardableResult
  public func send(_ command: String) throws -> String {
    do {
      try server.send(command)
    } catch {
      throw failure(command, detail: "\(error)")
    }
    guard let reply = server.nextLine(waitingMilliseconds: Self.answerMilliseconds) else {
      throw failure(command, detail: nil)
    }
    guard reply.hasPrefix("ok") else {
      throw HarnessError(.pageCacheLayer, "the page-cache layer at \(mountpoint.path): \"\(command)\": \(reply)")
    }
    return reply
  }

  /// Why the server gave no answer to `command`: it was stopped by the signal's request, it ended, or it hung (it is
  /// killed then).
  private func failure(_ command: String, detail: String?) -> any Error {
    mounted = false
    let outcome = server.ended ? server.wait() : server.killAndWait()
    _ = umount2(mountpoint.path, Int32(MNT_DETACH))
    if stop() { return CrashTrials.Stopped() }
    let how =
      outcome.gaveUp != nil || server.ended || outcome.killedBySignal
      ? outcome.how : "did not answer in \(Self.answerMilliseconds / 1_000) s (killed)"
    return HarnessError(
      .pageCacheLayer,
      "the page-cache layer server (pid \(serverPID)) at \(mountpoint.path) \(how) during \"\(command)\""
        + ([detail, outcome.errors].compactMap { $0 }.filter { !$0.isEmpty }.map { ": \($0)" }.first ?? ""))
  }

  /// Kills the server now, without waiting (SIGKILL to its process group, which ends a stopped server too): the
  /// mount's connection is aborted, so whatever waits on the file system (a writer blocked in it) gets an error and
  /// can end. ``unmount()`` then collects the server and detaches the dead mount.
  public func abort() {
    stateAtAbort = ProcessTable.stat(of: serverPID).map { String($0.state) } ?? "gone"
    server.killNow()
  }

  /// What the server was doing when ``abort()`` killed it, said for the error that follows: stopped (SIGSTOP or
  /// a debugger), blocked, or already gone; nil when it was not aborted.
  public var serverNote: String? {
    guard let state = stateAtAbort else { return nil }
    let doing: String
    switch state {
    case "T", "t": doing = "was stopped (SIGSTOP or a debugger), so its file system hung; storebench killed it"
    case "Z", "gone": doing = "had already ended"
    case "D": doing = "was blocked in the kernel; storebench killed it"
    default: doing = "was running (state \(state)) but its file system did not answer; storebench killed it"
    }
    return "the page-cache layer server (pid \(serverPID)) \(doing)"
  }
  private var stateAtAbort: String?

  /// How the server ended, when it is no longer running although nobody asked it to quit (it was killed, or it
  /// crashed): a writer's I/O error on the layer is then the harness's fault, not the variant's. It is collected
  /// and its dead mount detached then. Nil while it runs.
  public var serverGone: String? {
    guard mounted, !ProcessTable.isRunning(serverPID) else { return nil }
    mounted = false
    let outcome = server.wait()
    _ = umount2(mountpoint.path, Int32(MNT_DETACH))
    return "the page-cache layer server (pid \(serverPID)) \(outcome.how) while the variant ran on it"
      + (outcome.errors.isEmpty ? "" : ": \(outcome.errors)")
  }

  /// Why the server will never answer, when it has been stopped for a while (``ChildProcess/stoppedTooLong()``):
  /// what a writer blocked in the layer's file system waits on.
  public var serverStopped: String? {
    server.stoppedTooLong().map { "the page-cache layer server (pid \(serverPID)) \($0)" }
  }

  /// Everything written so far becomes durable (the store existed long before the trial).
  public func settle() throws { try send("settle") }

  /// The power fails now: later changes are served but never reach an image.
  public func cut() throws { try send("cut") }

  /// Writes the post-crash image into the empty directory `directory`: the `synced` state, or a `prefix` image
  /// chosen with `seed`. Returns the layer's description of it.
  @discardableResult
  public func writeImage(_ image: DurabilityRow.Image, seed: UInt64, into directory: URL) throws -> String {
    switch image {
    case .synced: try send("image synced \(directory.path)")
    case .prefix: try send("image prefix \(seed) \(directory.path)")
    case .live, .torn: preconditionFailure("\(image.rawValue) is not an image of a random cut")
    }
  }

  /// Writes the crash state of a cut after the first `end` logged operations into the empty `directory`: the
  /// durable operations, the first `keep` pending ones and, with `tear` > 0, that many pages of the next write.
  @discardableResult
  public func writeState(end: Int, keep: Int, tear: Int, into directory: URL) throws -> String {
    try send("image state \(end) \(keep) \(tear) \(directory.path)")
  }

  /// After ``cut()``: the log of the run (written to `file`, a new file, and read back).
  public func log(to file: URL) throws -> LayerLog {
    try send("log \(file.path)")
    return try LayerLog(text: try String(contentsOf: file, encoding: .utf8), source: file.path)
  }

  /// A test seam: the `count`-th file sync from now is answered but never logged, as if the writer skipped it.
  public func dropSync(_ count: Int) throws { try send("drop-sync \(count)") }

  /// Asks the layer to unmount and waits (10 s at most) for it to exit; then makes sure nothing is mounted.
  public func unmount() {
    guard mounted else { return }
    mounted = false
    try? server.send("quit")
    server.closeInput()
    let deadline = monotonicNanoseconds() + 10_000_000_000
    while !server.ended, monotonicNanoseconds() < deadline { _ = server.nextLine(waitingMilliseconds: 100) }
    _ = server.ended ? server.wait() : server.killAndWait()
    _ = umount2(mountpoint.path, Int32(MNT_DETACH))
  }

  /// One of the layer's mounts listed by the kernel.
  public struct Listed: Equatable, Sendable {
    public var mountpoint: String
    /// The server's process id (from the mount's source name).
    public var server: pid_t
  }

  /// The layer's mounts that this machine lists in `/proc/self/mountinfo`.
  public static func listed() -> [Listed] {
    ProcessTable.mounts().compactMap { fields in
      guard let dash = fields.firstIndex(of: "-"), dash >= 5, fields.count > dash + 2,
        fields[dash + 1] == fileSystemType, fields[dash + 2].hasPrefix(sourcePrefix),
        let pid = pid_t(fields[dash + 2].dropFirst(sourcePrefix.count))
      else { return nil }
      return Listed(mountpoint: unescape(String(fields[4])), server: pid)
    }
  }

  /// Detaches the layer's mounts whose server process is gone; returns their mount points.
  @discardableResult
  public static func removeStale() -> [String] {
    listed().filter { !isRunning($0.server) }.compactMap { mount in
      umount2(mount.mountpoint, Int32(MNT_DETACH)) == 0 ? mount.mountpoint : nil
    }
  }

  /// Whether `pid` runs (a zombie does not: it serves no mount).
  public static func isRunning(_ pid: pid_t) -> Bool { ProcessTable.isRunning(pid) }

  /// Mount points in mountinfo escape space, tab, newline and backslash as octal (`\040`).
  private static func unescape(_ path: String) -> String {
    EscapedText.decode(path, marker: UInt8(ascii: "\\"), digits: 3, radix: 8)
  }
}
