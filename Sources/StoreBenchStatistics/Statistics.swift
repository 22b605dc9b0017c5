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
  /// The distribution-free interval of the median (``MedianInterval``) at the level `schedule` asks for (95% for
  /// the procedure); nil when n is too small for one.
  public let medianInterval: MedianInterval?

  /// Nil for an empty sample. `schedule`: how the run looked at the row (``LookSchedule``).
  public init?(_ values: [Double], schedule: LookSchedule = .single) {
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
      standardDeviation = (squares / Double(n - 1)).squareRoot()
    } else {
      standardDeviation = 0
    }
    medianInterval = schedule.interval(sorted: sorted)
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
}
