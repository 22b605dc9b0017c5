import Foundation
import StoreBenchCore

#if canImport(Glibc)
  import Glibc
#endif

/// `run`'s progress on standard error. On a terminal: one line, rewritten after every repetition, with
/// `[i/N]`, the elapsed time and an estimate of what is left. Otherwise (a log, CI): such a line every few seconds.
/// Failures and messages always get a line of their own; `--quiet` keeps only those.
final class ProgressPrinter {
  private let isTerminal: Bool
  private let quiet: Bool
  private let interval: Double
  private var lastPrint = -Double.infinity
  private var statusShown = false

  init(quiet: Bool, isTerminal: Bool = isatty(STDERR_FILENO) == 1, interval: Double = 5) {
    self.quiet = quiet
    self.isTerminal = isTerminal
    self.interval = interval
  }

  /// A message (a warning, an error, "results: …"): always printed, on a line of its own.
  func message(_ text: String) {
    clearStatus()
    if quiet && !Self.matters(text) { return }
    FileHandle.standardError.write(Data((text.escapingControlCharacters(keepingNewlines: true) + "\n").utf8))
  }

  /// One repetition done.
  func update(_ progress: RunProgress) {
    if progress.failed {
      clearStatus()
      FileHandle.standardError.write(Data((progress.line + "\n").utf8))
    }
    guard !quiet else { return }
    let status =
      "[\(progress.done)/\(progress.expectedTotal)] \(progress.round), \(progress.casesLeft) of "
      + "\(progress.cases) cases running, \(MarkdownTable.clock(progress.elapsed)) elapsed, ~\(MarkdownTable.clock(progress.secondsLeft)) left"
    if isTerminal {
      let width = Self.terminalWidth()
      var line = status + " · " + progress.line
      if line.count > width - 1 { line = String(line.prefix(width - 2)) + "…" }
      FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line).utf8))
      statusShown = true
    } else if progress.elapsed - lastPrint >= interval {
      lastPrint = progress.elapsed
      FileHandle.standardError.write(Data((status + "\n").utf8))
    }
  }

  /// Ends the updating line (before other output).
  func clearStatus() {
    guard statusShown else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    statusShown = false
  }

  /// Lines `--quiet` still shows: warnings, errors, where the results are, interruptions.
  private static func matters(_ text: String) -> Bool {
    ["WARNING", "error", "results:", "interrupted", "removed "].contains { text.hasPrefix($0) }
  }

  private static func terminalWidth() -> Int {
    var size = winsize()
    guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 20 else { return 100 }
    return Int(size.ws_col)
  }
}
