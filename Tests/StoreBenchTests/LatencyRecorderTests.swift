import Foundation
import StoreBenchCore
import Testing

@Suite("Per-operation latencies")
struct LatencyRecorderTests {
  @Test("raw latencies past the first capacity are all kept, and the percentiles are those of the known values")
  func percentilesOfKnownValues() throws {
    let recorder = LatencyRecorder(capacity: 7)
    // 1 µs … 1000 µs, each once, recorded in a shuffled order through the timed loop's store.
    var values = (1...1000).map { UInt64($0) * 1000 }
    values.shuffle()
    for value in values { recorder.record(nanoseconds: value) }
    #expect(recorder.recorded == 1000)
    let percentiles = try #require(recorder.percentiles)
    // HDR with 3 significant digits: within 0.1% of the exact order statistics.
    for (got, want) in [
      (percentiles.p50, 500.0), (percentiles.p90, 900), (percentiles.p99, 990), (percentiles.max, 1000),
    ] {
      #expect(abs(got - want) / want < 0.001, "\(got) vs \(want)")
    }
    #expect(LatencyRecorder().percentiles == nil, "nothing recorded: no percentiles")
  }

  @Test("timeEach records one latency per element")
  func timeEach() throws {
    let recorder = LatencyRecorder(capacity: 2)
    var seen: [Int] = []
    try recorder.timeEach(0..<5) { seen.append($0) }
    #expect(seen == [0, 1, 2, 3, 4] && recorder.recorded == 5)
  }
}
