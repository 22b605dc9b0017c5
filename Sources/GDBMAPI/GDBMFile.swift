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
        guard let file = gdbm_open(path, 0, GDBM_WRCREAT | GDBM_CLOEXEC, 0o600, nil) else {
            throw GDBMError(code: cgdbm_errno(), systemError: errno, operation: "gdbm_open", path: path)
        }
        handle = file
    }

    deinit { if let handle { gdbm_close(handle) } }

    /// The one error helper: throws ``GDBMError`` with GDBM's last error when `rc` is non-zero.
    @inline(__always)
    private func check(_ rc: Int32, _ operation: String) throws {
        if rc != 0 { throw lastError(operation) }
    }

    private func lastError(_ operation: String) -> GDBMError {
        let code = handle.map { gdbm_last_errno($0) } ?? cgdbm_errno()
        return GDBMError(code: code, systemError: handle.map { gdbm_last_syserr($0) } ?? errno,
                         operation: operation, path: path)
    }

    private func requireOpen() throws -> GDBM_FILE {
        guard let handle else {
            throw GDBMError(code: GDBMError.Code.cantBeWriter.rawValue, systemError: EBADF, operation: "use after close", path: path)
        }
        return handle
    }

    /// Stores `value` under `key`, replacing any old value.
    public func store(_ value: [UInt8], for key: [UInt8]) throws {
        let file = try requireOpen()
        try key.withUnsafeBufferPointer { keyBytes in
            try value.withUnsafeBufferPointer { valueBytes in
                let k = datum(dptr: UnsafeMutablePointer(mutating: keyBytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }),
                              dsize: Int32(keyBytes.count))
                let v = datum(dptr: UnsafeMutablePointer(mutating: valueBytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }),
                              dsize: Int32(valueBytes.count))
                try check(gdbm_store(file, k, v, GDBM_REPLACE), "gdbm_store")
            }
        }
    }

    /// The value under `key`, or nil when there is none.
    public func fetch(_ key: [UInt8]) throws -> [UInt8]? {
        let file = try requireOpen()
        let found = key.withUnsafeBufferPointer { keyBytes in
            gdbm_fetch(file, datum(dptr: UnsafeMutablePointer(mutating: keyBytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }),
                                   dsize: Int32(keyBytes.count)))
        }
        guard let pointer = found.dptr else {
            let code = gdbm_last_errno(file)
            if code == GDBMError.Code.itemNotFound.rawValue || code == 0 { return nil }
            throw lastError("gdbm_fetch")
        }
        defer { free(pointer) }
        return Array(UnsafeRawBufferPointer(start: pointer, count: Int(found.dsize)))
    }

    /// Deletes the record under `key`; false when there was none.
    @discardableResult
    public func delete(_ key: [UInt8]) throws -> Bool {
        let file = try requireOpen()
        let rc = key.withUnsafeBufferPointer { keyBytes in
            gdbm_delete(file, datum(dptr: UnsafeMutablePointer(mutating: keyBytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }),
                                    dsize: Int32(keyBytes.count)))
        }
        if rc == 0 { return true }
        if gdbm_last_errno(file) == GDBMError.Code.itemNotFound.rawValue { return false }
        throw lastError("gdbm_delete")
    }

    /// Every key in the file (GDBM's hash order).
    public func keys() throws -> [[UInt8]] {
        let file = try requireOpen()
        var keys: [[UInt8]] = []
        var key = gdbm_firstkey(file)
        while let pointer = key.dptr {
            keys.append(Array(UnsafeRawBufferPointer(start: pointer, count: Int(key.dsize))))
            let next = gdbm_nextkey(file, key)
            free(pointer)
            key = next
        }
        let code = gdbm_last_errno(file)
        if code != 0 && code != GDBMError.Code.itemNotFound.rawValue { throw lastError("gdbm_nextkey") }
        return keys
    }

    /// Flushes GDBM's buffers and fsyncs the file (`gdbm_sync`).
    public func sync() throws {
        try check(gdbm_sync(try requireOpen()), "gdbm_sync")
    }

    /// Closes the file (GDBM flushes it as it closes). Safe to call more than once.
    public func close() throws {
        guard let file = handle else { return }
        handle = nil
        if gdbm_close(file) != 0 {
            throw GDBMError(code: cgdbm_errno(), systemError: errno, operation: "gdbm_close", path: path)
        }
    }

    /// The GDBM library version text.
    public static var version: String { String(cString: cgdbm_version()) }
}
