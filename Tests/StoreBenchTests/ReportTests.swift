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
        let ci = try #require(s.confidence95)
        #expect(abs(ci.lowerBound - (5 - 2.365 * 2.138089935 / 8.0.squareRoot())) < 1e-9)
        #expect(Statistics([3])?.confidence95 == nil)
        #expect(Statistics([]) == nil)
        #expect(Statistics([5, 1, 3])?.median == 3)
    }

    @Test("Student t 0.975 quantiles match the published table", arguments: [
        (1, 12.706), (4, 2.776), (9, 2.262), (30, 2.042), (40, 2.021), (60, 2.000), (120, 1.980), (100_000, 1.960),
    ])
    func tQuantiles(_ df: Int, _ expected: Double) {
        #expect(abs(Statistics.tQuantile975(degreesOfFreedom: df) - expected) < 0.001)
    }

    @Test("t quantile between table points lies between them")
    func tInterpolation() {
        let t50 = Statistics.tQuantile975(degreesOfFreedom: 50)
        #expect(t50 < 2.021 && t50 > 2.000)
        #expect(abs(t50 - 2.009) < 0.002)  // published value 2.009
    }

    @Test("summary: failed rows are marked, statistics only over ok samples, order follows the plan")
    func summary() {
        let key = { (backend: String) in
            RowKey(scenario: "s", workload: "insert", backend: backend, variant: "default", size: 10, parameters: "count=10")
        }
        var builder = SummaryBuilder(order: [key("b"), key("a")])
        func sample(_ backend: String, _ wall: Double, _ status: RowStatus) -> Sample {
            .measured(key(backend), status: status, wall: wall, maxRSSKiB: 100, writeBytes: 5, storeBytes: 10,
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
        #expect(csv[0] == SummaryBuilder.header)
        #expect(csv[2][SummaryBuilder.header.firstIndex(of: "median_ops_per_s")!] == "6.667")
        #expect(csv[2][SummaryBuilder.header.firstIndex(of: "median_read_bytes")!] == "")
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
