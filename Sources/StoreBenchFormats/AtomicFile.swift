import Foundation
import StoreBenchContract
import StoreBenchMeasure

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes report files so that a reader sees the old file or the complete new one, never a truncated one: data
/// goes to a fresh temporary file in the same directory (`mkstemp`: created exclusively, so a planted file or
/// symlink is never opened or followed), is fsynced, and is renamed over the target (which replaces a symlink
/// there rather than writing through it). A failure removes the temporary file.
public enum AtomicFile {
  /// Writes `data` to `url` (see the type). Refuses a target that exists and is not a regular file
  /// (``checkTarget(_:inputs:)``), and one that is any of `inputs`.
  public static func write(_ data: Data, to url: URL, inputs: [URL] = []) throws {
    try write(data, to: url, protecting: inputs.compactMap(FileIdentity.init))
  }

  /// Writes `data` to `url` unless it is one of the files `inputs` identifies (already opened by the caller).
  public static func write(_ data: Data, to url: URL, protecting inputs: [FileIdentity]) throws {
    try checkTarget(url, protecting: inputs)
    let (fd, temporary) = try createTemporary(for: url)
    var ok = FileBytes.writeAll(data, to: fd)
    let writeError = errno
    ok = ok && fsync(fd) == 0
    close(fd)
    guard ok else {
      unlink(temporary.path)
      errno = writeError
      throw failure("cannot write", url)
    }
    try commit(temporary, to: url)
  }

  /// Throws unless `url` is missing or a regular file (a symlink is refused: storebench neither writes through
  /// nor replaces a link), and unless it is one of `inputs` — compared by device and inode after opening them, so
  /// `compare --csv out/A/samples.csv` or `export RUN --out RUN/summary.csv` never replaces its own input. Call it
  /// before any work, so bad input fails with nothing written.
  public static func checkTarget(_ url: URL, inputs: [URL] = []) throws {
    try checkTarget(url, protecting: inputs.compactMap(FileIdentity.init))
  }

  static func checkTarget(_ url: URL, protecting inputs: [FileIdentity]) throws {
    var target = stat()
    guard lstat(url.path, &target) == 0 else {
      guard errno == ENOENT else { throw failure("cannot write", url) }
      return
    }
    let type = target.st_mode & S_IFMT
    guard type == S_IFREG else {
      let kind = FileKind.describe(target.st_mode)
      throw ReportError(
        message: "\(url.path) is \(kind); storebench writes reports only to regular files, "
          + "which it replaces whole", exit: .badInput)
    }
    for input in inputs where input.isInside(url) {
      throw ReportError(
        message: "\(url.path) is the input \(input.path); write the report elsewhere", exit: .badInput)
    }
  }

  /// Creates `.<name>.XXXXXX` beside `url`, exclusively (mode 0644); returns its descriptor and path.
  public static func createTemporary(for url: URL) throws -> (Int32, URL) {
    let directory = url.deletingLastPathComponent()
    var template = Array(directory.appendingPathComponent(".\(url.lastPathComponent).XXXXXX").path.utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw failure("cannot create a file in", directory) }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    fchmod(fd, 0o644)
    return (fd, URL(fileURLWithPath: template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }))
  }

  /// Renames a finished temporary file over its target and syncs the directory.
  public static func commit(_ temporary: URL, to url: URL) throws {
    guard rename(temporary.path, url.path) == 0 else {
      let error = failure("cannot rename \(temporary.lastPathComponent) to", url)
      unlink(temporary.path)
      throw error
    }
    _ = FileBytes.syncDirectory(url.deletingLastPathComponent().path)
  }

  public static func failure(_ what: String, _ url: URL) -> ReportError {
    ReportError(message: "\(what) \(url.path): \(SystemError(what, path: url.path).message)")
  }
}
