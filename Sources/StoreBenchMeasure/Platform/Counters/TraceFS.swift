import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The kernel's tracing file system, where tracepoints have their ids (`events/<group>/<name>/id`).
struct TraceFS: Sendable {
  /// Where tracefs is usually mounted; the first that lists events is used.
  static let candidates = ["/sys/kernel/tracing", "/sys/kernel/debug/tracing"]
  /// Tracepoints renamed between kernels: the older name to try when the newer is missing.
  static let olderNames = ["writeback_dirty_folio": "writeback_dirty_page"]

  let root: String

  /// The mounted tracefs, or why there is none.
  static func find() -> Result<TraceFS, CounterUnavailable> {
    for root in candidates where FileManager.default.fileExists(atPath: root + "/events/syscalls") {
      return .success(TraceFS(root: root))
    }
    if geteuid() != 0, let root = candidates.first(where: { access($0, F_OK) == 0 && access($0, R_OK | X_OK) != 0 }) {
      return .failure(
        CounterUnavailable("tracefs at \(root) is not readable by this user (tracepoints need root)"))
    }
    return .failure(
      CounterUnavailable(
        "no tracefs with syscall events at \(candidates.joined(separator: " or ")) "
          + "(as root: mount -t tracefs nodev /sys/kernel/tracing; scripts/bench does this)"))
  }

  /// The id of tracepoint `group:name` (or its older name), or why it has none.
  func id(group: String, name: String) -> Result<UInt64, CounterUnavailable> {
    for candidate in [name] + (Self.olderNames[name].map { [$0] } ?? []) {
      let path = "\(root)/events/\(group)/\(candidate)/id"
      if let text = try? String(contentsOfFile: path, encoding: .utf8),
        let id = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines))
      {
        return .success(id)
      }
    }
    return .failure(CounterUnavailable("no tracepoint \(group):\(name) on this kernel (\(root)/events)"))
  }
}
