import Foundation

/// A repetition of every case that counts what a timed repetition must not: it runs once more, after the timed
/// repetitions, in a child process of its own — under callgrind for ``instructions``, with an interposed allocator for
/// ``allocations`` — and its counts are exact where the work is deterministic. Its times are not measurements (the
/// tool slows the work down), so its row carries only its counts (status `counted` in samples.csv).
public enum CountingPass: String, CaseIterable, Sendable, Codable {
  /// Instructions per app operation (callgrind, `--instr-atstart=no`, switched on and off with the cost counters).
  case instructions
  /// malloc-family and free calls and the bytes requested (ordo-one/malloc-interposer, preloaded in the child).
  case allocations

  /// The costs the pass counts.
  public var costs: [CountedCost] { CountedCost.allCases.filter { $0.pass == self } }

  /// Parses `instructions,allocations` or `all` (`storebench run --count`).
  public static func parse(_ text: String) throws -> [CountingPass] {
    let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    if names == ["all"] { return allCases }
    return try names.map { name in
      guard let pass = CountingPass(rawValue: name) else {
        throw CounterUnavailable(
          "unknown counting pass '\(name)' (expected \(allCases.map(\.rawValue).joined(separator: ", ")) or all)")
      }
      return pass
    }
  }
}

/// Counts one counting pass's costs over each timed region, exactly where ``CostCounters`` counts the others:
/// ``start()`` just before the clock starts, ``stop()`` just after it stops, ``read()`` outside the region.
public protocol RegionCounter: AnyObject {
  /// The pass this counter serves.
  var pass: CountingPass { get }
  /// Starts counting from zero.
  func start()
  /// Stops counting (the counts are kept for ``read()``).
  func stop()
  /// The counts of the last region, by cost; throws when they cannot be read.
  func read() throws -> [CountedCost: Int64]
}

extension CountingPass {
  /// The counter for this pass in this process, or why there is none (not under callgrind, the allocator not
  /// preloaded).
  public func counter() -> Result<any RegionCounter, CounterUnavailable> {
    switch self {
    case .instructions: InstructionCounter.open().map { $0 }
    case .allocations: AllocationCounter.open().map { $0 }
    }
  }
}

extension CostCounters.Availability {
  /// This record with a counting pass's costs counted (or, with `reason`, missing for that reason).
  public func with(_ pass: CountingPass, missingBecause reason: String? = nil) -> Self {
    var missing = self.missing
    for cost in pass.costs {
      if let reason { missing[cost.rawValue] = reason } else { missing[cost.rawValue] = nil }
    }
    let counted = CountedCost.allCases.filter { missing[$0.rawValue] == nil }
    return Self(fileSystem: fileSystem, syncMethod: syncMethod, counted: counted, missing: missing)
  }
}
