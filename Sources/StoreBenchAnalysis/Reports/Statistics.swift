import Foundation
import StoreBenchContract
import StoreBenchMeasure

/// Descriptive statistics of one row's repetitions.
public struct Statistics: Sendable, Equatable {
    public let n: Int
    public let median: Double
    public let mean: Double
    /// Sample standard deviation (n − 1 in the denominator); 0 when n = 1.
    public let standardDeviation: Double
    public let minimum: Double
    public let maximum: Double
    /// 95% confidence interval of the mean (Student's t); nil when n < 2.
    public let confidence95: ClosedRange<Double>?

    /// Nil for an empty sample.
    public init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        n = sorted.count
        median = Self.median(ofSorted: sorted)
        mean = sorted.reduce(0, +) / Double(n)
        minimum = sorted[0]
        maximum = sorted[n - 1]
        if n > 1 {
            let average = mean
            let squares = sorted.reduce(0) { $0 + ($1 - average) * ($1 - average) }
            let deviation = (squares / Double(n - 1)).squareRoot()
            standardDeviation = deviation
            let half = Self.tQuantile975(degreesOfFreedom: n - 1) * deviation / Double(n).squareRoot()
            confidence95 = (average - half)...(average + half)
        } else {
            standardDeviation = 0
            confidence95 = nil
        }
    }

    /// The median of an ascending array (mean of the two middle values for an even count).
    public static func median(ofSorted sorted: [Double]) -> Double {
        precondition(!sorted.isEmpty)
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The median of `values` in any order; nil when empty.
    public static func median(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : median(ofSorted: values.sorted())
    }

    /// The 0.975 quantile of Student's t distribution (two-sided 95%): exact table values for
    /// 1–30 degrees of freedom, then the standard table points 40, 60, 120 and ∞ with linear
    /// interpolation in 1/df (the usual table interpolation).
    public static func tQuantile975(degreesOfFreedom df: Int) -> Double {
        precondition(df >= 1)
        let table: [Double] = [
            12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
            2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
            2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
        ]
        if df <= 30 { return table[df - 1] }
        let points: [(df: Double, t: Double)] = [(30, 2.042), (40, 2.021), (60, 2.000), (120, 1.980), (.infinity, 1.960)]
        let x = 1 / Double(df)
        for (lower, upper) in zip(points, points.dropFirst()) where Double(df) <= upper.df {
            let (x0, x1) = (1 / lower.df, upper.df.isInfinite ? 0 : 1 / upper.df)
            return lower.t + (upper.t - lower.t) * (x0 - x) / (x0 - x1)
        }
        return 1.960
    }
}
