import Foundation

/// A test-only seam: `STOREBENCH_TEST_EXTRA_SYNC=TARGET[:RATE][,…]`, where TARGET is a backend (`lmdb`) or a
/// backend and workload (`lmdb/insert`), makes every timed repetition of the target sync RATE more times per app
/// operation (fsyncs of the store's directory inside the clock, after the operation: round(RATE × operations) of
/// them; RATE defaults to 1): exactly +1.00 syncs/op, so that the counted-cost gate can be shown to catch "one more
/// sync per record" (docs/COMPARING.md, `.ci/run`), or a fraction of the row's own syncs (`scripts/gate-power`). A
/// run that has it records a warning in environment.json; it is read once, never in the timed path.
public struct TestExtraSync: Sendable, Equatable {
  public static let variable = "STOREBENCH_TEST_EXTRA_SYNC"
  /// Extra syncs per app operation, by target.
  public let targets: [String: Double]

  /// Parses the variable's value; nil when unset or empty; throws on a malformed value.
  public init?(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
    guard let text = environment[Self.variable], !text.isEmpty else { return nil }
    var targets: [String: Double] = [:]
    for entry in text.split(separator: ",") {
      let parts = entry.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
      guard (1...2).contains(parts.count), !parts[0].isEmpty, !parts[0].contains(" "),
        let rate = parts.count == 2 ? Double(parts[1]) : 1, rate > 0, rate <= 100
      else {
        throw TestSeamError(
          description: "\(Self.variable)='\(text)': expected BACKEND[:RATE] or BACKEND/WORKLOAD[:RATE] "
            + "(0 < RATE ≤ 100 syncs per operation), comma-separated")
      }
      targets[parts[0]] = rate
    }
    self.targets = targets
  }

  public var warning: String {
    "TEST SEAM \(Self.variable) is set: "
      + targets.sorted { $0.key < $1.key }.map {
        $0.value == 1
          ? "\($0.key) operations sync once more per app operation"
          : "\($0.key) operations sync \($0.value) more times per app operation"
      }.joined(separator: "; ")
  }

  /// The extra syncs per operation on this backend and workload (0: none).
  func rate(backend: String, workload: String) -> Double {
    targets["\(backend)/\(workload)"] ?? targets[backend] ?? 0
  }

  /// `count` fsyncs of `directory` (inside the clock).
  static func sync(_ directory: URL, times count: Int) throws {
    let fd = try SystemError.check("open \(directory.path)") {
      open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }
    defer { close(fd) }
    // The label once, not per sync: the seam adds syncs to the region, not an allocation per sync.
    let label = "fsync \(directory.path)"
    for _ in 0..<count { _ = try SystemError.check(label) { fsync(fd) } }
  }
}

/// The test seams that apply to one case (all off in every real run).
struct TestSeams {
  /// ``TestSlowdown``'s fraction.
  var slowdown = 0.0
  /// ``TestExtraSync``: more syncs per app operation (0: none).
  var extraSyncRate = 0.0
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
