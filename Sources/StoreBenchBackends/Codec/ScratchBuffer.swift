import StoreBenchContract

/// Where a store encodes each record before its library copies it (LMDB's `mdb_put`, GDBM's `gdbm_store`), or builds
/// the key of a record it stores or looks up: one allocation, grown when a record or key is larger and otherwise
/// reused, never zero-filled — what a C programmer's stack buffer is. Used by one thread at a time (a store's write
/// path; a GDBM store, which a second thread only reaches through `SharedStore.locked`).
///
/// For keys: a GDBM lookup built its key in temporary memory through closures before, and the retains and releases
/// of the store, the file and the uid around them were a tenth of a lookup's Swift cost (perf, `storebench
/// overhead`); the key is now built here and the fetch called directly.
final class ScratchBuffer {
  private var storage: UnsafeMutableRawPointer
  private var capacity: Int

  init(capacity: Int = 4096) {
    self.capacity = capacity
    storage = .allocate(byteCount: capacity, alignment: 8)
  }

  deinit { storage.deallocate() }

  /// Calls `body` with `article`'s encoded bytes (``RecordCodec``), valid only inside `body`.
  @inline(__always)
  func withEncoded<T>(_ article: Article, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
    let size = RecordCodec.encodedSize(article)
    if size > capacity { grow(to: size) }
    let written = RecordCodec.encode(article, into: UnsafeMutableRawBufferPointer(start: storage, count: size))
    return try body(UnsafeRawBufferPointer(start: storage, count: written))
  }

  /// `prefix` followed by the UTF-8 bytes of `text`, valid until the buffer is next used.
  @inline(__always)
  func key(_ prefix: StaticString, _ text: String) -> UnsafeRawBufferPointer {
    let count = prefix.utf8CodeUnitCount + text.utf8.count
    if count > capacity { grow(to: count) }
    storage.copyMemory(from: prefix.utf8Start, byteCount: prefix.utf8CodeUnitCount)
    let rest = storage + prefix.utf8CodeUnitCount
    let copied = text.utf8.withContiguousStorageIfAvailable { bytes in
      if let base = bytes.baseAddress { rest.copyMemory(from: base, byteCount: bytes.count) }
      return true
    }
    if copied == nil {
      for (offset, byte) in text.utf8.enumerated() {
        rest.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self)
      }
    }
    return UnsafeRawBufferPointer(start: storage, count: count)
  }

  private func grow(to size: Int) {
    storage.deallocate()
    capacity = max(size, capacity * 2)
    storage = .allocate(byteCount: capacity, alignment: 8)
  }
}
