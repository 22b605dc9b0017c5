import Foundation
import StoreBenchCore

/// The ratio of two sides measured in the same rounds (`storebench overhead` alternates them within each round):
/// the Hodges–Lehmann estimate of the per-round ratio and its signed-rank interval, both computed in logarithms
/// (``SignedRank``). Drift that a round shares cancels in its ratio, and the interval assumes only independent
/// rounds whose log ratios are symmetric about their centre.
public struct PairedRatio: Codable, Sendable, Equatable {
  /// The estimate: the median of the Walsh averages of the rounds' log ratios, exponentiated.
  public let estimate: Double
  public let low: Double
  public let high: Double
  /// The confidence of [low, high].
  public let confidence: Double
  public let rounds: Int

  /// `numerator[i] / denominator[i]` for each round `i`; nil when the counts differ, a time is not positive, or
  /// there are too few rounds for any interval at this confidence (6 at 95%).
  public init?(_ numerator: [Double], over denominator: [Double], confidence: Double = 0.95) {
    guard numerator.count == denominator.count, !numerator.isEmpty,
      (numerator + denominator).allSatisfy({ $0 > 0 && $0.isFinite })
    else { return nil }
    let logs = zip(numerator, denominator).map { log($0 / $1) }
    guard let interval = SignedRank.interval(logs, alpha: 1 - confidence) else { return nil }
    estimate = exp(interval.estimate)
    low = exp(interval.low)
    high = exp(interval.high)
    self.confidence = confidence
    rounds = logs.count
  }

  /// Whether the whole interval lies at or below `goal`: a goal is met only when the upper end is, so a noisy
  /// day neither passes nor fails by luck.
  public func meets(_ goal: Double) -> Bool { high <= goal }

  /// The estimate and its interval in the one claim vocabulary ("1.42× [1.33–1.50] slower"), through the one
  /// renderer (``RatioClaim``).
  public var claim: RatioClaim {
    RatioClaim(ratio: estimate, interval: low...high, counts: (rounds, rounds), minimumCount: 6)
  }
}
