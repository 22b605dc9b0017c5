import StoreBenchContract

/// Where a store encodes each record before its library copies it (LMDB's `mdb_put`, GDBM's `gdbm_store`): one
/// allocation, grown when a record is larger and otherwise reused, never zero-filled — what a C programmer's
/// stack buffer is. Used by one writer at a time (the store's write path).
final class RecordBuffer {
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

    private func grow(to size: Int) {
        storage.deallocate()
        capacity = max(size, capacity * 2)
        storage = .allocate(byteCount: capacity, alignment: 8)
    }
}
