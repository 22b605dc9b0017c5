import Foundation
import StoreBenchContract
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A private directory (mode 0700, created with `mkdtemp` so it never follows or reuses an existing path)
/// that is removed with everything in it by ``remove()``.
public final class WorkDirectory {
  public let url: URL
  /// Finished stores wait here (``retire(_:)``) instead of being deleted at once.
  private var trash: URL { url.appendingPathComponent(".retired", isDirectory: true) }
  private var trashBytes: Int64 = 0
  private var retiredCount = 0
  /// How many bytes of finished stores may wait before they are deleted (see ``retire(_:)``).
  public var retireBudgetBytes: Int64 = 4 << 30

  /// Creates `<parent>/<prefix>XXXXXX`. Throws a message naming the parent when that is impossible.
  /// `removedOnSignal`: the request's clean-up removes the directory. The clean-up is added before the directory
  /// is made and waits while it is being made (one lock held from `mkdtemp` until its path is known), so no signal
  /// finds it made and not yet known: a Ctrl-C between `mkdtemp` and the registration once left it behind.
  public init(in parent: URL, prefix: String, removedOnSignal interrupt: InterruptRequest? = nil) throws {
    let made = Mutex<URL?>(nil)
    interrupt?.addCleanup {
      if let url = made.withLock({ $0 }) { WorkDirectory.removeTree(url) }
    }
    url = try made.withLock { made in
      var template = Array(parent.appendingPathComponent(prefix + "XXXXXX").path.utf8CString)
      let created = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!) }
      guard created != nil else {
        let reason = SystemError("mkdtemp", path: parent.path).message
        throw WorkDirectoryError(message: "cannot create a work directory in \(parent.path): \(reason)")
      }
      let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
      made = URL(fileURLWithPath: path, isDirectory: true)
      return made!
    }
    try? Data(ProcessOwner.current.recorded.utf8).write(to: url.appendingPathComponent(ProcessOwner.fileName))
  }

  /// The prefixes storebench's commands give their work directories (`<prefix>XXXXXX`).
  public static let prefixes = [
    "storebench-", "storebench-verify-", "storebench-crash-", "storebench-overhead-", "storebench-images-",
  ]

  /// Removes the work directories in `parent` (named one of ``prefixes`` + six characters, holding an `.owner`
  /// file) whose owner, recorded when they were made, is no longer running: what a killed command left behind,
  /// whichever command it was. Returns their paths.
  public static func removeAbandoned(in parent: URL) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
    var removed: [String] = []
    for name in names.sorted() {
      let base = name.hasSuffix(removingSuffix) ? String(name.dropLast(removingSuffix.count)) : name
      guard prefixes.contains(where: { base.hasPrefix($0) && base.count == $0.count + 6 }) else { continue }
      let directory = parent.appendingPathComponent(name, isDirectory: true)
      let recorded = try? String(
        contentsOf: directory.appendingPathComponent(ProcessOwner.fileName), encoding: .utf8)
      if let recorded, let owner = ProcessOwner(recorded: recorded) {
        guard !owner.isRunning else { continue }
      } else {
        // No owner record: only a tree being removed loses it, and one left for a minute is abandoned.
        let modified =
          (try? FileManager.default.attributesOfItem(atPath: directory.path))?[.modificationDate] as? Date
        guard name.hasSuffix(removingSuffix), let modified, -modified.timeIntervalSinceNow > 60 else {
          continue
        }
      }
      removeTree(directory)
      removed.append(directory.path)
    }
    return removed
  }

  /// Creates a private subdirectory `name` (mode 0700).
  public func subdirectory(_ name: String) throws -> URL {
    let child = url.appendingPathComponent(name, isDirectory: true)
    guard mkdir(child.path, 0o700) == 0 else {
      let reason = SystemError("mkdir", path: child.path).message
      throw WorkDirectoryError(message: "cannot create \(child.path): \(reason)")
    }
    return child
  }

  /// Removes the directory and everything below it (sidecar files included).
  public func remove() {
    Self.removeTree(url)
  }

  /// The suffix a tree gets while it is being removed.
  static let removingSuffix = ".removing"

  /// Makes `url` (mode 0700) when it is missing, never its parents: after a second Ctrl-C has removed the work
  /// directory, a main thread still finishing its step must not make the directory again, with nobody left to
  /// remove it (the end-of-run disk probe once left `storebench-XXXXXX/floors-<pid>` behind that way).
  public static func makeDirectory(_ url: URL) throws {
    guard mkdir(url.path, 0o700) == 0 || errno == EEXIST else {
      throw WorkDirectoryError(message: SystemError("mkdir", path: url.path).message)
    }
  }

  /// Removes one tree: renamed aside first (`<name>.removing`, one atomic step), then deleted. A thread still
  /// creating files in it (the runner, when a second Ctrl-C runs this clean-up and exits) then fails on the old
  /// path instead of re-filling a directory whose owner record is already gone; a deletion cut short leaves a
  /// `.removing` tree that the next command removes.
  public static func removeTree(_ url: URL) {
    let doomed = url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + removingSuffix)
    if rename(url.path, doomed.path) == 0 {
      try? FileManager.default.removeItem(at: doomed)
    } else {
      try? FileManager.default.removeItem(at: url)
    }
  }

  /// Puts a finished store aside instead of deleting it. On ext4, creating files where many were deleted in
  /// the last half minute is several times slower (the inode allocator skips recently freed inodes), so deleting
  /// each store at once would slow the next repetition's file creation; stores are deleted together when they
  /// exceed ``retireBudgetBytes`` (or a quarter of the free space) and when the run ends. Falls back to deleting
  /// when the move fails.
  public func retire(_ store: URL) {
    let bytes = DiskUsage.of(store).allocatedBytes
    retiredCount += 1
    let destination = trash.appendingPathComponent("\(retiredCount)-\(store.lastPathComponent)")
    do {
      // mkdir, never "with intermediate directories": after a second Ctrl-C has renamed the work directory
      // away, that would make it again, with nobody left to remove it.
      try Self.makeDirectory(trash)
      try FileManager.default.moveItem(at: store, to: destination)
      trashBytes += bytes
    } catch {
      Self.removeTree(store)
    }
    if trashBytes > min(retireBudgetBytes, Self.freeBytes(at: url) / 4) { emptyTrash() }
  }

  /// Deletes the stores put aside by ``retire(_:)``.
  public func emptyTrash() {
    Self.removeTree(trash)
    trashBytes = 0
  }

  /// Free bytes on the file system of `url` (`Int64.max` when unknown).
  public static func freeBytes(at url: URL) -> Int64 {
    let attributes = try? FileManager.default.attributesOfFileSystem(forPath: url.path)
    return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value ?? .max
  }

  /// Whether `path` lies on a memory-backed file system (results there say nothing about a disk).
  public static func isMemoryBacked(_ path: String) -> Bool {
    ["tmpfs", "ramfs"].contains(fileSystemType(of: path))
  }
}

public struct WorkDirectoryError: Error, CustomStringConvertible {
  public let message: String
  public init(message: String) { self.message = message }
  public var description: String { message }
}

/// The process that made a work directory: its pid and start time (so a reused pid is not mistaken for it).
struct ProcessOwner: Equatable {
  static let fileName = ".owner"
  let pid: Int32
  let startTicks: UInt64

  static var current: ProcessOwner {
    ProcessOwner(pid: getpid(), startTicks: ProcessTable.stat(of: getpid())?.startTicks ?? 0)
  }

  init(pid: Int32, startTicks: UInt64) {
    self.pid = pid
    self.startTicks = startTicks
  }

  /// `"<pid> <start ticks>"`.
  init?(recorded: String) {
    let parts = recorded.split(separator: " ")
    guard parts.count == 2, let pid = Int32(parts[0]),
      let ticks = UInt64(parts[1].trimmingCharacters(in: .whitespacesAndNewlines))
    else {
      return nil
    }
    self.init(pid: pid, startTicks: ticks)
  }

  var recorded: String { "\(pid) \(startTicks)" }

  /// Whether that very process still runs (not a reused pid, not a zombie).
  var isRunning: Bool { ProcessTable.isRunning(pid, startTicks: startTicks) }
}
