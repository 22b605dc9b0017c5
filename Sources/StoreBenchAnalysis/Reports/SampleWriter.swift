#if canImport(Glibc)
import Glibc
#endif
import Foundation
import StoreBenchContract
import StoreBenchMeasure

/// Streams `samples.csv` row by row into `samples.csv.partial` (so memory does not grow with repetitions)
/// and renames it into place only when the run completes. ``discard()`` removes the partial file.
public final class SampleWriter {
    private let target: URL
    private let partial: URL
    private var descriptor: Int32

    public init(url: URL) throws {
        target = url
        partial = url.appendingPathExtension("partial")
        descriptor = open(partial.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw AtomicFile.failure("cannot create", partial) }
        try write(CSVFormat.encode([Sample.header]))
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Appends one row (CSV-encoded, CRLF-terminated).
    public func append(_ sample: Sample) throws {
        try write(CSVFormat.encode([sample.fields]))
    }

    private func write(_ data: Data) throws {
        guard FileBytes.writeAll(data, to: descriptor) else { throw AtomicFile.failure("cannot write", partial) }
    }

    /// Flushes the file to disk and renames it into place.
    public func finish() throws {
        let synced = fsync(descriptor) == 0
        close(descriptor)
        descriptor = -1
        guard synced else { throw AtomicFile.failure("cannot sync", partial) }
        try AtomicFile.commit(partial, to: target)
    }

    /// Abandons the report: closes and deletes the partial file.
    public func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        unlink(partial.path)
    }
}
