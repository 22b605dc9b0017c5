import Foundation

/// A distribution-free 95% confidence interval of the median: the order statistics `x(l)` and `x(n+1−l)` with the
/// largest `l` such that `P(Binomial(n, ½) ≤ l − 1) ≤ 2.5%` (the sign-test interval; SciPy's
/// `quantile_test(x, q=0.5).confidence_interval(0.95)` gives the same). It assumes only independent repetitions,
/// never leaves [min, max], and cannot be negative for times. For n < 6 no such interval exists: ``init(sorted:)``
/// returns nil and the report says why (``unavailableReason(n:)``).
public struct MedianInterval: Sendable, Equatable {
    public let low: Double
    public let high: Double
    /// 1-based ranks of the two order statistics.
    public let lowerRank: Int
    public let upperRank: Int
    /// The exact probability that the interval covers the true median (≥ 0.95, e.g. 0.969 for n = 6).
    public let coverage: Double

    /// The method, as `environment.json` records it.
    public static let method = "distribution-free 95% interval of the median: order statistics x(l), x(n+1-l) with "
        + "the largest l such that P(Binomial(n, 1/2) <= l-1) <= 0.025 (sign-test interval); none for n < 6"

    /// The smallest number of repetitions that has a 95% interval of the median.
    public static let minimumCount = 6

    /// The interval of an ascending sample; nil when n < ``minimumCount``.
    public init?(sorted: [Double]) {
        let n = sorted.count
        guard let rank = Self.lowerRank(n: n) else { return nil }
        lowerRank = rank
        upperRank = n + 1 - rank
        low = sorted[rank - 1]
        high = sorted[n - rank]
        coverage = 1 - 2 * Self.binomialCDF(rank - 1, n: n)
    }

    /// Why a row of `n` repetitions has no interval (empty cells need a reason), or nil when it has one.
    public static func unavailableReason(n: Int) -> String? {
        n >= minimumCount ? nil : "n=\(n): a 95% interval of the median needs at least \(minimumCount) repetitions"
    }

    /// The largest l with P(Binomial(n, ½) ≤ l − 1) ≤ 0.025, or nil when even l = 1 is too wide a bet.
    static func lowerRank(n: Int) -> Int? {
        guard n >= 1 else { return nil }
        var rank: Int?
        var cumulative = 0.0
        for candidate in 1...((n + 1) / 2) {
            cumulative += binomialProbability(candidate - 1, n: n)
            guard cumulative <= 0.025 else { break }
            rank = candidate
        }
        return rank
    }

    /// P(Binomial(n, ½) = k), computed in logarithms (exact enough for any n a run has).
    static func binomialProbability(_ k: Int, n: Int) -> Double {
        exp(lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1)) - Double(n) * log(2))
    }

    /// P(Binomial(n, ½) ≤ k).
    static func binomialCDF(_ k: Int, n: Int) -> Double {
        k < 0 ? 0 : (0...k).reduce(0) { $0 + binomialProbability($1, n: n) }
    }
}
