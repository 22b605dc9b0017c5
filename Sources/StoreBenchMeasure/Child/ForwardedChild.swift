import Foundation
import StoreBenchContract

#if canImport(Glibc)
  import Glibc
#endif

/// A child whose output is the user's to read (`ab`'s rounds: a whole `storebench run` of another binary): its
/// standard output goes to this process's standard error, its standard error is inherited. It gets a process group of
/// its own, so a Ctrl-C in the terminal reaches only this process, which passes a signal on once, to the child's whole
/// group (with SIGCONT, so a stopped child hears it too); an exit at once on a second signal kills it
/// (``LiveChildren``).
public final class ForwardedChild {
  private var pid: pid_t = 0

  /// Starts `executable` with `arguments`.
  public init(executable: URL, arguments: [String]) throws {
    let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
    let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + environment { free(pointer) } }
    var actions = posix_spawn_file_actions_t()
    var attributes = posix_spawnattr_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawnattr_init(&attributes)
    defer {
      posix_spawn_file_actions_destroy(&actions)
      posix_spawnattr_destroy(&attributes)
    }
    posix_spawn_file_actions_adddup2(&actions, 2, 1)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)
    let rc = posix_spawn(&pid, executable.path, &actions, &attributes, argv, environment)
    guard rc == 0 else {
      pid = 0
      throw HarnessError(.childProcess, SystemError("posix_spawn", path: executable.path, code: rc))
    }
    LiveChildren.add(pid)
  }

  deinit {
    if pid > 0 {
      kill(-pid, SIGKILL)
      _ = collect(blocking: true)
    }
  }

  /// Waits for the child's end and returns its exit status (128 + N when a signal N ended it). While it runs,
  /// `signal` is asked every 20 ms: the first signal it returns is passed on to the child's process group.
  public func wait(passingOn signal: () -> Int32?) -> Int32 {
    var passedOn = false
    while true {
      if let status = collect(blocking: false) { return status }
      if !passedOn, let signal = signal() {
        kill(-pid, signal)
        kill(-pid, SIGCONT)
        passedOn = true
      }
      usleep(20_000)
    }
  }

  /// The status once the child has ended (collected by ``ChildProcess/reap(_:)``, which takes it off
  /// ``LiveChildren`` while it still holds its pid); nil while it runs, unless `blocking`.
  private func collect(blocking: Bool) -> Int32? {
    if !blocking {
      var info = siginfo_t()
      var rc: Int32
      repeat { rc = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT | WNOHANG) } while rc < 0 && errno == EINTR
      // WNOHANG with nothing ended leaves si_pid 0.
      if rc == 0 && info._sifields._sigchld.si_pid == 0 { return nil }
    }
    let status = ChildProcess.reap(pid)
    pid = 0
    let signal = status & 0x7F
    return signal != 0 ? 128 + signal : (status >> 8) & 0xFF
  }
}
