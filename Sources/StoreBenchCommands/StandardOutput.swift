// swift-format-ignore-file: OrderedImports
// Glibc first: imported after Foundation, it arrives without @preconcurrency and `stdout` is refused.
@preconcurrency import Glibc
import Foundation
import StoreBenchCore

/// Writes bytes to standard output through C's buffered stream, in order with `print`; a failed write (a full disk,
/// a closed pipe) is found when ``StoreBench/main()`` flushes the stream, and exits 1 — never a trap.
func writeStandardOutput(_ data: Data) {
  data.withUnsafeBytes { bytes in
    guard let base = bytes.baseAddress else { return }
    _ = fwrite(base, 1, bytes.count, stdout)
  }
}

extension StoreBench {
  /// Flushes standard output; when what a command printed could not be written (`> /dev/full`, a closed pipe), says
  /// so and exits 1: a report nobody received is not a success.
  /// Every way out of ``main()`` after a command ran starts here, so it first waits for a second signal's clean-up, if one is running
  /// (``InterruptRequest/awaitExitInProgress()``): the signal's exit code wins, and nothing is printed meanwhile.
  static func finishStandardOutput() {
    InterruptRequest.awaitExitInProgress()
    if fflush(stdout) != 0 || ferror(stdout) != 0 {
      let code = errno
      printError("storebench: cannot write to standard output: \(String(cString: strerror(code)))")
      Foundation.exit(StoreBenchExit.failure.rawValue)
    }
  }
}
