import Foundation
import StoreBenchCore
import StoreBenchStandard
import Testing

/// Runs the built `storebench` binary as a user would.
@Suite("End to end", .serialized)
struct EndToEndTests {
  @Test("run smoke.yaml: three files, documented headers, one row per combination")
  func smokeRun() throws {
    let temp = try TemporaryDirectory()
    let out = temp.url.appendingPathComponent("results")
    let started = Date()
    let result = try runStorebench([
      "run", "--scenario", "scenarios/smoke.yaml", "--out", out.path,
      "--workdir", temp.url.path, "--reps", "2", "--warmup", "0",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
        == [
          "samples.csv", "summary.csv", "summary.json", "environment.json", "rounds.csv",
          ".storebench-manifest.json",
        ])
    #expect(
      try OutputManifest.read(in: out)?.files == [
        "environment.json", "rounds.csv", "samples.csv", "summary.csv", "summary.json",
      ])

    let (combinations, declined) = try InventoryTests.smokeRows()  // derived from the registries and smoke.yaml
    let samples = try CSVFormat.decode(
      String(contentsOf: out.appendingPathComponent("samples.csv"), encoding: .utf8))
    #expect(samples.header == ColumnSet.standard.sampleHeader)
    #expect(samples.rows.count == (combinations - declined) * 2 + declined)
    let summary = try CSVFormat.decode(
      String(contentsOf: out.appendingPathComponent("summary.csv"), encoding: .utf8))
    #expect(summary.header == ColumnSet.standard.summaryHeader)
    #expect(summary.rows.count == combinations)
    let summaryJSON = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("summary.json")))
        as? [String: Any])
    let jsonRows = try #require(summaryJSON["rows"] as? [[String: Any]])
    #expect(jsonRows.count == summary.rows.count && (summaryJSON["environment"] as? [String: Any])?["seed"] != nil)
    let medianColumn = summary.header.firstIndex(of: "median_s")!
    #expect(
      zip(jsonRows, summary.rows).allSatisfy { object, cells in
        cells[medianColumn].isEmpty
          ? object["median_s"] is NSNull : (object["median_s"] as? Double) == Double(cells[medianColumn])
      })
    let environment = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: out.appendingPathComponent("environment.json"))) as? [String: Any])
    for key in [
      "disk_floors_at_start", "disk_floors_at_end", "storage", "repetition_policy", "median_interval_method",
    ] {
      #expect(environment[key] != nil, "environment.json lacks \(key)")
    }
    let floors = try #require(environment["disk_floors_at_start"] as? [String: Double])
    #expect((floors["fdatasync_4k_s"] ?? 0) > 0 && (floors["create_rename_unlink_s"] ?? 0) > 0)
    let noise = summary.header.firstIndex(of: "noise")!
    let rowStatus = summary.header.firstIndex(of: "status")!
    #expect(summary.rows.allSatisfy { $0[rowStatus] != "ok" || $0[noise].contains("no-interval") }, "2 repetitions")
    let status = summary.header.firstIndex(of: "status")!
    let backend = summary.header.firstIndex(of: "backend")!
    let summaryWorkload = summary.header.firstIndex(of: "workload")!
    let backends = BackendRegistry.standard()
    let workloads = WorkloadRegistry.standard
    for row in summary.rows {
      // Unsupported exactly where the store's type lacks a role the workload needs (memory cannot be launched in
      // a
      // fresh process; only sqlite, grdb, lmdb and gdbm compact).
      let needs = try #require(workloads[row[summaryWorkload]]).requires
      let declined = try !needs.isEmpty && !#require(backends[row[backend]]).roles.isSuperset(of: needs)
      #expect(
        row[status] == (declined ? "unsupported" : "ok"),
        "\(row[summaryWorkload]) \(row[backend]): \(row[status])")
    }

    // Per-operation percentiles: present for workloads of many operations, ordered, empty for one-operation rows.
    let sampleStatus = samples.header.firstIndex(of: "status")!
    let workload = samples.header.firstIndex(of: "workload")!
    let percentiles = ReportColumns.latency.map { samples.header.firstIndex(of: $0.name)! }
    for row in samples.rows {
      let values: [Double?] = percentiles.map { Double(row[$0]) }
      if [
        "insert", "lookup", "query", "search", "sync-while-reading", "settings", "cache", "edit", "tags",
        "tag-edit", "open-parent", "parent-save", "parent-read", "shared", "field-update",
      ]
      .contains(row[workload]),
        row[sampleStatus] == "ok"
      {
        let p = values.compactMap { $0 }
        #expect(
          p.count == 5 && p[0] <= p[1] && p[1] <= p[2] && p[2] <= p[3] && p[3] <= p[4] && p[0] > 0, "\(p)")
      } else {
        #expect(values.allSatisfy { $0 == nil })
      }
    }
    let perItem = summary.header.firstIndex(of: "median_s_per_item")!
    #expect(summary.rows.filter { $0[status] == "ok" }.allSatisfy { Double($0[perItem]) != nil })

    let json =
      try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("environment.json")))
      as? [String: Any]
    let manifest = try #require(json)
    for field in [
      "host", "cpu_model", "cores", "memory_bytes", "kernel", "workdir_filesystem", "swift_version",
      "build_configuration", "storebench_version", "git_commit", "libraries", "seed", "datasets",
      "scenario_file", "scenario_hash", "started_at", "finished_at",
    ] {
      #expect(manifest[field] != nil, "environment.json lacks \(field)")
    }
    #expect((manifest["libraries"] as? [String: String])?["sqlite"] != nil)
    // One dataset per workload that stores data.
    #expect(
      (manifest["datasets"] as? [Any])?.count == WorkloadRegistry.standard.workloads.count { $0.requiresStore })
    #expect(result.stdout.contains("| workload | backend | variant |"))
    // Not a terminal: a progress line ([done/expected], elapsed, left) at the start and every few seconds.
    #expect(
      result.stderr.contains("[1/") && result.stderr.contains("repetitions: 0 warm-up, 2 measured"),
      "\(result.stderr)")
    // A line every 5 s: a run slowed by a busy machine prints more of them, never one per repetition.
    let seconds = Date().timeIntervalSince(started)
    #expect(
      result.stderr.split(separator: "\n").count < 40 + Int(seconds / 5),
      "one line per repetition would be ≈500 (the run took \(Int(seconds)) s)")
  }

  @Test(
    "bad input exits 64 with a clear message and writes nothing",
    arguments: [
      (["run", "--scenario", "nonexistent.yaml"], "nonexistent.yaml: no such file; looked in"),
      (
        ["run", "--scenario", "scenarios/smoke.yaml", "--backend", "oracle"],
        "--backend: 'oracle' is not in this scenario"
      ),
      (
        ["run", "--scenario", "scenarios/smoke.yaml", "--workdir", "/nonexistent-dir"],
        "--workdir /nonexistent-dir does not exist"
      ),
      (["run", "--scenario", "scenarios/smoke.yaml", "--reps", "0"], "--reps must be in 1...1000"),
    ])
  func badInput(_ arguments: [String], _ message: String) throws {
    let temp = try TemporaryDirectory()
    let out = temp.url.appendingPathComponent("out")
    let result = try runStorebench(arguments + ["--out", out.path])
    #expect(result.status == 64)
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out.path))
  }

  @Test("an output path that is a file exits 64")
  func outputIsFile() throws {
    let temp = try TemporaryDirectory()
    let file = try temp.file("taken", "x")
    let result = try runStorebench(["run", "--scenario", "scenarios/smoke.yaml", "--out", file])
    #expect(result.status == 64)
    #expect(result.stderr.contains("exists and is a regular file, not a directory"), "\(result.stderr)")
  }

  @Test("list shows the backends with their settings and the workloads")
  func list() throws {
    let result = try runStorebench(["list"])
    #expect(result.status == 0)
    for text in [
      "sqlite —", "txn: none, single", "journal: delete, wal", "sync: off, normal, full", "memory —",
      "insert —", "mark-read —", "timeline —",
    ] {
      #expect(result.stdout.contains(text), "\(text)")
    }
  }

  @Test("--version and --help")
  func versionAndHelp() throws {
    #expect(
      try runStorebench(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        == StoreBenchVersion.current)
    let help = try runStorebench(["run", "--help"])
    #expect(help.status == 0 && help.stdout.contains("--scenario"))
  }
}
