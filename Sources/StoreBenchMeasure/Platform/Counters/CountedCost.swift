/// A cost storebench counts over a timed region: the process, every thread it runs there, and the children the
/// region starts. Each is a sum of kernel events (``EventSource``), except the two byte counts, which come from
/// `/proc/self/io`, and the costs a counting pass counts in a repetition of its own (``pass``): instructions under
/// callgrind, allocations through an interposed allocator.
public enum CountedCost: String, CaseIterable, Sendable, Codable {
  /// Durability barriers where the file system does the work: fsync, fdatasync, O_SYNC/O_DSYNC writes and
  /// msync(MS_SYNC) (ext4's sync-file tracepoint), plus sync, syncfs and sync_file_range with a wait.
  case syncs
  /// write, pwrite64, writev, pwritev, pwritev2 calls.
  case writeCalls = "write_calls"
  /// Bytes handed to write-type calls (`wchar`).
  case writtenBytes = "written_bytes"
  /// read, pread64, readv, preadv, preadv2 calls.
  case readCalls = "read_calls"
  /// Bytes returned by read-type calls, page cache or not (`rchar`).
  case readBytesLogical = "read_bytes_logical"
  /// rename, renameat, renameat2 calls.
  case renames
  /// unlink and unlinkat calls (unlinkat also removes directories).
  case unlinks
  /// New inodes the file system allocated: files and directories (ext4's allocate-inode tracepoint).
  case filesCreated = "files_created"
  case faultsMajor = "faults_major"
  case faultsMinor = "faults_minor"
  case contextSwitches = "context_switches"
  /// Page-cache pages the region dirtied, by write calls or through a shared mapping (the writeback tracepoint).
  case pagesDirtied = "pages_dirtied"
  /// Instructions this process executed in the region, counted by callgrind (``CountingPass/instructions``), without
  /// the allocator's and libdispatch's timers' (``CallgrindDump``).
  case instructions
  /// Calls that allocated memory: malloc, calloc, realloc, posix_memalign, valloc (``CountingPass/allocations``).
  case allocations
  /// Bytes those calls requested.
  case allocatedBytes = "allocated_bytes"
  /// free calls.
  case frees
}

extension CountedCost {
  /// Whether the cost is in bytes (else a count).
  public var isBytes: Bool { self == .writtenBytes || self == .readBytesLogical || self == .allocatedBytes }

  /// The counting pass that counts the cost in a repetition of its own; nil: every timed repetition counts it.
  public var pass: CountingPass? {
    switch self {
    case .instructions: .instructions
    case .allocations, .allocatedBytes, .frees: .allocations
    default: nil
    }
  }

  /// Whether a timed repetition counts it from `/proc/self/io` (the two byte counts).
  public var isProcessBytes: Bool { self == .writtenBytes || self == .readBytesLogical }

  /// One line for the column table.
  public var summary: String {
    switch self {
    case .syncs:
      "durability barriers where the file system does the work: fsync, fdatasync, O_SYNC/O_DSYNC "
        + "writes and msync(MS_SYNC) (on ext4, its sync-file tracepoint; elsewhere the calls), plus sync, syncfs "
        + "and sync_file_range with a wait"
    case .writeCalls: "write, pwrite64, writev, pwritev and pwritev2 calls"
    case .writtenBytes:
      "bytes handed to write-type calls (/proc/self/io wchar: this process and the children it reaped)"
    case .readCalls: "read, pread64, readv, preadv and preadv2 calls"
    case .readBytesLogical:
      "bytes returned by read-type calls, from the page cache or not (/proc/self/io rchar: "
        + "this process and the children it reaped)"
    case .renames: "rename, renameat and renameat2 calls"
    case .unlinks: "unlink and unlinkat calls (unlinkat also removes directories)"
    case .filesCreated: "new files and directories (ext4's inode allocations)"
    case .faultsMajor: "page faults that read from the disk (mmap stores do their I/O this way)"
    case .faultsMinor: "page faults served from memory"
    case .contextSwitches: "context switches"
    case .pagesDirtied:
      "page-cache folios made dirty, by write calls or through a shared mapping (writeback tracepoint; "
        + "a folio is one 4 KiB page, or more where the file system uses large folios)"
    case .instructions:
      "instructions this process executed, counted exactly by callgrind in the instructions pass (`run --count "
        + "instructions`): the library's code, the backend's Swift, the workload's loop and the harness's calls "
        + "inside the region; not glibc's allocator's own instructions (they depend on the heap's history: the "
        + "allocations pass counts its calls and bytes) nor libdispatch's timers', not the kernel's work (the syscall "
        + "counts are for that) nor a launched child's"
    case .allocations:
      "malloc, calloc, realloc, posix_memalign and valloc calls of this process, counted in the allocations pass "
        + "(`run --count allocations`, an interposed allocator)"
    case .allocatedBytes: "bytes those allocation calls requested (allocations pass)"
    case .frees: "free calls (allocations pass)"
    }
  }
}

