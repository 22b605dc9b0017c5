import Foundation

/// How storebench starts a child of its own under callgrind for instruction counts (``InstructionCounter``):
/// `valgrind --tool=callgrind --instr-atstart=no`, its output and log in a scratch directory, and the executable
/// copied there without its debugging sections — valgrind 3.19 cannot read the DWARF of Swift 6's builds ("Possibly
/// corrupted debuginfo file"); `strip --strip-debug` removes only those sections, so the code is the same.
public struct CallgrindLaunch: Sendable {
  /// The program to start (valgrind) and its arguments, ending with the executable's copy and `arguments`.
  public let program: URL
  public let arguments: [String]
  /// Set in the child: callgrind's output file for ``InstructionCounter``, deterministic hashing.
  public let environment: [String: String]
  /// valgrind's own messages.
  public let log: URL

  /// The launch of `executable` with `arguments` under callgrind, its files in `scratch`; or why it cannot be.
  public static func prepare(_ executable: URL, arguments: [String], scratch: URL) -> Result<Self, CounterUnavailable> {
    guard let valgrind = find("valgrind") else {
      return .failure(CounterUnavailable("valgrind is not installed (Debian: apt-get install valgrind)"))
    }
    guard let strip = find("strip") else {
      return .failure(CounterUnavailable("strip is not installed (Debian: apt-get install binutils)"))
    }
    let copy = scratch.appendingPathComponent(executable.lastPathComponent)
    do {
      try FileManager.default.copyItem(at: executable, to: copy)
      let outcome = try ChildProcess.run(executable: strip, arguments: ["--strip-debug", copy.path])
      guard outcome.exitCode == 0, !outcome.killedBySignal else {
        return .failure(CounterUnavailable("strip --strip-debug \(copy.path) \(outcome.how): \(outcome.errors)"))
      }
    } catch {
      return .failure(CounterUnavailable("cannot copy \(executable.path) without its debugging sections: \(error)"))
    }
    let counts = scratch.appendingPathComponent("callgrind.out").path
    let log = scratch.appendingPathComponent("valgrind.log")
    return .success(
      CallgrindLaunch(
        program: valgrind,
        arguments: [
          "--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=\(counts)", "--log-file=\(log.path)",
          copy.path,
        ] + arguments,
        environment: [InstructionCounter.outputVariable: counts, "SWIFT_DETERMINISTIC_HASHING": "1"], log: log))
  }

  /// The first executable named `name` on PATH.
  static func find(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }
}
