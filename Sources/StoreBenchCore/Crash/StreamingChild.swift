#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A child process whose standard output is read line by line while it runs (the crash writer's
/// acknowledgements), and which can be killed with SIGKILL at any moment.
final class StreamingChild {
    private var pid: pid_t = 0
    private var output: Int32 = -1
    private var errors: Int32 = -1
    private var pending: [UInt8] = []
    private(set) var ended = false

    /// How the child ended.
    struct Outcome {
        var killedBySignal: Bool
        var signal: Int32
        var exitCode: Int32
        var remainingLines: [String]
        var errors: String
    }

    init(executable: URL, arguments: [String]) throws {
        var out: [Int32] = [-1, -1], err: [Int32] = [-1, -1]
        guard pipe(&out) == 0, pipe(&err) == 0 else {
            throw StoreError.inconsistent("pipe failed: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        for fd in out + err { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        let rc = posix_spawn(&pid, executable.path, &actions, nil, argv, environment)
        close(out[1])
        close(err[1])
        output = out[0]
        errors = err[0]
        guard rc == 0 else {
            close(output)
            close(errors)
            pid = 0
            throw StoreError.inconsistent("posix_spawn \(executable.path) failed: \(String(cString: strerror(rc)))")
        }
    }

    deinit {
        if pid > 0 {
            kill(pid, SIGKILL)
            waitpid(pid, nil, 0)
        }
        if output >= 0 { close(output) }
        if errors >= 0 { close(errors) }
    }

    /// Waits up to `milliseconds` for output and returns the complete lines that arrived.
    func readLines(waitingMilliseconds milliseconds: Int32) -> [String] {
        guard !ended else { return [] }
        var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, milliseconds) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(output, &buffer, buffer.count)
        if count <= 0 {
            ended = true
        } else {
            pending += buffer[0..<count]
        }
        return takeLines()
    }

    private func takeLines() -> [String] {
        var lines: [String] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: pending[..<newline], as: UTF8.self))
            pending.removeSubrange(...newline)
        }
        return lines
    }

    /// Kills the child with SIGKILL (if it still runs) and collects how it ended.
    func killAndWait() -> Outcome {
        if pid > 0 { kill(pid, SIGKILL) }
        return wait()
    }

    /// Waits for the child's end: the rest of its output, its standard error, and its status.
    func wait() -> Outcome {
        var lines: [String] = []
        while !ended { lines += readLines(waitingMilliseconds: -1) }
        if !pending.isEmpty {
            lines.append(String(decoding: pending, as: UTF8.self))
            pending = []
        }
        let errorText = ChildProcess.readAll(errors)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        pid = 0
        let signal = status & 0x7F
        return Outcome(killedBySignal: signal != 0, signal: signal, exitCode: (status >> 8) & 0xFF, remainingLines: lines,
                       errors: errorText.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
