import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file a command reads, identified by device and inode after opening it (not by its path's spelling), so that an
/// output funnel can refuse to overwrite or remove it however the user names it (`./A/../A/x`, a symlinked folder).
public struct FileIdentity: Sendable, Equatable {
  public let path: String
  public let device: UInt64
  public let inode: UInt64
  /// The file's real path (symlinks resolved), for checks against folders.
  public let realPath: String

  /// Opens `url` read-only and records what it is; nil when it cannot be opened (nothing to protect).
  public init?(_ url: URL) {
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    path = url.path
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    realPath = url.resolvingSymlinksInPath().path
  }

  /// Whether writing or removing `target` would touch this file: `target` is this file (by device and inode), or a
  /// directory that holds it.
  public func isInside(_ target: URL) -> Bool {
    var info = stat()
    guard lstat(target.path, &info) == 0 else { return false }
    if UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode { return true }
    guard info.st_mode & S_IFMT == S_IFDIR else { return false }
    let folder = target.resolvingSymlinksInPath().path
    return realPath.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
  }
}
