/// The one rule a limit on a measured figure is judged by, wherever a budget is judged (`storebench check --budgets`
/// and advise): a budget is kept only when the evidence shows it kept.
///
/// - The figure: the median of the repetitions' values (a latency percentile of each repetition's operations, a
///   count or bytes per operation); for a size, the largest repetition; for a percentile of repetitions that are one
///   operation each (a launch), its nearest rank over them (with fewer than 100, p99 is the slowest).
/// - What the limit is held against (``judged``): the upper end of the median's 95% interval where the repetitions
///   give one, else the figure itself.
/// - A verdict needs the first look's repetitions (``MedianInterval/verdictCount``) unless two or more repetitions
///   all gave the same value (an exact count); on fewer the figure is shown, never judged.
public struct BudgetJudgement: Sendable, Equatable {
  /// How the figure is taken from the repetitions' values.
  public enum Basis: Sendable, Equatable {
    case median
    case largest
    /// The nearest rank of this percentile over the repetitions.
    case percentile(Int)
    /// A counting pass's count (one repetition, exact where the work is deterministic): the figure, decided.
    case counted
  }

  public enum Outcome: String, Sendable, Equatable {
    case kept, broken
    case notMeasuredEnough = "not measured enough"
  }

  public let figure: Double
  /// The median's 95% interval (``Basis/median`` with enough repetitions for one).
  public let interval: MedianInterval?
  /// The repetitions it rests on.
  public let count: Int
  /// Two or more repetitions, all of which gave the same value (one repetition agrees with nothing).
  public let exact: Bool

  /// `values` (one a repetition) taken by `basis`; nil without any.
  public init?(_ values: [Double], basis: Basis) {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    (count, exact) = (sorted.count, basis == .counted || (sorted.count >= 2 && sorted.first == sorted.last))
    switch basis {
    case .counted:
      (figure, interval) = (sorted[sorted.count - 1], nil)
    case .median:
      figure = Statistics.median(ofSorted: sorted)
      interval = MedianInterval(sorted: sorted)
    case .largest:
      (figure, interval) = (sorted[sorted.count - 1], nil)
    case .percentile(let percentile):
      let rank = max(1, Int((Double(percentile) / 100 * Double(sorted.count)).rounded(.up)))
      (figure, interval) = (sorted[min(rank, sorted.count) - 1], nil)
    }
  }

  /// The value the limit is held against.
  public var judged: Double { interval?.high ?? figure }
  /// Enough repetitions for a verdict, or all of them identical.
  public var decided: Bool { exact || count >= MedianInterval.verdictCount }

  /// Kept when the judged value is within `limit`, broken when not; not measured enough without a verdict's
  /// repetitions.
  public func outcome(limit: Double) -> Outcome {
    !decided ? .notMeasuredEnough : judged <= limit ? .kept : .broken
  }
}
