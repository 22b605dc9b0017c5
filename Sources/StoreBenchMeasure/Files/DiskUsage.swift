import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Size of a store on disk: all files below its directory (sidecars such as `-wal` included).
public struct DiskUsage: Sendable, Equatable {
  /// Sum of file lengths.
  public var apparentBytes: Int64
  /// Sum of allocated blocks (`st_blocks × 512`).
  public var allocatedBytes: Int64

  /// Walks `directory` without following symbolic links.
  public static func of(_ directory: URL) -> DiskUsage {
    var usage = DiskUsage(apparentBytes: 0, allocatedBytes: 0)
    for file in regularFiles(below: directory) {
      usage.apparentBytes += Int64(file.info.st_size)
      usage.allocatedBytes += Int64(file.info.st_blocks) * 512
    }
    return usage
  }

  /// Every regular file below `directory` (symbolic links are not followed), with its `lstat`.
  public static func regularFiles(below directory: URL) -> [(path: String, info: stat)] {
    guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
    return enumerator.compactMap { relative -> (path: String, info: stat)? in
      guard let relative = relative as? String else { return nil }
      let path = directory.appendingPathComponent(relative).path
      var info = stat()
      guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
      return (path, info)
    }
  }
}
