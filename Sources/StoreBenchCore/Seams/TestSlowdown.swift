import Foundation

/// A test-only seam: `STOREBENCH_TEST_SLOWDOWN=TARGET:FRACTION[,…]`, where TARGET is a backend (`sqlite:0.2`) or a
/// backend and workload (`sqlite/insert:0.2`), stretches every timed operation of the target by the fraction (a
/// spin inside the clock, after the operation; nothing when the fraction is 0), so that a known regression can be
/// planted to prove the CI gate catches it (docs/COMPARING.md). A run that has it records a
/// warning in environment.json; it is read once, never in the timed path.
public struct TestSlowdown: Sendable, Equatable {
  public static let variable = "STOREBENCH_TEST_SLOWDOWN"
  public let fractions: [String: Double]

  /// Parses the variable's value; nil when unset or empty; throws on a malformed value.
  public init?(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
    guard let text = environment[Self.variable], !text.isEmpty else { return nil }
    var fractions: [String: Double] = [:]
    for part in text.split(separator: ",") {
      let pieces = part.split(separator: ":")
      guard pieces.count == 2, let fraction = Double(pieces[1]), fraction > 0, fraction <= 10 else {
        throw TestSeamError(
          description:
            "\(Self.variable)='\(text)': expected BACKEND:FRACTION (0 < FRACTION ≤ 10), e.g. sqlite/insert:0.2"
        )
      }
      fractions[String(pieces[0])] = fraction
    }
    self.fractions = fractions
  }

  public var warning: String {
    "TEST SEAM \(Self.variable) is set: "
      + fractions.sorted { $0.key < $1.key }
      .map { "\($0.key) operations stretched by \(Int(($0.value * 100).rounded()))%" }.joined(separator: ", ")
  }

  /// Spins until `fraction` of the time since `start` has passed again (inside the clock).
  @inline(__always)
  static func stretch(since start: UInt64, by fraction: Double) {
    guard fraction > 0 else { return }
    let now = monotonicNanoseconds()
    let until = now + UInt64(Double(now - start) * fraction)
    while monotonicNanoseconds() < until {}
  }
}

/// A test seam's environment variable is malformed (the run refuses to start).
struct TestSeamError: Error, CustomStringConvertible {
  let description: String
}
