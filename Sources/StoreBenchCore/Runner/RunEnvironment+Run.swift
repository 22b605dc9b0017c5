import Foundation
import StoreBenchAnalysis

extension RunEnvironment {
  /// environment.json's bytes with the run's input beside the schema's keys, under `invocation` (what
  /// `run --resume` repeats).
  func encoded(invocation: RunRequest?) throws -> Data {
    try encoded { encoder in
      var container = encoder.container(keyedBy: Recorded.CodingKeys.self)
      try container.encodeIfPresent(invocation, forKey: .invocation)
    }
  }

  /// The run's input that environment.json `data` records (nil: none recorded).
  static func invocation(in data: Data) throws -> RunRequest? {
    try JSONDecoder().decode(Recorded.self, from: data).invocation
  }

  private struct Recorded: Decodable {
    var invocation: RunRequest?
    enum CodingKeys: String, CodingKey { case invocation }
  }
}

extension RunEnvironment.PolicyValues {
  /// `policy`'s values and its look schedule.
  init(_ policy: RepetitionPolicy) {
    self.init()
    (warmup, minimum, maximum, targetPrecision) =
      (policy.warmup, policy.minimum, policy.maximum, policy.targetPrecision)
    (caseSeconds, budgetSeconds, stop) = (policy.caseSeconds, policy.budgetSeconds, policy.stop.rawValue)
    (looks, lookAlpha) = (policy.schedule.looks, policy.schedule.alpha)
  }
}
