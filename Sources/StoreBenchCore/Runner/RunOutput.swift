#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A run's output directory, owned for the length of the run.
///
/// - A directory that already holds files is refused unless the caller forces it (or resumes the run in it).
/// - An exclusive lock (`flock` on `.storebench.lock`) makes a second run into the same directory refuse at once.
/// - Reports are written into a private staging directory (`mkdtemp`: never a followed symlink, never a file left
///   by someone else) and published together at the end: the previous run's report files are removed, then every
///   staged file is renamed into place. A failure before publishing leaves the directory as it was.
public final class RunOutput {
    public let url: URL
    private var lock: Int32
    /// Files and directories a storebench run, report, chart or crash run writes; `--force` removes these.
    public static let reportNames = ["samples.csv", "summary.csv", "summary.json", "environment.json", "report.md", "charts",
                                     "durability.csv", "durability.environment.json", "classes.csv",
                                     "samples.csv.partial", "summary.csv.partial",
                                     "environment.json.partial"]
    static let lockName = ".storebench.lock"
    static let stagingPrefix = ".staging-"

    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Claims `url`, creating it when missing. `existing`: `.refuse` fails on a directory holding anything but a
    /// lock or old staging directories; `.replace` (`--force`) and `.resume` accept it.
    public enum Existing { case refuse, replace, resume }

    public init(_ url: URL, existing: Existing) throws {
        self.url = url
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw Refusal(description: "--out \(url.path) exists and is not a directory")
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw Refusal(description: "cannot create output directory \(url.path): \(error.localizedDescription)")
        }
        lock = open(url.appendingPathComponent(Self.lockName).path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard lock >= 0 else {
            throw Refusal(description: "output directory \(url.path) is not writable: \(String(cString: strerror(errno)))")
        }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            close(lock)
            throw Refusal(description: "another storebench run is writing to \(url.path) (it holds \(Self.lockName)); "
                          + "wait for it or choose another --out")
        }
        Self.removeStaleStaging(in: url)
        let present = Self.contents(of: url)
        if existing == .refuse && !present.isEmpty {
            release()
            throw Refusal(description: "--out \(url.path) is not empty (\(present.prefix(5).joined(separator: ", "))"
                          + "\(present.count > 5 ? ", …" : "")); choose an empty or new directory, or pass --force to "
                          + "replace the run in it")
        }
    }

    deinit { release() }

    /// Gives up the lock (at the end of the run, or when the claim is refused).
    public func release() {
        if lock >= 0 {
            flock(lock, LOCK_UN)
            close(lock)
            lock = -1
        }
    }

    /// A fresh private staging directory inside the output directory.
    public func stage() throws -> URL {
        var template = Array(url.appendingPathComponent(Self.stagingPrefix + "XXXXXX").path.utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw Refusal(description: "cannot create a staging directory in \(url.path): \(String(cString: strerror(errno)))")
        }
        return URL(fileURLWithPath: template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, isDirectory: true)
    }

    /// Removes the previous run's report files, renames every file of `staging` into the output directory and
    /// removes `staging`. Names outside ``reportNames`` that the user keeps in the directory stay.
    public func publish(_ staging: URL) throws {
        for name in Self.reportNames {
            let old = url.appendingPathComponent(name)
            if (try? FileManager.default.attributesOfItem(atPath: old.path)) != nil {
                do {
                    try FileManager.default.removeItem(at: old)
                } catch {
                    throw Refusal(description: "cannot remove the previous run's \(old.path): \(error.localizedDescription)")
                }
            }
        }
        let staged = (try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []
        for name in staged.sorted() {
            let source = staging.appendingPathComponent(name), target = url.appendingPathComponent(name)
            guard rename(source.path, target.path) == 0 else {
                throw Refusal(description: "cannot publish \(target.path): \(String(cString: strerror(errno)))")
            }
        }
        _ = FileBytes.syncDirectory(url.path)
        try? FileManager.default.removeItem(at: staging)
    }

    /// Abandons a staging directory (the run failed before publishing).
    public func discard(_ staging: URL) {
        try? FileManager.default.removeItem(at: staging)
    }

    /// What the directory holds besides the lock and staging directories.
    static func contents(of url: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [])
            .filter { $0 != lockName && !$0.hasPrefix(stagingPrefix) }.sorted()
    }

    /// Staging directories of runs that died (we hold the lock, so no live run owns one).
    private static func removeStaleStaging(in url: URL) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] where name.hasPrefix(stagingPrefix) {
            try? FileManager.default.removeItem(at: url.appendingPathComponent(name))
        }
    }
}
