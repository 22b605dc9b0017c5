#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StoreBenchMeasure
import StoreBenchContract

/// Writes report files so that a reader sees the old file or the complete new one, never a truncated one:
/// data goes to `<name>.partial` in the same directory, is fsynced, and is renamed over the target.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL) throws {
        let partial = url.appendingPathExtension("partial")
        let fd = open(partial.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("cannot create", partial) }
        var ok = FileBytes.writeAll(data, to: fd)
        let writeError = errno
        ok = ok && fsync(fd) == 0
        close(fd)
        guard ok else {
            unlink(partial.path)
            errno = writeError
            throw failure("cannot write", url)
        }
        try commit(partial, to: url)
    }

    /// Renames a finished `.partial` file over its target.
    public static func commit(_ partial: URL, to url: URL) throws {
        guard rename(partial.path, url.path) == 0 else {
            let error = failure("cannot rename \(partial.lastPathComponent) to", url)
            unlink(partial.path)
            throw error
        }
    }

    static func failure(_ what: String, _ url: URL) -> ReportError {
        ReportError(message: "\(what) \(url.path): \(String(cString: strerror(errno)))")
    }
}
