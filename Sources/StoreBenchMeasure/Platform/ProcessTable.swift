import Foundation

/// What the kernel says about processes and mounts, read from `/proc` (Linux). Where `/proc` cannot be read the
/// answers are "unknown", and callers treat unknown as "still in use": nothing is removed on a guess.
public enum ProcessTable {
  /// The fields of `/proc/<pid>/stat` a caller needs.
  public struct Stat: Equatable, Sendable {
    /// The state letter (`R`, `S`, `D`, `Z` for a zombie, …).
    public let state: Character
    /// Field 22: the start time in clock ticks since boot (tells a reused pid from the process it was).
    public let startTicks: UInt64?
  }

  /// `/proc/<pid>/stat`, or nil when it cannot be read (the process is gone, or there is no `/proc`).
  public static func stat(of pid: Int32) -> Stat? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return nil }
    // After the command name: the state is field 3, so the start time (field 22) is the 20th.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard let state = fields.first?.first else { return nil }
    return Stat(state: state, startTicks: fields.count > 19 ? UInt64(fields[19]) : nil)
  }

  /// Whether `pid` runs: it exists, is not a zombie and, given `startTicks`, started then (not a reused pid).
  /// True when `/proc` cannot tell (the process exists but its stat is unreadable).
  public static func isRunning(_ pid: Int32, startTicks: UInt64? = nil) -> Bool {
    guard kill(pid, 0) == 0 || errno == EPERM else { return false }
    guard let stat = stat(of: pid) else { return true }
    if stat.state == "Z" { return false }
    if let startTicks, let now = stat.startTicks { return now == startTicks }
    return true
  }

  /// This process's mount table (`/proc/self/mountinfo`), one array of space-separated fields per mount; empty
  /// where unavailable.
  public static func mounts() -> [[Substring]] {
    guard let text = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return [] }
    return text.split(separator: "\n").map { $0.split(separator: " ") }
  }
}
