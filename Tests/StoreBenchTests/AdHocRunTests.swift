import Foundation
import StoreBenchBackends
import StoreBenchCore
import StoreBenchStandard
import Testing

@Suite("Ad-hoc runs, filters and dry runs", .serialized)
struct AdHocRunTests {
  @Test("three backends × two workloads × two sizes without YAML: one summary.json entry per summary.csv row")
  func adHocRun() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let out = temp.url.appendingPathComponent("out")
    let result = try runStorebench(
      [
        "run", "--backend", "sqlite[txn=single,journal=wal,sync=normal]", "--backend", "lmdb",
        "--backend", "gdbm", "--workload", "insert", "--workload", "mark-read",
        "--size", "100,300", "--reps", "2", "--warmup", "0",
        "--out", out.path, "--workdir", temp.url.path,
      ], in: temp.url)
    #expect(result.status == 0, "\(result.stderr)")
    let summary = try CSVFormat.decode(
      String(contentsOf: out.appendingPathComponent("summary.csv"), encoding: .utf8))
    #expect(summary.rows.count == 12)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("summary.json")))
        as? [String: Any])
    let rows = try #require(json["rows"] as? [[String: Any]])
    #expect(rows.count == summary.rows.count)
    #expect(
      Set(
        rows.compactMap { $0["variant"] as? String }.filter {
          $0.hasPrefix("txn=single journal=wal sync=normal")
        }
      ).count == 1)
    #expect(Set(rows.compactMap { ($0["size"] as? Double).map(Int.init) }) == [100, 300])
  }

  @Test(
    "--param sets a parameter in every selected workload that has it; a key none has, a bad value or form is bad input"
  )
  func parameterOverrides() throws {
    let scenario = try Scenario.adHoc(
      backends: ["memory"], workloads: ["insert", "mark-read", "timeline"], sizes: [],
      backendRegistry: .standard(), workloadRegistry: .standard)
    let shaped = try scenario.overriding(["summary_bytes": 2_000, "stored": 30_000], workloads: .standard)
    let byName = Dictionary(uniqueKeysWithValues: shaped.workloads.map { ($0.workload, $0.cases) })
    #expect(byName["insert"]?.map(\.description) == ["count=10000 stored=30000 summary_bytes=2000"])
    #expect(byName["mark-read"]?.map(\.description) == ["count=10000 stored=30000 summary_bytes=2000"])
    #expect(byName["timeline"]?.map(\.description) == ["messages=100000 screen=200 users=5000"])
    #expect(throws: ScenarioError.self) { try scenario.overriding(["nope": 1], workloads: .standard) }
    #expect(throws: ScenarioError.self) { try scenario.overriding(["summary_bytes": -1], workloads: .standard) }
    // mark-read needs count ≤ stored.
    #expect(throws: ScenarioError.self) { try scenario.overriding(["stored": 5], workloads: .standard) }
    for bad in [
      ["--param", "nope=1"], ["--param", "summary_bytes"], ["--param", "summary_bytes=big"],
      ["--param", "count=5", "--param", "count=6"],
    ] {
      let result = try runStorebench(["run", "--backend", "memory", "--workload", "insert", "--dry-run"] + bad)
      #expect(result.status == 64, "\(bad): \(result.stderr)")
      #expect(result.stderr.contains("--param") || result.stderr.contains("nope"), "\(result.stderr)")
    }
    let good = try runStorebench([
      "run", "--backend", "memory", "--workload", "insert", "--dry-run", "--param", "stored=500",
    ])
    #expect(good.status == 0 && good.stdout.contains("stored=500"), "\(good.stdout)\(good.stderr)")
  }

  @Test("--dry-run prints the plan and a bound on its duration and writes nothing")
  func dryRun() throws {
    let temp = try TemporaryDirectory()
    let out = temp.url.appendingPathComponent("out")
    let result = try runStorebench(["run", "--scenario", "scenarios/quick.yaml", "--dry-run", "--out", out.path])
    #expect(
      result.status == 0 && result.stdout.contains("21 cases")
        && result.stdout.contains("estimated duration: at most about"))
    #expect(!FileManager.default.fileExists(atPath: out.path))
  }

  @Test(
    "--backend with settings narrows a scenario to matching variants; --filter globs over backend[variant] and workload"
  )
  func narrowing() throws {
    let registry = BackendRegistry.standard()
    let scenario = try ScenarioParser(backends: registry, workloads: .standard).parse(
      file: "scenarios/default.yaml")
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
