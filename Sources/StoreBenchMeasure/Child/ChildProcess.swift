import Foundation
import StoreBenchContract
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A `storebench` child process with its standard output and error on pipes. Everything is prepared in
/// ``init(executable:arguments:)`` (pipes, arguments, environment), so that ``spawn()`` and ``firstLine()`` can be
/// timed alone (a launch is spawn → the child's first line). Output can also be read line by line while the
/// child runs (the crash writer's acknowledgements), and the child can be killed at any moment.
///
/// Started with `posix_spawn`, not Foundation's `Process`: on this platform that added ≈50 ms to some launches
/// (bimodal 13 / 63 ms for the same child), which would be measured as the store's launch cost. The child gets a
/// process group of its own, so a Ctrl-C in the terminal reaches only the parent, which finishes the repetition
/// and stops; the parent kills its children when it is done with them.
public final class ChildProcess {
  private let path: String
  private let argv: [UnsafeMutablePointer<CChar>?]
  private let environment: [UnsafeMutablePointer<CChar>?]
  private let actions = UnsafeMutablePointer<posix_spawn_file_actions_t>.allocate(capacity: 1)
  private let attributes = UnsafeMutablePointer<posix_spawnattr_t>.allocate(capacity: 1)
  private var output: [Int32] = [-1, -1]
  private var errors: [Int32] = [-1, -1]
  private var input: [Int32] = [-1, -1]
  private var queued: [String] = []
  private var pid: pid_t = 0
  /// The running child's pid (0 before ``spawn()`` and after it was collected).
  public var processIdentifier: pid_t { pid }
  private var pending: [UInt8] = []
  /// Whether the child's standard output has reached its end.
  public private(set) var ended = false
  /// Whether an exit at once on a signal kills the child (``LiveChildren``); set before ``spawn()``. Off for a child
  /// that ends itself when its input pipe closes with this process (the page-cache layer unmounts first: a SIGKILL
  /// would leave a dead mount).
  public var killedWhenParentExitsAtOnce = true
  /// The end of every wait on this child (``limit(seconds:stop:)``; nil: none), and what ends them sooner.
  private var deadline: UInt64?
  private var stopWaiting: (() -> Bool)?
  /// Why a wait gave up on the child and killed it (nil: none did).
  public private(set) var gaveUp: String?

  /// How the child ended.
  public struct Outcome {
    public var killedBySignal: Bool
    public var signal: Int32
    public var exitCode: Int32
    /// Output lines not read before (all of them for ``run(executable:arguments:)``).
    public var remainingLines: [String]
    public var errors: String

    /// The last remaining line, when the child exited 0 (its answer); otherwise nil.
    public var answerLine: String? {
      guard !killedBySignal, exitCode == 0 else { return nil }
      return remainingLines.last
    }

    /// Why the parent killed the child (``ChildProcess/gaveUp``), if it did.
    public var gaveUp: String?

    /// "exited N", "was killed by signal N", or why the parent killed it.
    public var how: String {
      if let gaveUp { return "was killed by storebench: \(gaveUp)" }
      return killedBySignal ? "was killed by signal \(signal)" : "exited \(exitCode)"
    }
  }

