import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Monotonic time in nanoseconds (`clock_gettime(CLOCK_MONOTONIC)`, ≈35 ns a call here). Inlinable, so a timed
/// loop in another module reads the clock without a call of ours around it.
@inlinable @inline(__always)
public func monotonicNanoseconds() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// `getrusage(RUSAGE_SELF)` (≈0.5 µs: never inside a timed operation).
func resourceUsage(children: Bool = false) -> rusage {
  var usage = rusage()
  #if canImport(Glibc)
    getrusage(__rusage_who_t(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue), &usage)
  #else
    getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &usage)
  #endif
  return usage
}

/// CPU time consumed by this process so far (`getrusage`).
public struct CPUTime: Sendable {
  public var user: Double
  public var system: Double

  public static func now() -> CPUTime { CPUTime(resourceUsage()) }

  /// CPU time of this process's children that have ended and been waited for (launch workloads' children).
  public static func children() -> CPUTime { CPUTime(resourceUsage(children: true)) }

  public var total: Double { user + system }

  private init(_ usage: rusage) {
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1_000_000 }
    self.init(user: seconds(usage.ru_utime), system: seconds(usage.ru_stime))
  }

  public init(user: Double, system: Double) {
    self.user = user
    self.system = system
  }
}

/// Storage I/O of this process from `/proc/self/io` (nil fields where the kernel does not account it).
/// `writeBytes` counts pages when they are dirtied; `readBytes` stays 0 on page-cache hits.
public struct ProcessIO: Sendable {
  public var readBytes: Int64?
  public var writeBytes: Int64?

  public static func now() -> ProcessIO {
    let io = (try? String(contentsOfFile: "/proc/self/io", encoding: .utf8)).map(fields) ?? [:]
    return ProcessIO(readBytes: io["read_bytes"], writeBytes: io["write_bytes"])
  }

  /// The `name: value` lines of `/proc/<pid>/io` (`rchar`, `wchar`, `read_bytes`, …).
  static func fields(_ text: String) -> [String: Int64] {
    var fields: [String: Int64] = [:]
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
      if parts.count == 2, let value = Int64(parts[1]) { fields[parts[0]] = value }
    }
    return fields
  }

  /// `later - earlier` per field, nil when either side is unknown.
  public static func delta(_ earlier: ProcessIO, _ later: ProcessIO) -> ProcessIO {
    func minus(_ a: Int64?, _ b: Int64?) -> Int64? { if let a, let b { a - b } else { nil } }
    return ProcessIO(
      readBytes: minus(later.readBytes, earlier.readBytes),
      writeBytes: minus(later.writeBytes, earlier.writeBytes))
  }
}

/// Peak resident memory of the process during one repetition.
///
/// Linux keeps a high-water mark (`VmHWM`) that writing `5` to `/proc/self/clear_refs` resets to the current
/// RSS, so each repetition gets its own peak. Where the reset is refused, the process-lifetime peak
/// (`ru_maxrss`) is reported and ``isPerRepetition`` is false.
public enum PeakMemory {
  /// Resets the high-water mark; returns whether the reset worked.
  @discardableResult
  public static func reset() -> Bool {
    let fd = open("/proc/self/clear_refs", O_WRONLY)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return write(fd, "5", 1) == 1
  }

  /// The high-water mark in KiB since the last reset (or since start).
  public static func highWaterKiB() -> Int64 {
    statusKiB("VmHWM:") ?? Int64(resourceUsage().ru_maxrss)
  }

  /// Resident memory now, in KiB (`VmRSS`); nil where `/proc/self/status` is missing.
  public static func residentKiB() -> Int64? { statusKiB("VmRSS:") }

  /// How much the peak rose above `startKiB` (resident memory when the timed region began): the memory the
  /// operation itself took. Nil where the per-repetition peak or the resident size is unknown.
  public static func growthKiB(since startKiB: Int64?, resetWorked: Bool) -> Int64? {
    guard resetWorked, let startKiB, let peak = statusKiB("VmHWM:") else { return nil }
    return max(0, peak - startKiB)
  }

  /// A `… kB` field of `/proc/self/status`.
  private static func statusKiB(_ field: String) -> Int64? {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field) })
    else { return nil }
    return Int64(line.dropFirst(field.count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
  }
}

/// Keeps a value alive so the optimizer cannot remove the work that produced it.
@inline(never)
public func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}
