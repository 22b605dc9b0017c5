/// One check's outcome on one variant (and, for ``ContractCheck/workloads``, one workload).
public struct ContractResult: Sendable, CustomStringConvertible {
  public enum Outcome: Sendable, Equatable {
    /// The check held; the detail says what it covered.
    case passed(String)
    /// The check found the backend breaking the contract: what, where.
    case failed(String)
    /// The check does not apply (a role the backend does not play, a store that keeps nothing on disk).
    case notApplicable(String)
  }

  public let check: ContractCheck
  /// The variant's canonical text (`journal=wal`, or `default`); "" for a check of the backend as a whole.
  public let variant: String
  /// The workload, for ``ContractCheck/workloads``; "" otherwise.
  public let subject: String
  public let outcome: Outcome

  public var failed: Bool {
    if case .failed = outcome { return true }
    return false
  }

  /// `FAIL round-trip [journal=wal]: 3 of 312 articles missing after a reopen`.
  public var description: String {
    let name =
      (subject.isEmpty ? check.rawValue : "\(check.rawValue) \(subject)")
      + (variant.isEmpty ? "" : " [\(variant)]")
    switch outcome {
    case .passed(let detail): return "ok   \(name)" + (detail.isEmpty ? "" : ": \(detail)")
    case .failed(let message): return "FAIL \(name): \(message)"
    case .notApplicable(let reason): return "n/a  \(name): \(reason)"
    }
  }
}

/// Everything a ``ContractSuite`` run found, in the order it ran.
public struct ContractReport: Sendable, CustomStringConvertible {
  /// The backend checked.
  public let backend: String
  public let results: [ContractResult]

  /// The checks that failed: empty when the backend keeps the contract.
  public var failures: [ContractResult] { results.filter(\.failed) }

  /// The checks that held.
  public var passed: [ContractResult] {
    results.filter {
      if case .passed = $0.outcome { return true }
      return false
    }
  }

  /// A summary line, the failures, then every result.
  public var description: String {
    let skipped = results.count - passed.count - failures.count
    var lines = [
      "contract suite, backend \(backend): \(passed.count) passed, \(failures.count) failed, "
        + "\(skipped) not applicable"
    ]
    lines += failures.map(\.description)
    if !failures.isEmpty { lines.append("--- every result:") }
    lines += results.map(\.description)
    return lines.joined(separator: "\n")
  }
}
