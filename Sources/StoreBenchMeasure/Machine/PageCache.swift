import Foundation
import StoreBenchContract

#if canImport(Glibc)
  import Glibc
#endif

/// Evicting a store's files from the page cache, and checking that they really are out. Linux only: elsewhere
/// eviction is unsupported (the cold-launch rows say so) and residency is unknown (nil), never zero.
public enum PageCache {
  /// Pages of the store's files, and how many of them are resident in memory.
  public struct Residency: Sendable, Equatable {
    public var pages = 0
    public var resident = 0
  }

  /// Writes all dirty pages back (`sync`: dirty pages cannot be dropped; one call instead of an fsync per
  /// file, which costs minutes for a file-per-record store), asks the kernel to drop the pages of every regular
  /// file below `directory` (`posix_fadvise(POSIX_FADV_DONTNEED)`), and returns the residency afterwards
  /// (from `mincore`).
  public static func evict(_ directory: URL) throws -> Residency? {
    #if !os(Linux)
      throw StoreError.unsupported("evicting files from the page cache needs Linux (posix_fadvise, mincore)")
    #else
      sync()
      for (path, _) in DiskUsage.regularFiles(below: directory) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open", path) }
        defer { close(fd) }
        let rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
        guard rc == 0 else {
          throw WorkDirectoryError(message: "\(SystemError("posix_fadvise", path: path, code: rc))")
        }
      }
      return residency(directory)
    #endif
  }

  /// Reads every regular file below `directory` once, so that its pages are in the page cache: a store kept from
  /// one repetition to the next starts each in the state its first started in (just filled or copied, every page
  /// resident), not in whatever the repetitions of other cases in between left of it. Unreadable files are skipped
  /// (the repetition itself will report them).
  public static func warm(_ directory: URL) {
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    for (path, _) in DiskUsage.regularFiles(below: directory) {
      let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
      guard fd >= 0 else { continue }
      defer { close(fd) }
      while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
    }
  }

  /// Counts the pages of every regular file below `directory` and those resident (`mincore` on a read-only
  /// mapping; trustworthy for files this user owns).
  public static func residency(_ directory: URL) -> Residency? {
    #if !os(Linux)
      return nil
    #else
      var total = Residency()
      let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
      for (path, info) in DiskUsage.regularFiles(below: directory) where info.st_size > 0 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { continue }
        defer { close(fd) }
        let length = Int(info.st_size)
        let pages = (length + pageSize - 1) / pageSize
        guard let mapping = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0), mapping != MAP_FAILED else {
          continue
        }
        defer { munmap(mapping, length) }
        var vector = [UInt8](repeating: 0, count: pages)
        guard mincore(mapping, length, &vector) == 0 else { continue }
        total.pages += pages
        total.resident += vector.reduce(0) { $0 + Int($1 & 1) }
      }
      return total
    #endif
  }

  static func failure(_ operation: String, _ path: String) -> WorkDirectoryError {
    WorkDirectoryError(message: "\(SystemError(operation, path: path))")
  }
}
