import Foundation
import StoreBenchContract

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Copies a directory tree so that a library can do what it likes to the copy and nothing to the original.
///
/// - Symlinks are followed and their *contents* copied: a store file linked in from elsewhere is copied, not the
///   link (a copied link would let the library write through it to the real store).
/// - Only regular files and directories are copied. A FIFO, socket or device anywhere in the tree is refused
///   before anything is read (reading a FIFO blocks until a writer comes), and every file is opened with
///   `O_NONBLOCK` and checked again with `fstat`, so a file swapped for a FIFO in between cannot block either.
/// - Trees deeper than ``maximumDepth`` (a symlink loop) are refused.
public enum PrivateCopy {
  public static let maximumDepth = 16

  public struct Refusal: Error, CustomStringConvertible {
    public let description: String
  }

  /// Copies the contents of `source` into `destination` (created, mode 0700).
  public static func copyTree(from source: URL, to destination: URL) throws {
    try check(source, depth: 0)
    try copy(source, to: destination, depth: 0)
  }

  /// Refuses the tree before anything is copied.
  private static func check(_ url: URL, depth: Int) throws {
    guard depth <= maximumDepth else {
      throw Refusal(description: "\(url.path): nested deeper than \(maximumDepth) directories (a symlink loop?)")
    }
    var info = stat()
    try SystemError.check("stat", path: url.path) { stat(url.path, &info) }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return
    case S_IFDIR:
      let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
      for name in names { try check(url.appendingPathComponent(name), depth: depth + 1) }
    default:
      throw notAStoreFile(url, info.st_mode)
    }
  }

  private static func notAStoreFile(_ url: URL, _ mode: mode_t) -> Refusal {
    Refusal(description: "\(url.path) is \(FileKind.describe(mode)), not a store file; it is not read")
  }

  private static func copy(_ url: URL, to destination: URL, depth: Int) throws {
    var info = stat()
    try SystemError.check("stat", path: url.path) { stat(url.path, &info) }
    if info.st_mode & S_IFMT == S_IFDIR {
      try SystemError.check("mkdir", path: destination.path) { mkdir(destination.path, 0o700) }
      for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
        try copy(
          url.appendingPathComponent(name), to: destination.appendingPathComponent(name), depth: depth + 1)
      }
      return
    }
    let input = try SystemError.check("open", path: url.path) { open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
    defer { close(input) }
    guard fstat(input, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw notAStoreFile(url, info.st_mode) }
    let output = try SystemError.check("open", path: destination.path) {
      open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    }
    defer { close(output) }
    if try copyInKernel(input, to: output, url, destination) { return }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = try SystemError.check("read", path: url.path) {
        buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      }
      if count == 0 { break }
      var written = 0
      while written < count {
        written += try SystemError.check("write", path: destination.path) {
          buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
        }
      }
    }
  }

  /// Copies `input` to `output` with `sendfile` (the kernel copies the pages; no trip through a buffer of ours).
  /// Returns false, having copied nothing, where the kernel cannot do it for these files; the caller then reads
  /// and writes.
  private static func copyInKernel(_ input: Int32, to output: Int32, _ url: URL, _ destination: URL) throws -> Bool {
    #if os(Linux)
      var copied = 0
      while true {
        let count = sendfile(output, input, nil, 1 << 30)
        if count > 0 {
          copied += count
          continue
        }
        if count == 0 { return true }
        if errno == EINTR { continue }
        if copied == 0 && (errno == EINVAL || errno == ENOSYS) { return false }
        throw SystemError("sendfile", path: "\(url.path) to \(destination.path)")
      }
    #else
      return false
    #endif
  }
}
