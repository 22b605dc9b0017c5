import Histogram

/// Per-operation latencies of one repetition: recorded raw inside the timed region, summarised in an HDR histogram
/// (3 significant digits, 1 ns … 1 hour) after it.
///
/// Inside the clock a latency costs one store into memory made and touched before the region (a histogram's
/// bucket arithmetic there took ≈ 10% of an lmdb insert's time; `storebench overhead` measures the workload path).
/// Workloads take one clock read per operation, through ``timeEach(_:_:)``. More operations than the first capacity
/// double the buffer, a copy inside the clock once per doubling.
public final class LatencyRecorder {
  // Unchecked: one thread records (the repetition's), and a dynamic exclusivity check per access would cost more
  // than the store it guards.
  @exclusivity(unchecked) @usableFromInline var buffer: UnsafeMutablePointer<UInt64>
  @exclusivity(unchecked) @usableFromInline var capacity: Int
  @exclusivity(unchecked) @usableFromInline var count = 0
  /// Operations over this latency count against the budget the repetition is held to (``hold(to:prior:)``).
  @exclusivity(unchecked) @usableFromInline var limit = UInt64.max
  /// Set once the budget's rules stop the repetition (``stop``): ``timeEach(_:_:)`` then throws.
  @exclusivity(unchecked) @usableFromInline var stopped = false
  private var rule: BudgetDropRule?
  private var prior = BudgetTally()
  /// Operations of this repetition over the budget.
  public private(set) var over = 0
  /// Why the budget's rules stopped the repetition, nil while they have not.
  public private(set) var stop: BudgetStop?

  /// Allocates and touches room for `capacity` latencies (outside any timed region).
  public init(capacity: Int = 16_384) {
    self.capacity = max(capacity, 1)
    buffer = .allocate(capacity: self.capacity)
    buffer.initialize(repeating: 0, count: self.capacity)
  }

  deinit { buffer.deallocate() }

  /// Records one latency.
  @inlinable @inline(__always)
  public func record(nanoseconds: UInt64) {
    if count == capacity { grow() }
    buffer[count] = nanoseconds
    count &+= 1
    if nanoseconds > limit { overBudget() }
  }

  /// Holds this repetition's operations to `rule`, after the row's earlier repetitions counted `prior` (outside
  /// any timed region).
  public func hold(to rule: BudgetDropRule, prior: BudgetTally) {
    self.rule = rule
    self.prior = prior
    limit = rule.budget.nanoseconds
  }

  /// The row's operations and those over the budget, this repetition's included.
  public var tally: BudgetTally { BudgetTally(operations: prior.operations + count, over: prior.over + over) }

  @usableFromInline
  func throwStop() throws { throw BudgetStopped(stop: stop ?? .cut) }

  @usableFromInline
  func overBudget() {
    over += 1
    guard let rule, stop == nil else { return }
    let pooled = tally
    if rule.drops(over: pooled.over, of: pooled.operations) {
      stop = .dropped
    } else if over >= rule.budget.overToMiss(of: rule.operationsPerRepetition) {
      // Every operation so far over the budget, and a few more would drop the strategy: go on to them
      // rather than cut (the strategy is then dropped within its first repetition).
      let dropsSoon =
        pooled.over == pooled.operations && rule.allOverDrop.map { pooled.operations < $0 } == true
        && count < rule.operationsPerRepetition
      if !dropsSoon { stop = .cut }
    }
    stopped = stop != nil
  }

  @usableFromInline
  func grow() {
    let larger = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: buffer, count: count)
    buffer.deallocate()
    buffer = larger
    capacity *= 2
  }

  /// Runs `operation` on each element in order and records each call's latency: one clock read per operation,
  /// taken after it, stored with no allocation (below the capacity). Used inside timed regions.
  ///
  /// Inlinable, so it is specialized for the workload's own element type: unspecialized, every element was copied
  /// through its value witness, and each copy's retain of a string that had left the cache took 22% of the
  /// `lookup` workload's time on lmdb (perf; `storebench overhead` measures the workload path against the plain
  /// adapter loop).
  @inlinable @inline(__always)
  ///
  /// Throws ``BudgetStopped`` once the budget the repetition is held to stops it (``hold(to:prior:)``).
  public func timeEach<Elements: Sequence>(_ elements: Elements, _ operation: (Elements.Element) throws -> Void)
    throws
  {
    var previous = monotonicNanoseconds()
    for element in elements {
      try operation(element)
      let now = monotonicNanoseconds()
      record(nanoseconds: now &- previous)
      if stopped { try throwStop() }
      previous = now
    }
  }

  /// How many latencies were recorded.
  public var recorded: Int { count }

  /// p50, p90, p99, p99.9 and max in microseconds; nil when nothing was recorded.
  public var percentiles: LatencyPercentiles? {
    guard count > 0 else { return nil }
    var histogram = Histogram<UInt64>(
      lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000_000,
      numberOfSignificantValueDigits: .three)
    for index in 0..<count { _ = histogram.record(min(max(buffer[index], 1), 3_600_000_000_000)) }
    func micro(_ value: UInt64) -> Double { Double(value) / 1000 }
    return LatencyPercentiles(
      p50: micro(histogram.valueAtPercentile(50)), p90: micro(histogram.valueAtPercentile(90)),
      p99: micro(histogram.valueAtPercentile(99)), p999: micro(histogram.valueAtPercentile(99.9)),
      max: micro(histogram.max))
  }
}

/// A row's operations timed against a budget, and how many were over it.
public struct BudgetTally: Sendable, Equatable {
  public var operations = 0
  public var over = 0
  public init(operations: Int = 0, over: Int = 0) {
    self.operations = operations
    self.over = over
  }
}

/// Why a budget's rules stopped measuring (the `budget_stop` column).
public enum BudgetStop: String, Sendable {
  /// The repetition's own percentile was over the budget whatever its other operations took.
  case cut
  /// The evidence rule dropped the strategy (``LatencyBudget/errorRate``).
  case dropped
  /// The verdict was a miss whatever further repetitions gave.
  case certain
}

/// Thrown out of ``LatencyRecorder/timeEach(_:_:)`` when the budget's rules stop the repetition: the runner keeps
/// what was timed, and verifies nothing (the work was cut short).
public struct BudgetStopped: Error, CustomStringConvertible {
  public let stop: BudgetStop
  public var description: String { "stopped by its budget (\(stop.rawValue))" }
}

/// Latency percentiles of a repetition's operations, in microseconds.
public struct LatencyPercentiles: Sendable, Equatable {
  public var p50: Double = 0
  public var p90: Double = 0
  public var p99: Double = 0
  public var p999: Double = 0
  public var max: Double = 0

  /// All zero (a row read back fills them in one by one).
  public init() {}

  init(p50: Double, p90: Double, p99: Double, p999: Double, max: Double) {
    (self.p50, self.p90, self.p99, self.p999, self.max) = (p50, p90, p99, p999, max)
  }

  public var values: [Double] { [p50, p90, p99, p999, max] }
}
