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