/// One kernel event that adds to a ``CountedCost``.
struct EventSource: Sendable, CustomStringConvertible {
  enum Kind: Sendable {
    /// A software counter (`PERF_COUNT_SW_*`).
    case software(UInt64)
    /// A tracepoint `group:name`, optionally filtered on its fields.
    case tracepoint(group: String, name: String, filter: String?)
  }

  let kind: Kind

  static func software(_ config: UInt64) -> EventSource { EventSource(kind: .software(config)) }
  static func syscall(_ name: String, filter: String? = nil) -> EventSource {
    EventSource(kind: .tracepoint(group: "syscalls", name: "sys_enter_" + name, filter: filter))
  }
  static func tracepoint(_ group: String, _ name: String) -> EventSource {
    EventSource(kind: .tracepoint(group: group, name: name, filter: nil))
  }

  var description: String {
    switch kind {
    case .software(let config): "software counter \(config)"
    case .tracepoint(let group, let name, let filter): "\(group):\(name)" + (filter.map { " if \($0)" } ?? "")
    }
  }
}

extension CountedCost {
  /// The events whose sum is this cost on a work directory of file system `fileSystem` (`ext4`, `tmpfs`, …), or why
  /// the cost cannot be counted there.
  func sources(fileSystem: String) -> Result<[EventSource], CounterUnavailable> {
    let ext4 = fileSystem == "ext4"
    switch self {
    case .syncs:
      // sync_file_range waits only with SYNC_FILE_RANGE_WAIT_AFTER (4); msync syncs only with MS_SYNC (4).
      let always: [EventSource] = [
        .syscall("sync"), .syscall("syncfs"), .syscall("sync_file_range", filter: "flags & 4"),
      ]
      if ext4 { return .success([.tracepoint("ext4", "ext4_sync_file_enter")] + always) }
      return .success(
        [.syscall("fsync"), .syscall("fdatasync"), .syscall("msync", filter: "flags & 4")] + always)
    case .writeCalls: return .success(["write", "pwrite64", "writev", "pwritev", "pwritev2"].map { .syscall($0) })
    case .readCalls: return .success(["read", "pread64", "readv", "preadv", "preadv2"].map { .syscall($0) })
    case .renames: return .success(["rename", "renameat", "renameat2"].map { .syscall($0) })
    case .unlinks: return .success(["unlink", "unlinkat"].map { .syscall($0) })
    case .filesCreated:
      guard ext4 else {
        return .failure(
          CounterUnavailable("new inodes are counted on ext4 only (the work directory is on \(fileSystem))"))
      }
      return .success([.tracepoint("ext4", "ext4_allocate_inode")])
    case .faultsMajor: return .success([.software(6)])
    case .faultsMinor: return .success([.software(5)])
    case .contextSwitches: return .success([.software(3)])
    case .pagesDirtied: return .success([.tracepoint("writeback", "writeback_dirty_folio")])
    case .writtenBytes, .readBytesLogical: return .success([])
    case .instructions, .allocations, .allocatedBytes, .frees:
      return .failure(
        CounterUnavailable("counted in a pass of its own (storebench run --count \(pass!.rawValue)), not here"))
    }
  }
}

/// Why a cost is not counted (its cells stay empty, never zero).
public struct CounterUnavailable: Error, Sendable, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
