import CValgrind
import Foundation

/// Counts the instructions of each region exactly, in a process that runs under
/// `valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=FILE` (``CountingPass/instructions``): ``start()``
/// zeroes callgrind's counters and switches its instrumentation on, ``stop()`` switches it off and has callgrind write
/// the region's counts to `FILE.N` (the N-th dump), and ``read()`` reads the newest dump (``CallgrindDump``: its
/// instructions without the allocator's and libdispatch's timers', whose amount depends on the process's history and
/// the clock) and removes every dump (C code may dump too: `Sources/CBaselines` brackets its own clock the same way).
/// What runs between start and stop on any thread of this process is counted; the kernel's work and other processes'
/// are not.
public final class InstructionCounter: RegionCounter {
  /// The environment variable naming callgrind's output file (the parent sets both).
  public static let outputVariable = "STOREBENCH_CALLGRIND_OUT"
  public let pass = CountingPass.instructions
  private let output: String

  private init(output: String) { self.output = output }

  /// The counter, when this process runs under callgrind with its output file named in ``outputVariable``.
  public static func open(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Result<InstructionCounter, CounterUnavailable> {
    guard sb_valgrind_available() != 0 else {
      return .failure(
        CounterUnavailable(
          "storebench was built without valgrind's headers (Debian: apt-get install valgrind, then rebuild)"))
    }
    guard sb_running_on_valgrind() > 0 else {
      return .failure(CounterUnavailable("not running under valgrind --tool=callgrind"))
    }
    guard let output = environment[outputVariable], !output.isEmpty else {
      return .failure(CounterUnavailable("\(outputVariable) does not name callgrind's output file"))
    }
    return .success(InstructionCounter(output: output))
  }

  public func start() { sb_callgrind_start() }

  public func stop() { sb_callgrind_stop("storebench region") }

  public func read() throws -> [CountedCost: Int64] {
    let directory = (output as NSString).deletingLastPathComponent
    let prefix = (output as NSString).lastPathComponent + "."
    let dumps = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).compactMap { name in
      name.hasPrefix(prefix) ? Int(name.dropFirst(prefix.count)).map { (number: $0, name: name) } : nil
    }
    defer { for dump in dumps { try? FileManager.default.removeItem(atPath: "\(directory)/\(dump.name)") } }
    guard let newest = dumps.max(by: { $0.number < $1.number }) else {
      throw CounterUnavailable("callgrind wrote no counts beside \(output)")
    }
    let file = "\(directory)/\(newest.name)"
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
      throw CounterUnavailable("callgrind wrote no counts to \(file)")
    }
    guard let dump = CallgrindDump(text) else {
      throw CounterUnavailable("\(file) has no 'totals:' line (not a callgrind output file?)")
    }
    return [.instructions: dump.counted]
  }

  /// A loop of `iterations` the optimizer keeps, a fixed number of instructions each (a test seam's planted work).
  public static func spin(_ iterations: UInt64) { sb_spin(iterations) }
}