  /// Prepares the child; with `input`, its standard input is a pipe the parent writes with ``send(_:)``
  /// (otherwise it inherits the parent's). Every pipe is close-on-exec in the parent, so no other child holds
  /// one open: a child sees the end of its input when this parent closes it or dies.
  /// `environment`: variables set in the child beside this process's.
  public init(
    executable: URL, arguments: [String], input withInput: Bool = false, environment extra: [String: String] = [:]
  ) throws {
    path = executable.path
    argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
    environment =
      ProcessInfo.processInfo.environment.merging(extra) { _, given in given }.map { strdup("\($0.key)=\($0.value)") }
      + [nil]
    posix_spawn_file_actions_init(actions)
    posix_spawnattr_init(attributes)
    posix_spawnattr_setflags(attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(attributes, 0)
    guard Self.closeOnExecPipe(&output), Self.closeOnExecPipe(&errors), !withInput || Self.closeOnExecPipe(&input)
    else {
      throw HarnessError(.childProcess, SystemError("pipe"))
    }
    posix_spawn_file_actions_adddup2(actions, output[1], 1)
    posix_spawn_file_actions_adddup2(actions, errors[1], 2)
    if withInput { posix_spawn_file_actions_adddup2(actions, input[0], 0) }
  }

  deinit {
    for fd in output + errors + input where fd >= 0 { close(fd) }
    if pid > 0 {
      kill(pid, SIGKILL)
      _ = Self.reap(pid)
    }
    posix_spawn_file_actions_destroy(actions)
    actions.deallocate()
    posix_spawnattr_destroy(attributes)
    attributes.deallocate()
    for pointer in argv + environment { free(pointer) }
  }

  /// How many children this process has started, process-wide (a counting pass leaves out a region that started one:
  /// its work is in another process, and this one's waiting for it depends on timing).
  public static var started: Int { startedCount.withLock { $0 } }
  private static let startedCount = Mutex(0)

  /// Starts the child.
  public func spawn() throws {
    let rc = posix_spawn(&pid, path, actions, attributes, argv, environment)
    for fd in [output[1], errors[1], input[0]] where fd >= 0 { close(fd) }
    output[1] = -1
    errors[1] = -1
    input[0] = -1
    guard rc == 0 else {
      pid = 0
      throw HarnessError(.childProcess, SystemError("posix_spawn", path: path, code: rc))
    }
    Self.startedCount.withLock { $0 += 1 }
    if killedWhenParentExitsAtOnce { LiveChildren.add(pid) }
  }

  /// Blocks until the child's first line (without its newline) or the end of its output. With a limit
  /// (``limit(seconds:stop:)``) the wait is a `poll` that ends at the limit like every other wait (the child is
  /// killed then, and the line is nil); without one, a plain blocking read. Output after the line stays for later
  /// reads.
  public func firstLine() -> String? {
    let limited = deadline != nil || stopWaiting != nil
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      if let line = takeLine() { return line }
      if ended {
        defer { pending = [] }
        return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self)
      }
      if limited {
        var poller = pollfd(fd: output[0], events: Int16(POLLIN), revents: 0)
        if poll(&poller, 1, pollMilliseconds) == 0 {
          _ = giveUpIfDue()
          continue
        }
      }
      let count = read(output[0], &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { ended = true } else { pending += buffer[0..<count] }
    }
  }

  /// Waits up to `milliseconds` (-1: until something arrives) for output; returns the complete lines read.
  public func readLines(waitingMilliseconds milliseconds: Int32) -> [String] {
    guard !ended else { return takeLines() }
    var poller = pollfd(fd: output[0], events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, milliseconds) > 0 else { return [] }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = read(output[0], &buffer, buffer.count)
    if count <= 0 {
      ended = true
    } else {
      pending += buffer[0..<count]
    }
    return takeLines()
  }

  /// The complete lines in what was read and not yet returned.
  private func takeLines() -> [String] {
    var lines: [String] = []
    while let line = takeLine() { lines.append(line) }
    return lines
  }

  /// The first complete line in what was read and not yet returned (without its newline), taken off it.
  private func takeLine() -> String? {
    guard let newline = pending.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
    defer { pending.removeSubrange(...newline) }
    return String(decoding: pending[..<newline], as: UTF8.self)
  }

