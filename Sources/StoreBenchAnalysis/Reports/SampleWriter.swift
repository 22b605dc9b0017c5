import Foundation
import StoreBenchContract
import StoreBenchMeasure

#if canImport(Glibc)
  import Glibc
#endif

/// Streams `samples.csv` row by row into a fresh temporary file beside it (``AtomicFile/createTemporary(for:)``, so
/// memory does not grow with repetitions) and renames it into place only when the run completes. ``discard()``
/// removes the temporary file.
public final class SampleWriter {
  private let target: URL
  private let partial: URL
  private var descriptor: Int32
  /// The file's columns (its header).
  public let columns: ColumnSet

  /// Starts `url` with the header of `columns`.
  public init(url: URL, columns: ColumnSet) throws {
    target = url
    self.columns = columns
    (descriptor, partial) = try AtomicFile.createTemporary(for: url)
    do {
      try write(CSVFormat.encode([columns.sampleHeader]))
    } catch {
      discard()
      throw error
    }
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// Appends one row (CSV-encoded, CRLF-terminated).
  public func append(_ sample: Sample) throws {
    try write(CSVFormat.encode([sample.fields(columns)]))
  }

  /// Appends a row read back from an earlier samples.csv of the same binary, cell for cell.
  public func append(cells: [String]) throws {
    try write(CSVFormat.encode([cells]))
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
