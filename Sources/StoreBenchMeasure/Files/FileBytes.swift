import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Plain file writes shared by the report writers and the file-per-record backend.
public enum FileBytes {
  /// Writes every byte of `data` to `fd` (retrying short writes); false on an error (see `errno`).
  public static func writeAll(_ data: Data, to fd: Int32) -> Bool {
    data.withUnsafeBytes { buffer -> Bool in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if written <= 0 { return false }
        offset += written
      }
      return true
    }
  }

  /// fsyncs the directory at `path`, making renames and new names in it durable; false on an error (`errno`).
  public static func syncDirectory(_ path: String) -> Bool {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return fsync(fd) == 0
  }
}
