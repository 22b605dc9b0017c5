#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StoreBenchContract

/// Copies a directory tree so that a library can do what it likes to the copy and nothing to the original.
///
/// - Symlinks are followed and their *contents* copied: a store file linked in from elsewhere is copied, not the
///   link (a copied link would let the library write through it to the real store).
/// - Only regular files and directories are copied. A FIFO, socket or device anywhere in the tree is refused
///   before anything is read (reading a FIFO blocks until a writer comes), and every file is opened with
///   `O_NONBLOCK` and checked again with `fstat`, so a file swapped for a FIFO in between cannot block either.
/// - Trees deeper than ``maximumDepth`` (a symlink loop) are refused.
public enum PrivateCopy {
    public static let maximumDepth = 16

    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Copies the contents of `source` into `destination` (created, mode 0700).
    public static func copyTree(from source: URL, to destination: URL) throws {
        try check(source, depth: 0)
        try copy(source, to: destination, depth: 0)
    }

    private static func kind(_ mode: mode_t) -> String { FileKind.describe(mode) }

    /// Refuses the tree before anything is copied.
    private static func check(_ url: URL, depth: Int) throws {
        guard depth <= maximumDepth else {
            throw Refusal(description: "\(url.path): nested deeper than \(maximumDepth) directories (a symlink loop?)")
        }
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            throw Refusal(description: "\(SystemError("stat", path: url.path))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR:
            let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
            for name in names { try check(url.appendingPathComponent(name), depth: depth + 1) }
        default:
            throw Refusal(description: "\(url.path) is \(kind(info.st_mode)), not a store file; it is not read")
        }
    }

    private static func copy(_ url: URL, to destination: URL, depth: Int) throws {
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw Refusal(description: "\(SystemError("stat", path: url.path))") }
        if info.st_mode & S_IFMT == S_IFDIR {
            guard mkdir(destination.path, 0o700) == 0 else {
                throw Refusal(description: "\(SystemError("mkdir", path: destination.path))")
            }
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
                try copy(url.appendingPathComponent(name), to: destination.appendingPathComponent(name), depth: depth + 1)
            }
            return
        }
        let input = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard input >= 0 else { throw Refusal(description: "\(SystemError("open", path: url.path))") }
        defer { close(input) }
        guard fstat(input, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw Refusal(description: "\(url.path) is \(kind(info.st_mode)), not a store file; it is not read")
        }
        let output = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard output >= 0 else {
            throw Refusal(description: "\(SystemError("open", path: destination.path))")
        }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count == 0 { break }
            guard count > 0 else {
                if errno == EINTR { continue }
                throw Refusal(description: "\(SystemError("read", path: url.path))")
            }
            var written = 0
            while written < count {
                let result = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                guard result > 0 else {
                    if result < 0 && errno == EINTR { continue }
                    throw Refusal(description: "\(SystemError("write", path: destination.path))")
                }
                written += result
            }
        }
    }
}
