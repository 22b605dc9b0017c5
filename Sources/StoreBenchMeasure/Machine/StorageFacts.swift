import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The block device under a directory and how the kernel treats it (Linux `/sys` and `/proc`; "unknown"
/// elsewhere): readahead, I/O scheduler and mount options, and the CPU frequency governor where readable.
public struct StorageFacts: Codable, Sendable {
  public var device: String
  public var readAheadKiB: String
  public var scheduler: String
  public var mountOptions: String
  public var cpuGovernor: String

  enum CodingKeys: String, CodingKey {
    case device
    case readAheadKiB = "read_ahead_kb"
    case scheduler
    case mountOptions = "mount_options"
    case cpuGovernor = "cpu_governor"
  }

  public static func of(_ path: String) -> StorageFacts {
    let queue = blockQueue(of: path)
    return StorageFacts(
      device: queue?.deletingLastPathComponent().lastPathComponent ?? "unknown",
      readAheadKiB: queue.flatMap { read($0.appendingPathComponent("read_ahead_kb").path) } ?? "unknown",
      scheduler: queue.flatMap { read($0.appendingPathComponent("scheduler").path) } ?? "unknown",
      mountOptions: WorkDirectory.mountEntry(of: path)?.options ?? "unknown",
      cpuGovernor: read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor") ?? "unknown")
  }

  /// `/sys/dev/block/MAJ:MIN` of the path's device, resolved; a partition's queue is its disk's.
  private static func blockQueue(of path: String) -> URL? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    let device = UInt64(info.st_dev)
    let major = (device >> 8) & 0xFFF | (device >> 32) & ~0xFFF
    let minor = device & 0xFF | (device >> 12) & ~0xFF
    var node = URL(fileURLWithPath: "/sys/dev/block/\(major):\(minor)").resolvingSymlinksInPath()
    if FileManager.default.fileExists(atPath: node.appendingPathComponent("partition").path) {
      node = node.deletingLastPathComponent()
    }
    let queue = node.appendingPathComponent("queue")
    return FileManager.default.fileExists(atPath: queue.path) ? queue : nil
  }

  private static func read(_ path: String) -> String? {
    (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
