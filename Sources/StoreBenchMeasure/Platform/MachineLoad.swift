import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What the whole machine's CPUs did, from the first line of `/proc/stat` (Linux; nil elsewhere). The runner reads
/// it before and after a timed operation and subtracts its own process's CPU time: what is left is the rest of
/// the machine's work meanwhile (contention), steal included.
public struct MachineCPU: Sendable {
  /// Busy seconds of all CPUs together (user, nice, system, irq, softirq, steal).
  public var busySeconds: Double
  /// Seconds the hypervisor gave to others (steal).
  public var stealSeconds: Double

  public static func now() -> MachineCPU? {
    guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
      let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
    else { return nil }
    let ticks = line.split(separator: " ").dropFirst().compactMap { Double($0) }
    guard ticks.count >= 8 else { return nil }
    let perSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
    // user nice system idle iowait irq softirq steal …: idle and iowait are not busy.
    let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7]
    return MachineCPU(busySeconds: busy / perSecond, stealSeconds: ticks[7] / perSecond)
  }
}

/// The 1-minute load average (`/proc/loadavg`; nil elsewhere): runnable and waiting tasks, this run included.
public enum LoadAverage {
  public static func oneMinute() -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
    return text.split(separator: " ").first.flatMap { Double($0) }
  }
}
