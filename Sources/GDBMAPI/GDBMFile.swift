import CGDBM
import Foundation

/// One GDBM database file opened for writing. Close it explicitly with ``close()``.
public final class GDBMFile {
  public let path: String
  private var handle: GDBM_FILE?

  /// Opens (creating) `path` read-write.
  public init(path: String) throws {
    self.path = path
    cgdbm_clear_errno()
    let file = gdbm_open(path, 0, GDBM_WRCREAT | GDBM_CLOEXEC, 0o600, nil)
    try check(file != nil, "gdbm_open")
    handle = file
  }

  deinit { if let handle { gdbm_close(handle) } }

  /// The one error funnel: throws ``GDBMError`` with GDBM's last error (the file's, or the global one when no
  /// file is open) unless the call `succeeded`.
  @inline(__always)
  private func check(_ succeeded: Bool, _ operation: @autoclosure () -> String) throws {
    guard !succeeded else { return }
    let code = handle.map { gdbm_last_errno($0) } ?? cgdbm_errno()
    throw GDBMError(
      code: code, systemError: handle.map { gdbm_last_syserr($0) } ?? errno, operation: operation(), path: path)
  }

  /// The one pointer conversion: `bytes` as a `datum` for the duration of `body` (GDBM only reads it).
  private static func withDatum<T>(_ bytes: [UInt8], _ body: (datum) throws -> T) rethrows -> T {
    try bytes.withUnsafeBytes { try body(datum(of: $0)) }
  }

  /// Borrowed bytes as a `datum`, valid while the bytes are.
  private static func datum(of bytes: UnsafeRawBufferPointer) -> datum {
    CGDBM.datum(
      dptr: UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: CChar.self)),
      dsize: Int32(bytes.count))
  }

  /// The bytes GDBM returned in `value`, copied; the caller frees `value.dptr`.
  private static func bytes(of value: datum) -> [UInt8] {
    guard let pointer = value.dptr else { return [] }
    return Array(UnsafeRawBufferPointer(start: pointer, count: Int(value.dsize)))
  }

  private func requireOpen() throws -> GDBM_FILE {
    guard let handle else {
      throw GDBMError(
        code: GDBMError.Code.cantBeWriter.rawValue, systemError: EBADF, operation: "use after close", path: path
      )
    }
    return handle
  }

  /// Stores `value` under `key`, replacing any old value.
  public func store(_ value: [UInt8], for key: [UInt8]) throws {
    try key.withUnsafeBytes { k in try value.withUnsafeBytes { v in try store(v, for: k) } }
  }

  /// Stores `value` under `key` from borrowed bytes (no arrays needed), as ``store(_:for:)``.
  public func store(_ value: UnsafeRawBufferPointer, for key: UnsafeRawBufferPointer) throws {
    let file = try requireOpen()
    try check(gdbm_store(file, Self.datum(of: key), Self.datum(of: value), GDBM_REPLACE) == 0, "gdbm_store")
  }

  /// The value under `key`, or nil when there is none.
  public func fetch(_ key: [UInt8]) throws -> [UInt8]? {
    try key.withUnsafeBytes { try withValue(for: $0) { Array($0) } }
  }

  /// Calls `body` with the value under `key` in the buffer GDBM returned (freed when `body` returns: decode or
  /// copy it there), or returns nil when there is none.
  ///
  /// Inlinable, so that callers get it specialized for their `T`: an unspecialized generic moves every decoded
  /// value through its type's value witnesses.
  @inlinable
  public func withValue<T>(for key: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T? {
    guard let value = try fetchedValue(for: key) else { return nil }
    defer { free(value.start) }
    return try body(UnsafeRawBufferPointer(start: value.start, count: value.count))
  }

  /// `gdbm_fetch`: the value under `key` in memory GDBM allocated (the caller frees `start`), or nil when there is
  /// none. The non-generic half of ``withValue(for:_:)``.
  @usableFromInline
  func fetchedValue(for key: UnsafeRawBufferPointer) throws -> (start: UnsafeMutableRawPointer, count: Int)? {
    let file = try requireOpen()
    let found = gdbm_fetch(file, Self.datum(of: key))
    guard let pointer = found.dptr else {
      let code = gdbm_last_errno(file)
      try check(
        code == GDBMError.Code.itemNotFound.rawValue || code == GDBMError.Code.noError.rawValue, "gdbm_fetch")
      return nil
    }
    return (UnsafeMutableRawPointer(pointer), Int(found.dsize))
  }

  /// Deletes the record under `key`; false when there was none.
  @discardableResult
  public func delete(_ key: [UInt8]) throws -> Bool {
    let file = try requireOpen()
    let rc = Self.withDatum(key) { gdbm_delete(file, $0) }
    if rc == 0 { return true }
    try check(gdbm_last_errno(file) == GDBMError.Code.itemNotFound.rawValue, "gdbm_delete")
    return false
  }

  /// Every key in the file (GDBM's hash order).
  public func keys() throws -> [[UInt8]] {
    let file = try requireOpen()
    var keys: [[UInt8]] = []
    var key = gdbm_firstkey(file)
    while let pointer = key.dptr {
      keys.append(Self.bytes(of: key))
      let next = gdbm_nextkey(file, key)
      free(pointer)
      key = next
    }
    let code = gdbm_last_errno(file)
    try check(
      code == GDBMError.Code.noError.rawValue || code == GDBMError.Code.itemNotFound.rawValue, "gdbm_nextkey")
    return keys
  }

  /// Flushes GDBM's buffers and fsyncs the file (`gdbm_sync`).
  public func sync() throws {
    try check(gdbm_sync(try requireOpen()) == 0, "gdbm_sync")
  }

  /// Rewrites the database into a fresh file and renames it over the old one (`gdbm_reorganize`): the space
  /// deleted and replaced records left behind is given back.
  public func reorganize() throws {
    try check(gdbm_reorganize(try requireOpen()) == 0, "gdbm_reorganize")
  }

  /// The buckets of the hash directory (`gdbm_bucket_count`): they split as the file grows and never merge.
  public func bucketCount() throws -> Int {
    var count = 0
    try check(gdbm_bucket_count(try requireOpen(), &count) == 0, "gdbm_bucket_count")
    return count
  }

  /// Closes the file (GDBM flushes it as it closes). Safe to call more than once.
  public func close() throws {
    guard let file = handle else { return }
    handle = nil
    try check(gdbm_close(file) == 0, "gdbm_close")
  }

  /// The GDBM library version text.
  public static var version: String { String(cString: cgdbm_version()) }
}
