/// How a store lets several processes use its files at the same time (``ProcessSharingStore``): what the library
/// coordinates, and which writes replace a whole file from one process's copy (last writer wins).
public struct ProcessSharing: Sendable {
  /// One line for the row and docs/BACKENDS.md: what the library does when two processes write.
  public let how: String
  /// Whether a process must close the store between its operations so that the other can open it (GDBM's single
  /// writer: an open store holds the writer's lock).
  public let opensPerOperation: Bool
  /// The file a write to `target` replaces whole from the writing process's copy, or nil when the library changes
  /// only the written record, in place (SQLite, LMDB, GDBM). Two writes naming the same file overwrite each other:
  /// a write missing afterwards is a lost update when the other process later rewrote that file.
  public let rewrittenFile: @Sendable (SharedTarget) -> String?

  public init(
    how: String, opensPerOperation: Bool = false,
    rewrittenFile: @escaping @Sendable (SharedTarget) -> String? = { _ in nil }
  ) {
    self.how = how
    self.opensPerOperation = opensPerOperation
    self.rewrittenFile = rewrittenFile
  }
}

/// What a write of the `shared` workload changed: one article (a new one, an edit, a mark) or one setting.
public enum SharedTarget: Sendable, Hashable, Codable {
  case article(String)
  case setting(String)
}

/// The time a store's process spent waiting for another process's lock, as the library lets it be counted: busy
/// handler calls and the time they slept (SQLite, GRDB), or the write-lock acquisitions timed around the call (LMDB).
public struct LockWaits: Sendable, Codable, Equatable {
  /// Waits: busy-handler calls, or lock acquisitions that had to wait.
  public var waits: Int
  /// Their total time, in nanoseconds.
  public var nanoseconds: UInt64

  public init(waits: Int = 0, nanoseconds: UInt64 = 0) {
    self.waits = waits
    self.nanoseconds = nanoseconds
  }

  public static func + (a: LockWaits, b: LockWaits) -> LockWaits {
    LockWaits(waits: a.waits + b.waits, nanoseconds: a.nanoseconds + b.nanoseconds)
  }
}
