/// Where a GDBM store builds the key of the record a point lookup reads: one allocation, grown when a key is longer
/// and otherwise reused — what a C programmer's key buffer is. A lookup built its key in temporary memory through
/// closures before, and the retains and releases of the store, the file and the uid around them were a tenth of a
/// lookup's Swift cost (perf, `storebench overhead`). Used by one thread at a time, as the GDBM handle itself is.
final class KeyBuffer {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = capacity
        storage = .allocate(byteCount: capacity, alignment: 8)
    }

    deinit { storage.deallocate() }

    /// `prefix` followed by the UTF-8 bytes of `text`, valid until the next call.
    @inline(__always)
    func key(_ prefix: StaticString, _ text: String) -> UnsafeRawBufferPointer {
        let count = prefix.utf8CodeUnitCount + text.utf8.count
        if count > capacity { grow(to: count) }
        storage.copyMemory(from: prefix.utf8Start, byteCount: prefix.utf8CodeUnitCount)
        let rest = storage + prefix.utf8CodeUnitCount
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes in
            if let base = bytes.baseAddress { rest.copyMemory(from: base, byteCount: bytes.count) }
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
