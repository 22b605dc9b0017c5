#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Size of a store on disk: all files below its directory (sidecars such as `-wal` included).
public struct DiskUsage: Sendable, Equatable {
    /// Sum of file lengths.
    public var apparentBytes: Int64
    /// Sum of allocated blocks (`st_blocks × 512`).
    public var allocatedBytes: Int64

    /// Walks `directory` without following symbolic links.
    public static func of(_ directory: URL) -> DiskUsage {
        var usage = DiskUsage(apparentBytes: 0, allocatedBytes: 0)
        let keys: [URLResourceKey] = [.isRegularFileKey]
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: keys) else {
            return usage
        }
        for case let url as URL in enumerator {
            var info = stat()
            guard lstat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            usage.apparentBytes += Int64(info.st_size)
            usage.allocatedBytes += Int64(info.st_blocks) * 512
        }
        return usage
    }
}
