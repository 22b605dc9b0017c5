import Foundation
import StoreBenchCore
import StoreBenchOverhead
import Testing

@Suite("Adapter overhead benchmark")
struct OverheadTests {
  @Test(
    "sqlite, lmdb and gdbm: C, adapter and workload path insert and look up on the same data, proven equal each round"
  )
  func runsThreeSides() throws {
    let temp = try TemporaryDirectory()
    var request = AdapterOverhead.Request()
    (request.count, request.stored, request.repetitions, request.seed) = (200, 300, 6, 1)
    let results = try AdapterOverhead.measure(request, workdir: temp.url)
    #expect(
      results.map { "\($0.backend) \($0.operation.rawValue)" }
        == ["sqlite insert", "sqlite lookup", "lmdb insert", "lmdb lookup", "gdbm insert", "gdbm lookup"])
    for result in results {
      let what = "\(result.backend) \(result.operation)"
      #expect(
        [result.cSeconds, result.adapterSeconds, result.workloadSeconds].allSatisfy {
          $0.count == 6 && $0.allSatisfy { $0 > 0 }
        }, "\(what)")
      // Equal work, proven: the same articles and store sizes (inserts), the same articles found (lookups), and
      // the workload's own verification returned the adapter's checksum.
      #expect(result.equalWork.holds, "\(what): \(result.equalWork)")
      #expect(result.adapterRatio != nil && result.workloadRatio != nil, "\(what): six rounds give intervals")
    }
    let lookups = results.filter { $0.operation == .lookup }.map(\.equalWork.c)
    #expect(
      Set(lookups).count == 1 && lookups[0].hasPrefix("found 200, "), "every backend found the same: \(lookups)")
    #expect(results.first { $0.backend == "sqlite" && $0.operation == .insert }!.equalWork.c.contains(" bytes"))
    #expect(temp.tree().isEmpty, "work directory left behind: \(temp.tree())")

    // The report round-trips through its JSON and renders every row.
    let report = OverheadReport(request: request, command: "storebench overhead", rows: results)
    let file = temp.url.appendingPathComponent("overhead.json")
    try report.encoded().write(to: file)
    let read = try OverheadReport(contentsOf: file)
    #expect(read.rows.map(\.adapterSeconds) == results.map(\.adapterSeconds))
    #expect(read.markdownTable == report.markdownTable)
    #expect(report.markdownTable.split(separator: "\n").count == 2 + results.count)
  }

  @Test("a side whose work differs breaks the proof: another C result, another adapter result, another workload sum")
  func equalWorkProof() {
    let same = AdapterOverhead.EqualWork(
      c: "found 2, ab", adapter: "found 2, ab", workload: "x1", adapterChecksum: "x1")
    #expect(same.holds && same.description == "found 2, ab")
    for broken in [
      AdapterOverhead.EqualWork(c: "found 2, ab", adapter: "found 1, ab", workload: "x1", adapterChecksum: "x1"),
      AdapterOverhead.EqualWork(c: "found 2, ab", adapter: "found 2, ab", workload: "x2", adapterChecksum: "x1"),
      AdapterOverhead.EqualWork(c: "", adapter: "", workload: "", adapterChecksum: ""),
    ] {
      #expect(!broken.holds, "\(broken)")
    }
  }

  @Test(
    "the paired ratio: the per-round ratio's Hodges–Lehmann estimate and signed-rank interval, judged on its upper end"
  )
  func pairedRatio() throws {
    // Every round exactly 1.25× slower: estimate and both ends 1.25.
    let base = [1.0, 2, 3, 4, 5, 6, 7, 8]
    let exact = try #require(PairedRatio(base.map { $0 * 1.25 }, over: base))
    #expect(abs(exact.estimate - 1.25) < 1e-12 && abs(exact.low - 1.25) < 1e-12 && abs(exact.high - 1.25) < 1e-12)
    #expect(exact.claim.text == "1.25× [1.25–1.25] slower", "rendered by the one claim renderer")
    // Known values: log ratios 0.01…0.08 (8 rounds). The Walsh averages' median is 0.045; at 95% with n = 8 the
    // signed-rank critical value is T = 3, so the interval runs from the 4th smallest Walsh average (0.02) to the
    // 4th largest (0.07).
    let logs = (1...8).map { Double($0) / 100 }
    let ratio = try #require(PairedRatio(logs.map { exp($0) }, over: Array(repeating: 1, count: 8)))
    #expect(abs(log(ratio.estimate) - 0.045) < 1e-9, "\(ratio)")
    #expect(abs(log(ratio.low) - 0.02) < 1e-9 && abs(log(ratio.high) - 0.07) < 1e-9, "\(ratio)")
    #expect(ratio.meets(1.08) && !ratio.meets(1.07), "a goal is met only by the interval's upper end")
    // Too few rounds, unequal counts, a zero time: no interval.
    #expect(PairedRatio([1, 2, 3, 4, 5], over: [1, 1, 1, 1, 1]) == nil)
    #expect(PairedRatio([1, 2], over: [1]) == nil)
    #expect(PairedRatio(base, over: base.map { $0 - 1 }) == nil)
  }
}
