import Foundation

/// A test-only seam: `STOREBENCH_TEST_EXTRA_SYNC=TARGET[,…]`, where TARGET is a backend (`lmdb`) or a backend and
/// workload (`lmdb/insert`), makes every timed operation of the target sync once more per app operation (an fsync of
/// the store's directory inside the clock, after the operation): exactly +1.00 syncs/op, so that the counted-cost
/// gate can be shown to catch "one more sync per record" (docs/COMPARING.md, `.ci/run`). A run that has it records
/// a warning in environment.json; it is read once, never in the timed path.
public struct TestExtraSync: Sendable, Equatable {
  public static let variable = "STOREBENCH_TEST_EXTRA_SYNC"
  public let targets: Set<String>

  /// Parses the variable's value; nil when unset or empty; throws on a malformed value.
  public init?(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
    guard let text = environment[Self.variable], !text.isEmpty else { return nil }
    let targets = text.split(separator: ",").map(String.init)
    guard targets.allSatisfy({ !$0.isEmpty && !$0.contains(":") && !$0.contains(" ") }) else {
      throw TestSeamError(
        description: "\(Self.variable)='\(text)': expected BACKEND or BACKEND/WORKLOAD, comma-separated")
    }
    self.targets = Set(targets)
  }

  public var warning: String {
    "TEST SEAM \(Self.variable) is set: \(targets.sorted().joined(separator: ", ")) operations sync once more per app operation"
  }

  /// Whether the seam applies to this backend and workload.
  func applies(backend: String, workload: String) -> Bool {
    targets.contains(backend) || targets.contains("\(backend)/\(workload)")
  }

  /// `count` fsyncs of `directory` (inside the clock).
  static func sync(_ directory: URL, times count: Int) throws {
    let fd = try SystemError.check("open \(directory.path)") {
      open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }
    defer { close(fd) }
    for _ in 0..<count { _ = try SystemError.check("fsync \(directory.path)") { fsync(fd) } }
  }
}

/// The test seams that apply to one case (all off in every real run).
struct TestSeams {
  /// ``TestSlowdown``'s fraction.
  var slowdown = 0.0
  /// ``TestExtraSync``: one more sync per app operation.
  var extraSync = false
  /// ``TestExtraWork``: instructions and allocations planted per app operation.
  var extraWork: TestExtraWork.Work?
  /// ``RegionMarks``: mark the counted region for an outside tool.
  var markRegion = false
}

/// A verification seam: with `STOREBENCH_MARK_REGION=1`, the runner calls `getppid()` just before it starts the
/// counters and just after it stops them, so a tool that logs system calls or tracepoints (strace, perf record) can
/// count what happened between the two marks on the same run and check storebench's own counts
/// (`scripts/verify-counts`). Nothing else changes; the marks are outside the clock and the counters.
enum RegionMarks {
  static let variable = "STOREBENCH_MARK_REGION"

  static func enabled(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
    environment[variable] == "1"
  }

  @inline(never)
  static func mark() { _ = getppid() }
}
