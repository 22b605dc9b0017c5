import Foundation
import StoreBenchCore
import Testing

@Suite("The decision report")
struct DecisionReportTests {
    /// Ten repetitions of insert at `size` on `backend`, around `mean` seconds.
    func rows(_ backend: String, mean: Double, size: Int = 100, seed: UInt64) -> [Sample] {
        syntheticSamples(mean: mean, repetitions: 10, seed: seed, rows: [backend]).map { sample in
            var copy = sample
            copy.key = RowKey(scenario: "s", workload: "insert", backend: backend, variant: "default", size: size,
                              parameters: "count=\(size)")
            return copy
        }
    }

    @Test("ranks by median at the main size, groups by durability, lowers a promise a crash run refuted, never ranks other sizes or the floor")
    func ranking() throws {
        let samples = rows("fast", mean: 1.0, seed: 1) + rows("safe", mean: 1.5, seed: 2) + rows("liar", mean: 1.2, seed: 3)
            + rows("floor", mean: 0.1, seed: 4) + rows("small", mean: 0.01, size: 10, seed: 5)
        let promises: [String: DurabilityPromise] = ["fast": .survivesKill, "safe": .durable, "liar": .durable, "floor": .none,
                                                     "small": .durable]
        let kills = CrashResult.read(csv: """
            backend,variant,settings,kills,acked_batches,lost_batches,partial_batches,corrupt_opens,unrecoverable,retries\r
            liar,default,,50,1000,7,0,0,0,0\r
            safe,default,,50,1000,0,0,0,0,0\r
            """)
        let report = DecisionReport(table: try table(samples), promise: { backend, _ in promises[backend] }, crashes: kills)
        let answer = report.answer
        let line = try #require(answer.split(separator: "\n").first { $0.hasPrefix("| insert (100)") })
        let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(cells[1].hasPrefix("fast [default]") && cells[1].contains("survives a killed app"), "\(cells)")
        #expect(cells[3].hasPrefix("safe [default]") && cells[3].contains("1.5"), "the liar lost data, so safe is the durable pick: \(cells)")
        #expect(answer.contains("if the data must survive power loss, safe [default]"))
        let rankings = report.rankings
        #expect(rankings.contains("| floor | floor [default] |"))
        #expect(rankings.contains("| – | small [default] | 10 |") && rankings.contains("not ranked (size differs)"))
        #expect(rankings.contains("| liar [default] | 100 |") && rankings.contains("7 of 1,000 lost"))
        #expect(rankings.contains("may lose data when the app is killed"))
    }

    @Test("a measured power-loss loss lowers a durable promise to 'survives a killed app'; unmeasured ones say 'declared'")
    func powerLoss() throws {
        let samples = rows("wal", mean: 1.0, seed: 1) + rows("extra", mean: 1.3, seed: 2) + rows("trusted", mean: 1.1, seed: 3)
        let promises: [String: DurabilityPromise] = ["wal": .durable, "extra": .durable, "trusted": .durable]
        let crashes = CrashResult.read(csv: """
            backend,variant,settings,fault,image,trials,images,acked_batches,lost_batches,partial_batches,corrupt_opens,unrecoverable,retries,status,detail\r
            wal,default,,kill,live,50,50,900,0,0,0,0,0,measured,\r
            wal,default,,power-loss,synced,50,50,800,12,0,0,0,0,measured,\r
            wal,default,,power-loss,prefix,50,150,2400,0,0,0,0,0,measured,\r
            extra,default,,kill,live,50,50,900,0,0,0,0,0,measured,\r
            extra,default,,power-loss,synced,50,50,800,0,0,0,0,0,measured,\r
            extra,default,,power-loss,prefix,50,150,2400,0,0,0,0,0,measured,\r
            trusted,default,,kill,live,50,50,900,0,0,0,0,0,measured,\r
            trusted,default,,power-loss,synced,0,0,0,0,0,0,0,0,unavailable,no /dev/fuse\r
            """)
        #expect(crashes["wal [default]"]?.powerLoss == CrashResult.Counts(trials: 50, acknowledged: 3200, lost: 12, corrupt: 0))
        let report = DecisionReport(table: try table(samples), promise: { backend, _ in promises[backend] }, crashes: crashes)
        let line = try #require(report.answer.split(separator: "\n").first { $0.hasPrefix("| insert (100)") })
        let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(cells[1].hasPrefix("wal [default]") && cells[1].contains("survives a killed app"), "\(cells)")
        #expect(cells[3].hasPrefix("trusted [default]") && cells[3].contains("(declared)"), "\(cells)")
        let rankings = report.rankings
        #expect(rankings.contains("| survives power loss | 0 of 900 lost, 0 unreadable in 50 trials | 0 of 3,200 lost, 0 unreadable in 50 trials |"),
                "extra: measured both ways")
        #expect(rankings.contains("survives power loss (declared) |") && rankings.contains("unavailable: no /dev/fuse"))
        #expect(rankings.contains("12 of 3,200 lost"))
    }
}
