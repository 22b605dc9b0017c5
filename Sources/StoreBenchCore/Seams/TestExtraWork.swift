import Foundation

/// A test-only seam: `STOREBENCH_TEST_EXTRA_WORK=TARGET:ITERATIONS[:ALLOCATIONS][,…]`, where TARGET is a backend
/// (`lmdb`) or a backend and workload (`sqlite/lookup`), makes every timed operation of the target run a loop of
/// ITERATIONS more (a fixed number of instructions each, ``InstructionCounter/spin(_:)``) and ALLOCATIONS more
/// malloc/free pairs (a fraction is a share of the operations: 0.1 is round(0.1 × operations) pairs), inside the
/// region, after the operations: so that the instructions and allocations gates can be shown to catch a small
/// planted change (`.ci/run`, the counting tests, `scripts/gate-power`). A run that has it records a warning; it is
/// read once, never in the timed path.
public struct TestExtraWork: Sendable, Equatable {
  public static let variable = "STOREBENCH_TEST_EXTRA_WORK"

  /// What is planted per app operation.
  public struct Work: Sendable, Equatable {
    public var iterations: UInt64
    /// malloc/free pairs per operation.
    public var allocations: Double

    /// Plants the work of `count` operations (inside the region).
    func plant(times count: Int) {
      if iterations > 0 {
        for _ in 0..<count { InstructionCounter.spin(iterations) }
      }
      for _ in 0..<Int((allocations * Double(count)).rounded()) {
        let block = malloc(64)
        blackHole(block)
        free(block)
      }
    }
  }

  public let targets: [String: Work]

  /// Parses the variable's value; nil when unset or empty; throws on a malformed value.
  public init?(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
    guard let text = environment[Self.variable], !text.isEmpty else { return nil }
    var targets: [String: Work] = [:]
    for entry in text.split(separator: ",") {
      let parts = entry.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
      guard (2...3).contains(parts.count), !parts[0].isEmpty, !parts[0].contains(" "),
        let iterations = UInt64(parts[1]), let allocations = parts.count == 3 ? Double(parts[2]) : 0,
        allocations >= 0, allocations <= 1000
      else {
        throw TestSeamError(
          description: "\(Self.variable)='\(text)': expected TARGET:ITERATIONS[:ALLOCATIONS], comma-separated")
      }
      targets[parts[0]] = Work(iterations: iterations, allocations: allocations)
    }
    self.targets = targets
  }

  public var warning: String {
    "TEST SEAM \(Self.variable) is set: "
      + targets.sorted { $0.key < $1.key }.map {
        "\($0.key) operations run \($0.value.iterations) more loop iterations and \($0.value.allocations) more "
          + "allocations each"
      }.joined(separator: "; ")
  }

  /// The work planted on this backend and workload, if any.
  func work(backend: String, workload: String) -> Work? {
    targets["\(backend)/\(workload)"] ?? targets[backend]
  }
}
