import Foundation
import StoreBenchCore
import Testing

@Suite("Reports")
struct ReportTests {
  @Test("CSV quoting follows RFC 4180 and reads back exactly")
  func csvQuoting() throws {
    let rows = [
      ["plain", "with,comma", "with \"quote\"", "line\nbreak", "crlf\r\nend", "", "ü🚀"],
      ["1", "2", "3", "4", "5", "6", "7"],
    ]
    let data = try CSVFormat.encode([["a", "b", "c", "d", "e", "f", "g"]] + rows)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.hasPrefix("a,b,c,d,e,f,g\r\nplain,\"with,comma\",\"with \"\"quote\"\"\",\"line\nbreak\","))
    #expect(text.hasSuffix("1,2,3,4,5,6,7\r\n"))
    let decoded = try CSVFormat.decode(text)
    #expect(decoded.header == ["a", "b", "c", "d", "e", "f", "g"])
    #expect(decoded.rows == rows)
  }

  @Test("the column table names every typed column once, and a sample's numbers read back through the same ids")
  func typedColumns() {
    let sampleIDs = ReportColumns.samples.map(\.id)
    #expect(
      sampleIDs
        == SampleColumn.allCases.map(ColumnID.sample).sorted { a, b in
          sampleIDs.firstIndex(of: a)! < sampleIDs.firstIndex(of: b)!
        })
    #expect(Set(sampleIDs).count == SampleColumn.allCases.count)
    let summaryIDs = ReportColumns.summary.map(\.id)
    #expect(Set(summaryIDs).count == summaryIDs.count)
    for statistic in SummaryStatistic.allCases {
      #expect(summaryIDs.contains(.statistic(statistic)), "\(statistic)")
    }
    var sample = Sample(
      key: RowKey(scenario: "s", workload: "w", backend: "b", variant: "default", size: 1, parameters: ""),
      repetition: 1, dataset: "")
    sample.status = .ok
    for column in ReportColumns.samples where column.isNumeric && column.aggregation != .key {
      guard case .sample(let id) = column.id, id != .repetition, !id.isDerived else { continue }
      sample.set(id, 3, unit: column.unit)
      #expect(sample.number(id) == 3, "\(column.name)")
    }
    for cost in CountedCost.allCases {
      let (total, perOp) = SampleColumn.counted(cost)
      #expect(total.countedCost?.cost == cost && total.countedCost?.perOp == false)
      #expect(perOp.countedCost?.cost == cost && perOp.countedCost?.perOp == true)
    }
    #expect(SampleColumn.allCases.filter { $0.countedCost != nil }.count == 2 * CountedCost.allCases.count)
    // Derived from the counts, ops and record bytes set above (3 each; 3 dirtied pages = 12,288 B).
    #expect(sample.number(.syncsPerOp) == 1)
    #expect(sample.number(.writtenBytesPerOp) == 1)
    #expect(sample.number(.writeAmplification) == 12_288.0 / 3)
    sample.costs[.pagesDirtied] = nil
    #expect(sample.number(.writeAmplification) == nil, "no amplification without the dirtied pages")
  }

  @Test("numbers are plain numbers")
  func numberFormats() {
    #expect(CSVFormat.seconds(0.0123456789) == "0.012345679")
    #expect(CSVFormat.decimal(1234.5678) == "1234.568")
    #expect(CSVFormat.integer(nil) == "")
    #expect(CSVFormat.integer(42) == "42")
  }

  @Test("statistics against hand-computed values")
  func statistics() throws {
    let s = try #require(Statistics([2, 4, 4, 4, 5, 5, 7, 9]))
    #expect(s.n == 8 && s.median == 4.5 && s.mean == 5 && s.minimum == 2 && s.maximum == 9)
    #expect(abs(s.standardDeviation - 2.138089935) < 1e-9)  // sqrt(32/7)
    let interval = try #require(s.medianInterval)  // n = 8: ranks 1 and 8, coverage 1 − 2/256
    #expect(interval.low == 2 && interval.high == 9 && abs(interval.coverage - 0.9921875) < 1e-12)
    #expect(Statistics([3])?.medianInterval == nil)
    #expect(Statistics([]) == nil)
    #expect(Statistics([5, 1, 3])?.median == 3)
  }

  /// Cases computed by SciPy (`Tests/Fixtures/make_median_intervals.py`): `quantile_test(x, q=0.5)` intervals.
  struct IntervalFixture: Decodable {
    struct Case: Decodable {
      let values: [Double]
      let low: Double?
      let high: Double?
      let coverage: Double?
    }
    let scipy: String
    let cases: [Case]
  }

  @Test("the median's interval matches SciPy's quantile_test, stays inside [min, max], and is empty below n = 6")
  func medianIntervalMatchesSciPy() throws {
    let url = packageRoot.appendingPathComponent("Tests/Fixtures/median-intervals.json")
    let fixture = try JSONDecoder().decode(IntervalFixture.self, from: Data(contentsOf: url))
    #expect(fixture.cases.count > 40)
    for item in fixture.cases {
      let sorted = item.values.sorted()
      let interval = MedianInterval(sorted: sorted)
      let statistics = try #require(Statistics(item.values))
      #expect(
        interval?.low == item.low && interval?.high == item.high, "n=\(sorted.count) vs SciPy \(fixture.scipy)")
      if let coverage = item.coverage, let interval {
        #expect(abs(interval.coverage - coverage) < 1e-9 && interval.coverage >= 0.95)
        #expect(sorted.first! <= interval.low && interval.low <= statistics.median)
        #expect(statistics.median <= interval.high && interval.high <= sorted.last!)
        #expect(MedianInterval.unavailableReason(n: sorted.count) == nil)
      } else {
        #expect(interval == nil && MedianInterval.unavailableReason(n: sorted.count) != nil)
      }
    }
  }

  @Test("summary.csv: the median's interval lies in [min, max] with its coverage, or is empty with a reason")
  func summaryInterval() throws {
    let key = { (size: Int) in
      RowKey(scenario: "s", workload: "insert", backend: "memory", variant: "default", size: size, parameters: "")
    }
    var builder = SummaryBuilder()
    for wall in [0.9, 0.002, 0.0011, 0.0012, 0.0013, 0.0010, 0.0014] { builder.add(.measured(key(7), wall: wall)) }
    for wall in [0.001, 0.5] { builder.add(.measured(key(2), wall: wall)) }
    let csv = builder.csvRows
    func cell(_ row: Int, _ name: String) -> String { csv[row][csv[0].firstIndex(of: name)!] }
    let low = try #require(Double(cell(1, "median_ci95_low_s")))
    let high = try #require(Double(cell(1, "median_ci95_high_s")))
    let minimum = try #require(Double(cell(1, "min_s")))
    let maximum = try #require(Double(cell(1, "max_s")))
    let median = try #require(Double(cell(1, "median_s")))
    #expect(minimum <= low && low <= median && median <= high && high <= maximum)
    #expect(low == 0.001 && high == 0.9)  // n = 7: ranks 1 and 7
    #expect(cell(1, "median_ci_coverage") == "0.984" && cell(1, "median_ci_note") == "")
    #expect(cell(2, "median_ci95_low_s") == "" && cell(2, "median_ci95_high_s") == "")
    #expect(cell(2, "median_ci_note").contains("at least 6 repetitions"))
  }

  @Test("noise flags: contention from the load or the rest of the machine's CPU, imprecise and missing intervals")
  func noiseFlags() throws {
    let tight = try #require(Statistics([1.00, 1.01, 0.99, 1.00, 1.02, 0.98, 1.00]))
    let wide = try #require(Statistics([1.0, 2.0, 0.5, 1.0, 3.0, 0.7, 1.1]))
    let few = try #require(Statistics([1.0, 1.0]))
    #expect(NoiseFlags.flags(statistics: tight, medianLoad: 0.9, wallTotal: 7, otherCPUTotal: 0.1, cores: 2) == [])
    #expect(
      NoiseFlags.flags(statistics: tight, medianLoad: 2.5, wallTotal: 7, otherCPUTotal: 0.1, cores: 2) == [
        "contended"
      ])
    #expect(
      NoiseFlags.flags(statistics: tight, medianLoad: nil, wallTotal: 7, otherCPUTotal: 4, cores: 2) == [
        "contended"
      ])
    // Too little timed work to judge the CPU share from 10 ms ticks.
    #expect(
      NoiseFlags.flags(statistics: tight, medianLoad: nil, wallTotal: 0.05, otherCPUTotal: 0.04, cores: 2) == [])
    #expect(
      NoiseFlags.flags(statistics: wide, medianLoad: 0.5, wallTotal: 9, otherCPUTotal: 0, cores: 2) == [
        "imprecise"
      ])
    #expect(
      NoiseFlags.flags(statistics: few, medianLoad: 0.5, wallTotal: 2, otherCPUTotal: 0, cores: 2) == [
        "no-interval"
      ])
  }

  @Test("summary: failed rows are marked, statistics only over ok samples, order follows the plan")
  func summary() {
    let key = { (backend: String) in
      RowKey(
        scenario: "s", workload: "insert", backend: backend, variant: "default", size: 10,
        parameters: "count=10")
    }
    var builder = SummaryBuilder(order: [key("b"), key("a")])
    func sample(_ backend: String, _ wall: Double, _ status: RowStatus) -> Sample {
      .measured(
        key(backend), status: status, wall: wall, maxRSSKiB: 100, writeBytes: 5, storeBytes: 10,
        storeAllocatedBytes: 4096, ops: 10, settings: "x=1", error: status == .ok ? "" : "boom")
    }
    builder.add(sample("a", 1, .ok))
    builder.add(sample("a", 3, .ok))
    builder.add(sample("b", 2, .ok))
    builder.add(sample("b", 9, .failed))
    let rows = builder.summary
    #expect(rows.map(\.key.backend) == ["b", "a"])
    #expect(rows[0].status == .failed && rows[0].error == "boom" && rows[0].statistics?.n == 1)
    #expect(rows[1].status == .ok && rows[1].statistics?.median == 2)
    #expect(!builder.allSucceeded)
    let csv = builder.csvRows
    #expect(csv[0] == ColumnSet.standard.summaryHeader)
    #expect(csv[2][ColumnSet.standard.summaryHeader.firstIndex(of: "median_ops_per_s")!] == "6.667")
    #expect(csv[2][ColumnSet.standard.summaryHeader.firstIndex(of: "median_read_bytes")!] == "")
  }

  @Test("atomic write replaces the file whole and leaves no partial file")
  func atomicWrite() throws {
    let temp = try TemporaryDirectory()
    let url = temp.url.appendingPathComponent("report.csv")
    try AtomicFile.write(Data("old".utf8), to: url)
    try AtomicFile.write(Data("new".utf8), to: url)
    #expect(try String(contentsOf: url, encoding: .utf8) == "new")
    #expect(temp.tree() == ["report.csv"])
    #expect(throws: ReportError.self) {
      try AtomicFile.write(Data("x".utf8), to: URL(fileURLWithPath: "/nonexistent-dir/report.csv"))
    }
  }
}
