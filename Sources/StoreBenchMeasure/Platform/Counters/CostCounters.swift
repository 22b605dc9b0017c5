import CPerfEvent
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Counts ``CountedCost``s over timed regions with Linux perf events: tracepoints and software counters on every
/// thread of the process when they are opened, inherited by the threads and child processes those threads create
/// later, so a second thread or a launched child is counted too. Bytes come from `/proc/self/io` (this process and
/// the children it has reaped).
///
/// Contract: ``open(fileSystem:)`` once, on the thread that runs the timed regions, before them. Then per region:
/// ``start()`` just before the clock starts (it reads the baselines, then enables every event with one system
/// call), ``stop()`` just after the clock stops (one call disables them, then the bytes are read), ``read()`` any
/// time later, outside the clock. ``close()`` releases the descriptors. A cost that cannot be counted is absent
/// from ``read()`` (never zero) and ``missing`` says why.
public final class CostCounters {
  /// What was counted, how, and why anything was not: written once into environment.json.
  public struct Availability: Sendable, Codable, Equatable {
    /// The file system the work directory is on (the sync and inode counts depend on it).
    public let fileSystem: String
    /// How syncs are counted there.
    public let syncMethod: String
    /// The costs counted.
    public let counted: [CountedCost]
    /// The costs not counted, with the reason.
    public let missing: [String: String]

    enum CodingKeys: String, CodingKey {
      case fileSystem = "file_system"
      case syncMethod = "sync_method"
      case counted, missing
    }

    /// Nothing counted: the user turned counting off (`--no-counters`).
    public static func off(fileSystem: String) -> Availability {
      Availability(
        fileSystem: fileSystem, syncMethod: "", counted: [],
        missing: Dictionary(
          uniqueKeysWithValues: CountedCost.allCases.map {
            ($0.rawValue, "counting turned off (--no-counters)")
          }))
    }
  }

  public let availability: Availability
  private var events: [(cost: CountedCost, fd: Int32)]
  private var ioDescriptor: Int32
  private let owner: Int32
  private var before: [Int64] = []
  private var ioBefore: ProcessBytes?
  private var ioAfter: ProcessBytes?

  private init(availability: Availability, events: [(cost: CountedCost, fd: Int32)], ioDescriptor: Int32) {
    self.availability = availability
    self.events = events
    self.ioDescriptor = ioDescriptor
    owner = sb_thread_id()
  }

  deinit { close() }

  /// Opens every cost it can for a work directory on `fileSystem`; the others are in ``Availability/missing``.
  public static func open(fileSystem: String) -> CostCounters {
    var missing: [String: String] = [:]
    var events: [(cost: CountedCost, fd: Int32)] = []
    let tasks = threadIDs()
    let traceFS = TraceFS.find()
    for cost in CountedCost.allCases where cost.pass == nil && !cost.isProcessBytes {
      switch openEvents(for: cost, fileSystem: fileSystem, tasks: tasks, traceFS: traceFS) {
      case .success(let descriptors): events += descriptors.map { (cost, $0) }
      case .failure(let reason): missing[cost.rawValue] = reason.description
      }
    }
    let io = openDescriptor("/proc/self/io", O_RDONLY | O_CLOEXEC)
    if io < 0 {
      for cost in CountedCost.allCases where cost.isProcessBytes {
        missing[cost.rawValue] = "/proc/self/io cannot be read: \(String(cString: strerror(errno)))"
      }
    }
    for cost in CountedCost.allCases where cost.pass != nil {
      missing[cost.rawValue] = "counted in a pass of its own: storebench run --count \(cost.pass!.rawValue)"
    }
    let counted = CountedCost.allCases.filter { missing[$0.rawValue] == nil }
    let method =
      fileSystem == "ext4"
      ? "ext4:ext4_sync_file_enter (fsync, fdatasync, O_SYNC/O_DSYNC writes, msync MS_SYNC) + sync, syncfs, sync_file_range with a wait"
      : "fsync, fdatasync, msync MS_SYNC, sync, syncfs and sync_file_range calls (not on ext4: O_SYNC/O_DSYNC writes are not seen)"
    return CostCounters(
      availability: Availability(
        fileSystem: fileSystem, syncMethod: method, counted: counted,
        missing: missing),
      events: events, ioDescriptor: io)
  }

  /// Reads the baselines, then enables every event (call just before the clock starts).
  public func start() {
    before = events.map { Self.value($0.fd) }
    ioBefore = ProcessBytes.read(ioDescriptor)
    enable(true)
  }

  /// Disables every event, then reads the bytes (call just after the clock stops).
  public func stop() {
    enable(false)
    ioAfter = ProcessBytes.read(ioDescriptor)
  }

