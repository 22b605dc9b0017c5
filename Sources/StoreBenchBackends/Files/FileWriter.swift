import Foundation
import StoreBenchContract
import StoreBenchMeasure

#if canImport(Glibc)
  import Glibc
#endif

/// Whole-file writes for the file-based backends, with the durability spelled out.
enum FileWriter {
  /// Writes `data` to a temporary name beside `url` (of this process) and renames it over `url`: a reader sees the old or the
  /// new file, never a torn one. With `durable`, the file is fsynced before the rename and the directory
  /// after it (so the rename itself survives a power loss).
  static func replace(_ url: URL, with data: Data, durable: Bool) throws {
    // The process's own temporary name: two processes replacing one file never write into each other's.
    let temporary = url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).\(getpid()).tmp")
    try write(data, to: temporary, durable: durable)
    guard rename(temporary.path, url.path) == 0 else { throw error("rename", url) }
    if durable { try syncDirectory(url.deletingLastPathComponent()) }
  }

  private static func write(_ data: Data, to url: URL, durable: Bool) throws {
    let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw error("open", url) }
    defer { close(fd) }
    guard FileBytes.writeAll(data, to: fd) else { throw error("write", url) }
    if durable && fsync(fd) != 0 { throw error("fsync", url) }
  }

  /// fsyncs a directory (making renames and new names in it durable).
  static func syncDirectory(_ url: URL) throws {
    guard FileBytes.syncDirectory(url.path) else { throw error("fsync", url) }
  }

  /// Flushes the written data of the file system that holds `url` (`syncfs`): one call after an untimed bulk
  /// load instead of one fsync per file, and other file systems' dirty pages are left alone.
  static func syncFileSystem(of url: URL) throws {
    let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw error("open", url) }
    defer { close(fd) }
    guard linuxSyncfs(fd) == 0 else { throw error("syncfs", url) }
  }

  static func read(_ url: URL) throws -> Data {
    do {
      return try Data(contentsOf: url)
    } catch {
      throw FileStoreError(operation: "read", path: url.path, reason: "\(error.localizedDescription)")
    }
  }

  static func error(_ operation: String, _ url: URL) -> FileStoreError {
    FileStoreError(operation: operation, path: url.path, reason: SystemError(operation, path: url.path).description)
  }
}

/// A file operation of a file-based backend failed.
struct FileStoreError: Error, CustomStringConvertible {
  let operation: String
  let path: String
  let reason: String
  var description: String { "\(operation) failed: \(reason) [file: \(path)]" }
}

/// glibc's `syncfs(2)`, which Swift's Glibc module leaves out (it is declared only under `_GNU_SOURCE`).
@_silgen_name("syncfs")
private func linuxSyncfs(_ descriptor: Int32) -> Int32
