#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A private directory (mode 0700, created with `mkdtemp` so it never follows or reuses an existing path)
/// that is removed with everything in it by ``remove()``.
public final class WorkDirectory {
    public let url: URL

    /// Creates `<parent>/<prefix>XXXXXX`. Throws a message naming the parent when that is impossible.
    public init(in parent: URL, prefix: String) throws {
        var template = Array(parent.appendingPathComponent(prefix + "XXXXXX").path.utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!) }
        guard created != nil else {
            let reason = String(cString: strerror(errno))
            throw WorkDirectoryError(message: "cannot create a work directory in \(parent.path): \(reason)")
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        url = URL(fileURLWithPath: path, isDirectory: true)
    }

    /// Creates a private subdirectory `name` (mode 0700).
    public func subdirectory(_ name: String) throws -> URL {
        let child = url.appendingPathComponent(name, isDirectory: true)
        guard mkdir(child.path, 0o700) == 0 else {
            let reason = String(cString: strerror(errno))
            throw WorkDirectoryError(message: "cannot create \(child.path): \(reason)")
        }
        return child
    }

    /// Removes the directory and everything below it (sidecar files included).
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Removes one subdirectory tree.
    public static func removeTree(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }

    /// Whether `path` lies on a memory-backed file system (results there say nothing about a disk).
    public static func isMemoryBacked(_ path: String) -> Bool {
        ["tmpfs", "ramfs"].contains(fileSystemType(of: path))
    }
}

public struct WorkDirectoryError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