  /// The costs of the last region between ``start()`` and ``stop()``.
  public func read() -> [CountedCost: Int64] {
    var costs: [CountedCost: Int64] = [:]
    for (index, event) in events.enumerated() where index < before.count {
      costs[event.cost, default: 0] += Self.value(event.fd) - before[index]
    }
    if let ioBefore, let ioAfter {
      // The baseline's own read returned `ioBefore.length` bytes after its snapshot was taken.
      costs[.readBytesLogical] = ioAfter.rchar - ioBefore.rchar - Int64(ioBefore.length)
      costs[.writtenBytes] = ioAfter.wchar - ioBefore.wchar
    }
    return costs
  }

  /// Closes every descriptor (idempotent).
  public func close() {
    for event in events { closeDescriptor(event.fd) }
    events = []
    if ioDescriptor >= 0 { closeDescriptor(ioDescriptor) }
    ioDescriptor = -1
  }

  private func enable(_ on: Bool) {
    // One system call when this thread opened the events; else one per descriptor.
    if sb_thread_id() == owner {
      _ = sb_perf_enable_owned(on ? 1 : 0)
    } else {
      for event in events { _ = sb_perf_enable(event.fd, on ? 1 : 0) }
    }
  }

  private static func value(_ fd: Int32) -> Int64 {
    var count: UInt64 = 0
    let got = withUnsafeMutableBytes(of: &count) { readDescriptor(fd, $0.baseAddress, 8) }
    return got == 8 ? Int64(clamping: count) : 0
  }

  private static func threadIDs() -> [Int32] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    let ids = names.compactMap { Int32($0) }
    return ids.isEmpty ? [sb_thread_id()] : ids.sorted()
  }

  /// One descriptor per source per thread; all or nothing for the cost.
  private static func openEvents(
    for cost: CountedCost, fileSystem: String, tasks: [Int32],
    traceFS: Result<TraceFS, CounterUnavailable>
  ) -> Result<[Int32], CounterUnavailable> {
    var opened: [Int32] = []
    func fail(_ reason: CounterUnavailable) -> Result<[Int32], CounterUnavailable> {
      for fd in opened { closeDescriptor(fd) }
      return .failure(reason)
    }
    let sources: [EventSource]
    switch cost.sources(fileSystem: fileSystem) {
    case .success(let list): sources = list
    case .failure(let reason): return .failure(reason)
    }
    for source in sources {
      var type = UInt32(SB_PERF_TYPE_SOFTWARE.rawValue)
      var config: UInt64 = 0
      var filter: String?
      switch source.kind {
      case .software(let value): config = value
      case .tracepoint(let group, let name, let condition):
        let id: UInt64
        switch traceFS.flatMap({ $0.id(group: group, name: name) }) {
        case .success(let value): id = value
        case .failure(let reason): return fail(reason)
        }
        (type, config, filter) = (UInt32(SB_PERF_TYPE_TRACEPOINT.rawValue), id, condition)
      }
      for task in tasks {
        let fd = sb_perf_open(type, config, task)
        if fd == -ESRCH { continue }  // the thread ended meanwhile
        guard fd >= 0 else {
          return fail(
            CounterUnavailable(
              "perf_event_open(\(source)) failed: \(String(cString: strerror(-fd)))"
                + (fd == -EACCES || fd == -EPERM
                  ? " (needs root, or kernel.perf_event_paranoid ≤ -1 for tracepoints)" : "")))
        }
        opened.append(fd)
        if let filter, sb_perf_set_filter(fd, filter) != 0 {
          return fail(CounterUnavailable("the filter '\(filter)' on \(source) was refused"))
        }
      }
    }
    return .success(opened)
  }
}

/// `rchar` and `wchar` of `/proc/self/io`, read with one `pread` on a kept descriptor, and the bytes that read
/// returned (the next snapshot counts them).
struct ProcessBytes {
  let rchar: Int64
  let wchar: Int64
  let length: Int

  static func read(_ fd: Int32) -> ProcessBytes? {
    guard fd >= 0 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 512)
    let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard got > 0 else { return nil }
    let fields = ProcessIO.fields(String(decoding: buffer[..<got], as: UTF8.self))
    guard let rchar = fields["rchar"], let wchar = fields["wchar"] else { return nil }
    return ProcessBytes(rchar: rchar, wchar: wchar, length: got)
  }
}

// The C calls under names that the class's own `open`, `close` and `read` do not shadow.
private func openDescriptor(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func closeDescriptor(_ fd: Int32) { _ = close(fd) }
private func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(fd, buffer, count)
}
