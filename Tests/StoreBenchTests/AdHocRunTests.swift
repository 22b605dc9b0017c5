import Foundation
import StoreBenchBackends
import StoreBenchCore
import Testing

@Suite("Ad-hoc runs, filters and dry runs", .serialized)
struct AdHocRunTests {
    @Test("three backends × two workloads × two sizes without YAML: one summary.json entry per summary.csv row")
    func adHocRun() throws {
        let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
        let out = temp.url.appendingPathComponent("out")
        let result = try runStorebench(["run", "--backend", "sqlite[txn=single,journal=wal,sync=normal]", "--backend", "lmdb",
                                        "--backend", "gdbm", "--workload", "insert", "--workload", "mark-read",
                                        "--size", "100,300", "--reps", "2", "--warmup", "0",
                                        "--out", out.path, "--workdir", temp.url.path], in: temp.url)
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try CSVFormat.decode(String(contentsOf: out.appendingPathComponent("summary.csv"), encoding: .utf8))
        #expect(summary.rows.count == 12)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("summary.json"))) as? [String: Any])
        let rows = try #require(json["rows"] as? [[String: Any]])
        #expect(rows.count == summary.rows.count)
        #expect(Set(rows.compactMap { $0["variant"] as? String }.filter { $0.hasPrefix("txn=single journal=wal sync=normal") }).count == 1)
        #expect(Set(rows.compactMap { ($0["size"] as? Double).map(Int.init) }) == [100, 300])
    }

    @Test("--dry-run prints the plan and a bound on its duration and writes nothing")
    func dryRun() throws {
        let temp = try TemporaryDirectory()
        let out = temp.url.appendingPathComponent("out")
        let result = try runStorebench(["run", "--scenario", "scenarios/quick.yaml", "--dry-run", "--out", out.path])
        #expect(result.status == 0 && result.stdout.contains("21 cases") && result.stdout.contains("estimated duration: at most about"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("--backend with settings narrows a scenario to matching variants; --filter globs over backend[variant] and workload")
    func narrowing() throws {
        let registry = BackendRegistry.standard()
        let scenario = try ScenarioParser(backends: registry, workloads: .standard).parse(file: "scenarios/default.yaml")
        let single = try scenario.narrowed(backends: ["sqlite[txn=single]"], workloads: [])
        #expect(single.backends.count == 3 && single.backends.allSatisfy { SQLiteSettings($0.variant).txn == .single })
        #expect(throws: ScenarioError.self) { try scenario.narrowed(backends: ["sqlite[txn=never]"], workloads: []) }
        let globbed = try scenario.filtered(["lmdb*nosync*", "mark-*"])
        #expect(globbed.backends.count == 1 && globbed.workloads.map(\.workload) == ["mark-read"])
        #expect(throws: ScenarioError.self) { try scenario.filtered(["oracle*"]) }
        #expect(throws: ScenarioError.self) { try BackendSpec(parsing: "sqlite[txn=single") }
    }

    @Test("the bundled scenarios are found outside the repository")
    func outsideTheRepository() throws {
        let temp = try TemporaryDirectory()
        let result = try runStorebench(["run", "--dry-run", "--filter", "memory"], in: temp.url)
        #expect(result.status == 0 && result.stdout.contains("scenario default ("), "\(result.stderr)")
    }
}
