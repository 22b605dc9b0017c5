import Histogram

/// Per-operation latencies of one repetition, in an HDR histogram (3 significant digits, 1 ns … 1 hour).
///
/// Made before the timed region (no allocation per operation); recording costs ≈8 ns. Workloads take one clock
/// read per operation, through ``timeEach(_:_:)``.
public final class LatencyRecorder {
    private var histogram = Histogram<UInt64>(
        lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000_000,
        numberOfSignificantValueDigits: .three)

    public init() {}

    @inline(__always)
    public func record(nanoseconds: UInt64) {
        _ = histogram.record(max(nanoseconds, 1))
    }

    /// Runs `operation` on each element in order and records each call's latency: one clock read per operation,
    /// taken after it, recorded with no allocation. Used inside timed regions.
    ///
    /// Inlinable, so it is specialized for the workload's own element type: unspecialized, every element was copied
    /// through its value witness, and each copy's retain of a string that had left the cache took 22% of the
    /// `lookup` workload's time on lmdb (perf; `storebench overhead` measures the workload path against the plain
    /// adapter loop).
    @inlinable @inline(__always)
    public func timeEach<Elements: Sequence>(_ elements: Elements, _ operation: (Elements.Element) throws -> Void)
        rethrows
    {
        var previous = monotonicNanoseconds()
        for element in elements {
            try operation(element)
            let now = monotonicNanoseconds()
            record(nanoseconds: now &- previous)
            previous = now
        }
    }

    /// p50, p90, p99, p99.9 and max in microseconds; nil when nothing was recorded.
    public var percentiles: LatencyPercentiles? {
        guard histogram.totalCount > 0 else { return nil }
        func micro(_ value: UInt64) -> Double { Double(value) / 1000 }
        return LatencyPercentiles(
            p50: micro(histogram.valueAtPercentile(50)), p90: micro(histogram.valueAtPercentile(90)),
            p99: micro(histogram.valueAtPercentile(99)), p999: micro(histogram.valueAtPercentile(99.9)),
            max: micro(histogram.max))
    }
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
