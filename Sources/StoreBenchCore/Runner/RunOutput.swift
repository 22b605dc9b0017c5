#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A run's output directory, owned for the length of the run.
///
/// - A directory that already holds files is refused unless the caller forces it (or resumes the run in it), and
///   `--force` replaces only what it recognises as a previous run (its ``Kind/marker`` file, a JSON object).
/// - An exclusive lock (`flock` on `.storebench.lock`) makes a second run into the same directory refuse at once.
///   The lock file is removed when the claim is given up, so neither a refusal nor a finished run leaves it.
/// - A refused claim leaves nothing: directories it created are removed again.
/// - Reports are written into a private staging directory (`mkdtemp`: never a followed symlink, never a file left
///   by someone else) and published together at the end: the previous run's report files are removed, then every
///   staged file is renamed into place. A failure before publishing leaves the directory as it was.
public final class RunOutput {
    public let url: URL
    private var lock: Int32 = -1
    /// Directories this claim created, deepest last (removed again when the claim is refused).
    private var created: [URL] = []
    /// Files and directories a storebench run, report, chart or crash run writes; `--force` removes these.
    public static let reportNames = ["samples.csv", "summary.csv", "summary.json", "environment.json", "report.md", "charts",
                                     "durability.csv", "durability.environment.json", "classes.csv", "rounds.csv",
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

    /// What the directory holds: a run (`environment.json`) or a crash run (`durability.environment.json`).
    public enum Kind {
        case run, crash
        /// The file by which `--force` recognises a previous output of this kind.
        var marker: String { self == .run ? "environment.json" : "durability.environment.json" }
        var what: String { self == .run ? "storebench run" : "storebench crash run" }
    }

    /// Claims `url`. `inputs`: files the command reads (the scenario); a claim that would remove one of them when
    /// it publishes is refused.
    public init(_ url: URL, existing: Existing, kind: Kind = .run, inputs: [URL] = []) throws {
        self.url = url
        do {
            try claim(existing: existing, kind: kind, inputs: inputs)
        } catch {
            releaseRemovingIfEmpty()
            throw error
        }
    }

    /// Checks a requested output path before anything is created: not empty, and within the system's limits on a
    /// path (4,095 bytes) and on each name in it (255 bytes), so that an impossible path fails before its first
    /// directories exist.
    public static func checkPath(_ path: String, option: String = "--out") throws {
        guard !path.isEmpty else { throw Refusal(description: "\(option) is empty; name a directory") }
        let absolute = URL(fileURLWithPath: path).path
        guard absolute.utf8.count < Int(PATH_MAX) else {
            throw Refusal(description: "\(option) is \(absolute.utf8.count) bytes long; paths are limited to \(PATH_MAX - 1)")
        }
        if let long = absolute.split(separator: "/").first(where: { $0.utf8.count > Int(NAME_MAX) }) {
            throw Refusal(description: "\(option) has a name of \(long.utf8.count) bytes ('\(long.prefix(40))…'); names are limited to \(NAME_MAX)")
        }
    }

    private func claim(existing: Existing, kind: Kind, inputs: [URL]) throws {
        try Self.checkPath(url.path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw Refusal(description: "--out \(url.path) exists and is not a directory")
        }
        try createDirectories()
        try takeLock()
        Self.removeStaleStaging(in: url)
        let present = Self.contents(of: url)
        guard !present.isEmpty else { return }
        let listing = "\(present.prefix(5).joined(separator: ", "))\(present.count > 5 ? ", …" : "")"
        switch existing {
        case .refuse:
            throw Refusal(description: "--out \(url.path) is not empty (\(listing)); choose an empty or new directory, or pass "
                          + "--force to replace the \(kind.what) in it")
        case .replace:
            let marker = url.appendingPathComponent(kind.marker)
            let recognised = (try? Data(contentsOf: marker)).flatMap { try? JSONSerialization.jsonObject(with: $0) } is [String: Any]
            guard recognised else {
                throw Refusal(description: "--out \(url.path) holds files (\(listing)) but no \(kind.what) (no readable "
                              + "\(kind.marker)); --force replaces only a previous run's reports, so choose another directory")
            }
            let own = url.resolvingSymlinksInPath()
            for input in inputs {
                let resolved = input.resolvingSymlinksInPath()
                if resolved.deletingLastPathComponent() == own, Self.reportNames.contains(resolved.lastPathComponent) {
                    throw Refusal(description: "\(input.path) is an input of this run, and --force would remove it from "
                                  + "\(url.path); move it out of the directory")
                }
            }
        case .resume:
            return
        }
    }

    /// Creates the directory and its missing parents, remembering which it created.
    private func createDirectories() throws {
        var missing: [URL] = []
        var directory = url.standardizedFileURL
        while !FileManager.default.fileExists(atPath: directory.path), directory.path != "/" {
            missing.insert(directory, at: 0)
            directory = directory.deletingLastPathComponent()
        }
        for directory in missing {
            guard mkdir(directory.path, 0o755) == 0 || errno == EEXIST else {
                throw Refusal(description: "cannot create output directory: \(SystemError("mkdir", path: directory.path))")
            }
            created.append(directory)
        }
    }

    /// Takes the exclusive lock; makes sure the locked file is still the one at the path (a run that finished
    /// removes its lock file while holding it, so a lock on a removed file proves nothing).
    private func takeLock() throws {
        let path = url.appendingPathComponent(Self.lockName).path
        for _ in 0..<3 {
            let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw Refusal(description: "output directory \(url.path) is not writable: \(SystemError("open", path: path))")
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                close(descriptor)
                throw Refusal(description: "another storebench run is writing to \(url.path) (it holds \(Self.lockName)); "
                              + "wait for it or choose another --out")
            }
            var held = stat(), atPath = stat()
            if fstat(descriptor, &held) == 0, lstat(path, &atPath) == 0, held.st_ino == atPath.st_ino, held.st_dev == atPath.st_dev {
                lock = descriptor
                return
            }
            close(descriptor)
        }
        throw Refusal(description: "cannot lock \(url.path): its \(Self.lockName) keeps being replaced")
    }

    /// What a second Ctrl-C (which exits at once) removes: the lock file, and the directories this claim created
    /// when they are still empty. Safe to call from the signal queue.
    public var emergencyCleanup: @Sendable () -> Void {
        let lockPath = url.appendingPathComponent(Self.lockName).path, created = created.map(\.path)
        return {
            unlink(lockPath)
            for directory in created.reversed() { rmdir(directory) }
        }
    }

    /// Gives up the claim and removes the directories it created when nothing was written into them (a refused
    /// claim, or a command interrupted or failed before its first file).
    public func releaseRemovingIfEmpty() {
        release()
        for directory in created.reversed() { rmdir(directory.path) }
    }


    deinit { release() }

    /// Gives up the lock (at the end of the run, or when the claim is refused) and removes the lock file.
    public func release() {
        if lock >= 0 {
            unlink(url.appendingPathComponent(Self.lockName).path)
            flock(lock, LOCK_UN)
            close(lock)
            lock = -1
        }
    }

    /// A fresh private staging directory inside the output directory.
    public func stage() throws -> URL {
        var template = Array(url.appendingPathComponent(Self.stagingPrefix + "XXXXXX").path.utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw Refusal(description: "cannot create a staging directory: \(SystemError("mkdtemp", path: url.path))")
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
                throw Refusal(description: "cannot publish: \(SystemError("rename", path: target.path))")
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
