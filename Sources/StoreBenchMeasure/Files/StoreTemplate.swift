import Foundation
import StoreBenchContract

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A filled store kept aside, closed, so that every repetition of a case can start from its own copy instead of
/// filling a store again: filling a large store before the clock is what used to eat a row's time cap.
///
/// The template is taken from a store directory after the store was closed cleanly (its library has folded any
/// write-ahead log back and released its locks), and every copy is proven identical to it: the digest of every
/// file's relative path and bytes, taken when the template is made, must be the copy's digest. Both the template
/// and each copy are flushed to disk (`syncfs`) before the clock can start, so that no repetition pays for writing
/// back the pages of a copy it did not write (a freshly filled store has synced what its library syncs; a copy has
/// synced everything).
public struct StoreTemplate: Sendable {
  /// Where the template lives (a directory of the run's work directory).
  public let directory: URL
  /// The digest of its files (``digest(of:)``).
  public let digest: String
  /// Its files, relative paths, sorted.
  public let files: [String]
  /// The bytes of its files.
  public let bytes: Int64

  /// A template already kept in `directory`, with the digest, files and size its capture took.
  public init(directory: URL, digest: String, files: [String], bytes: Int64) {
    self.directory = directory
    self.digest = digest
    self.files = files
    self.bytes = bytes
  }

  /// Copies the closed store in `store` to `directory` (which must not exist) and takes its digest.
  public static func capture(_ store: URL, into directory: URL) throws -> StoreTemplate {
    try PrivateCopy.copyTree(from: store, to: directory)
    flush()
    let (digest, files, bytes) = try Self.digest(of: directory)
    return StoreTemplate(directory: directory, digest: digest, files: files, bytes: bytes)
  }

  /// Copies the template's files into `destination` (an empty directory), flushes them and proves the copy
  /// identical; throws ``Mismatch`` when it is not.
  public func restore(into destination: URL) throws {
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
      try PrivateCopy.copyTree(
        from: directory.appendingPathComponent(name), to: destination.appendingPathComponent(name))
    }
    Self.flush()
    let copy = try Self.digest(of: destination)
    guard copy.digest == digest else {
      throw Mismatch(
        description: "the copy of the filled store in \(destination.path) differs from its template "
          + "\(directory.path): digest \(copy.digest) (\(copy.files.count) files, \(copy.bytes) bytes), "
          + "expected \(digest) (\(files.count) files, \(bytes) bytes)")
    }
  }

  /// A copy that differs from its template.
  public struct Mismatch: Error, CustomStringConvertible {
    public let description: String
  }

  /// FNV-1a over every regular file under `root`, in sorted order of relative path: its path, its size and its
  /// bytes. Returns the digest, the relative paths and the total size.
  public static func digest(of root: URL) throws -> (digest: String, files: [String], bytes: Int64) {
    var files: [String] = []
    try collect(root, relative: "", into: &files)
    files.sort()
    var hash = FNV1a()
    var total: Int64 = 0
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    for file in files {
      hash.combine(file)
      let path = root.appendingPathComponent(file).path
      let fd = try SystemError.check("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
      defer { close(fd) }
      var size: Int64 = 0
      while true {
        let count = try SystemError.check("read", path: path) {
          buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        }
        if count == 0 { break }
        buffer.withUnsafeBytes { hash.combine(buffer: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        size += Int64(count)
      }
      hash.combine(size)
      total += size
    }
    return (hash.hex, files, total)
  }

  private static func collect(_ url: URL, relative: String, into files: inout [String]) throws {
    var info = stat()
    try SystemError.check("stat", path: url.path) { lstat(url.path, &info) }
    if info.st_mode & S_IFMT == S_IFDIR {
      for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
        try collect(
          url.appendingPathComponent(name), relative: relative.isEmpty ? name : "\(relative)/\(name)",
          into: &files)
      }
    } else if !relative.isEmpty {
      files.append(relative)
    }
  }

  /// Writes back every dirty page before the copy is used (one `sync`, not an fsync per file: a file-per-record
  /// store has thousands; Swift's Glibc does not import `syncfs`). It flushes other files too: outside the clock.
  static func flush() { sync() }
}