  /// Writes `line` and a newline to the child's standard input (see ``init(executable:arguments:input:)``).
  /// A child that has ended is an error, not a SIGPIPE: the signal is blocked in this thread during the write
  /// and a pending one is taken back.
  public func send(_ line: String) throws {
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
    defer {
      var pending = sigset_t()
      sigpending(&pending)
      if sigismember(&pending, SIGPIPE) == 1 {
        var zero = timespec()
        _ = sigtimedwait(&pipeSignal, nil, &zero)
      }
      pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
    var bytes = Array((line + "\n").utf8)[...]
    while !bytes.isEmpty {
      let count = bytes.withUnsafeBytes { Glibc.write(input[1], $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else {
        throw HarnessError(.childProcess, SystemError("write", path: "the input pipe of \(path)"))
      }
      bytes = bytes.dropFirst(count)
    }
  }

  /// Closes the child's standard input: it reads its end.
  public func closeInput() {
    if input[1] >= 0 { close(input[1]) }
    input[1] = -1
  }

  /// Bounds every later wait on the child (``nextLine(waitingMilliseconds:)``, ``wait()``): once `seconds` have
  /// passed from now, or once `stop` returns true (a signal's request; asked at least every 100 ms), the wait kills
  /// the child's process group (SIGKILL, which ends a stopped child too) and ends; ``gaveUp`` and the outcome say
  /// why. A child that hangs or was stopped then costs its deadline, not the command.
  /// `seconds` may be infinite: only `stop` ends the waits then.
  public func limit(seconds: Double, stop: @escaping () -> Bool) {
    let now = monotonicNanoseconds()
    deadline = seconds.isFinite ? now &+ UInt64(max(seconds, 0) * 1e9) : nil
    stopWaiting = stop
    stoppedWatch = StoppedWatch(since: now)
  }

  /// Another reason for a bounded wait to give up, asked with the others (nil: none yet): a crash writer's wait
  /// gives up when the page-cache server it writes through was stopped.
  public var giveUpWhen: (() -> String?)?

  /// Whether the child has been stopped (SIGSTOP; not a debugger's trace stop) for ``StoppedWatch/graceSeconds``
  /// ("was stopped (SIGSTOP) for 5 s …"; nil while it is not): a
  /// stopped child never answers. Read from `/proc` at most once a second, and never in the first second after
  /// ``limit(seconds:stop:)``, so a timed wait (a launch's first line) reads nothing.
  public func stoppedTooLong() -> String? {
    guard pid > 0 else { return nil }
    return stoppedWatch.check(pid)
  }
  private var stoppedWatch = StoppedWatch(since: 0)

  /// Run once when a wait gives up on the child, after it was killed: what else must go for its wait to end (a
  /// crash writer blocked in a stopped page-cache server's file system ends only once that server is killed).
  public var onGiveUp: (() -> Void)?

  /// Kills the child when its limit is past or its stop says so; returns whether it has given up on it. Every
  /// bounded wait asks this; a caller's own polling loop asks it too.
  @discardableResult
  public func giveUpIfDue() -> Bool {
    guard gaveUp == nil else { return true }
    guard pid > 0 else { return false }
    if let stopWaiting, stopWaiting() {
      gaveUp = "the command was stopped by a signal"
    } else if let deadline, monotonicNanoseconds() >= deadline {
      gaveUp = "still running at its deadline"
    } else if let reason = stoppedTooLong().map({ "it " + $0 }) ?? giveUpWhen?() {
      gaveUp = reason
    } else {
      return false
    }
    killNow()
    onGiveUp?()
    return true
  }

  /// Kills the child's process group now (SIGKILL, which ends a stopped child too), without waiting for it.
  public func killNow() {
    guard pid > 0 else { return }
    kill(-pid, SIGKILL)
    kill(pid, SIGKILL)
  }

  /// How long one poll of a wait lasts: short while a limit may end it.
  private var pollMilliseconds: Int32 { deadline == nil && stopWaiting == nil ? 1_000 : 100 }

  /// The child's next output line, waiting up to `milliseconds`; nil at its end or on time-out.
  public func nextLine(waitingMilliseconds milliseconds: Int) -> String? {
    let deadline = monotonicNanoseconds() + UInt64(milliseconds) * 1_000_000
    while queued.isEmpty, !ended {
      let now = monotonicNanoseconds()
      guard now < deadline else { break }
      // Given up: the child is killed; its output ends, and the caller collects how it ended.
      _ = giveUpIfDue()
      queued += readLines(
        waitingMilliseconds: Int32(min(Int64(pollMilliseconds), max(1, Int64((deadline - now) / 1_000_000)))))
    }
    return queued.isEmpty ? nil : queued.removeFirst()
  }

  /// Kills the child with SIGKILL (if it still runs) and collects how it ended.
  public func killAndWait() -> Outcome {
    if pid > 0 { kill(pid, SIGKILL) }
    return wait()
  }

  /// Waits for the child's end: the rest of its output, its standard error, and its status.
  public func wait() -> Outcome {
    closeInput()
    var lines = queued
    queued = []
    let limited = deadline != nil || stopWaiting != nil
    while !ended {
      if limited { _ = giveUpIfDue() }
      lines += readLines(waitingMilliseconds: limited ? pollMilliseconds : -1)
    }
    lines += takeLines()
    if !pending.isEmpty {
      lines.append(String(decoding: pending, as: UTF8.self))
      pending = []
    }
    let errorText = Self.readAll(errors[0])
    let status = Self.reap(pid)
    pid = 0
    let signal = status & 0x7F
    return Outcome(
      killedBySignal: signal != 0, signal: signal, exitCode: (status >> 8) & 0xFF, remainingLines: lines,
      errors: errorText.trimmingCharacters(in: .whitespacesAndNewlines), gaveUp: gaveUp)
  }

  /// Runs a child to its end and returns everything it said.
  public static func run(executable: URL, arguments: [String]) throws -> Outcome {
    let child = try ChildProcess(executable: executable, arguments: arguments)
    try child.spawn()
    return child.wait()
  }

  /// Waits for the child's end and collects its status. The pid leaves ``LiveChildren`` while the ended child still
  /// holds it (`WNOWAIT`), so a signal's ``LiveChildren/killAll()`` never reaches a process that reused the pid.
  static func reap(_ pid: pid_t) -> Int32 {
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
    LiveChildren.remove(pid)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status
  }

  /// A pipe whose two ends are closed in every program this process starts (`pipe2` is not imported).
  private static func closeOnExecPipe(_ ends: inout [Int32]) -> Bool {
    guard pipe(&ends) == 0 else { return false }
    return ends.allSatisfy { fcntl($0, F_SETFD, FD_CLOEXEC) == 0 }
  }

  /// Reads everything until end of file.
  private static func readAll(_ fd: Int32) -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(fd, &buffer, buffer.count)
      if count <= 0 { break }
      bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
