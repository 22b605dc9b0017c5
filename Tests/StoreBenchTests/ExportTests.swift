import Foundation
import StoreBenchBackends
import StoreBenchCore
import StoreBenchHistory
import Testing

/// `storebench export`: the Bencher Metric Format and github-action-benchmark's JSON, on known values.
@Suite("Export")
struct ExportTests {
  static let summary = """
    scenario,workload,backend,variant,size,status,n,failed,median_s,median_ci95_low_s,median_ci95_high_s,parameters,median_syncs_per_op,median_written_bytes_per_op
    s,insert,sqlite,txn=single journal=wal sync=full index=on search=like,100,ok,7,0,0.5,0.4,0.7,count=100,2,8192
    s,insert,lmdb,txn=single sync=full,100,ok,2,0,0.25,,,count=100,,
    s,insert,gdbm,sync=close,100,failed,0,3,,,,count=100,,

    """

  @Test(
    "BMF: latency in nanoseconds with the median's interval, counts beside it, only ok rows, today's variant names")
  func bmf() throws {
    let registry = BackendRegistry.standard()
    let rows = try Export.rows(summaryCSV: Self.summary, source: "t") {
      registry.currentVariantText(backend: $0, variant: $1)
    }
    #expect(rows.count == 2)
    let object =
      try JSONSerialization.jsonObject(with: Export.encode(rows, as: .bmf))
      as? [String: [String: [String: Double]]]
    let sqliteName =
      "insert/sqlite [txn=single journal=wal sync=full index=on list_index=off search=like auto_vacuum=none "
      + "migrate=alter tags=join fullfsync=off busy_timeout=10000]/100 (count=100)"
    let sqlite = try #require(object?[sqliteName], "\(object?.keys.sorted() ?? [])")
    #expect(sqlite["latency"] == ["value": 5e8, "lower_value": 4e8, "upper_value": 7e8])
    #expect(sqlite["syncs_per_op"] == ["value": 2] && sqlite["written_bytes_per_op"] == ["value": 8192])
    let lmdb = try #require(
      object?["insert/lmdb [txn=single sync=full mapsize_mb=2048 migrate=eager]/100 (count=100)"])
    #expect(lmdb["latency"] == ["value": 2.5e8] && lmdb.count == 1)
    // The same run always gives the same bytes.
    #expect(try Export.encode(rows, as: .bmf) == Export.encode(rows, as: .bmf))
  }

  @Test(
    "github-action-benchmark: [{name, unit, value, range, extra}], one entry per count, range only with an interval"
  )
  func githubActionBenchmark() throws {
    let rows = try Export.rows(summaryCSV: Self.summary, source: "t")
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Export.encode(rows, as: .githubActionBenchmark)) as? [[String: Any]])
    #expect(entries.count == 4)
    for entry in entries {
      #expect(
        entry["name"] is String && entry["unit"] is String && entry["value"] is Double
          && entry["extra"] is String)
    }
    let sqlite = try #require(
      entries.first {
        ($0["name"] as? String)?.hasPrefix("insert/sqlite") == true && $0["unit"] as? String == "s"
      })
    #expect(sqlite["value"] as? Double == 0.5 && sqlite["range"] as? String == "± 0.2")
    #expect(entries.contains { $0["unit"] as? String == "syncs/op" && $0["value"] as? Double == 2 })
    let lmdb = try #require(entries.first { ($0["name"] as? String)?.hasPrefix("insert/lmdb") == true })
    #expect(lmdb["range"] == nil && (lmdb["extra"] as? String)?.contains("too few repetitions") == true)
    #expect(throws: (any Error).self) { try Export.rows(summaryCSV: "a,b\n1,2\n", source: "t") }
  }

  static let validator = packageRoot.appendingPathComponent(".venv-plot/bin/python")
  static let validatorAvailable: Bool = {
    let process = Process()
    process.executableURL = validator
    process.arguments = ["-c", "import jsonschema"]
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }()

  @Test(
    "Exports of a real run validate: BMF against Bencher's published schema, github-action-benchmark against its documented fields",
    .enabled(if: validatorAvailable, "jsonschema is not installed: run scripts/plot --setup (scripts/test does)"))
  func validatesAgainstSchemas() throws {
    let directory = try TemporaryDirectory()
    for (format, schema) in [
      ("bmf", "bmf.schema.json"), ("github-action-benchmark", "github-action-benchmark.schema.json"),
    ] {
      let out = directory.url.appendingPathComponent("\(format).json")
      let export = try runStorebench(["export", "results/example", "--format", format, "--out", out.path])
      #expect(export.status == 0, "\(export)")
      let script = """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1])); document = json.load(open(sys.argv[2]))
        jsonschema.Draft7Validator.check_schema(schema)
        errors = list(jsonschema.Draft7Validator(schema).iter_errors(document))
        for error in errors[:5]: print(error.message, list(error.path))
        if isinstance(document, dict):
            long = [name for name in document if len(name) > 1024] + [m for b in document.values() for m in b if len(m) > 64]
            print("too long for Bencher:", long) if long else None
            errors += long
        print(len(document), "entries")
        sys.exit(1 if errors or not document else 0)
        """
      let process = Process()
      process.executableURL = Self.validator
      process.arguments = [
        "-c", script, packageRoot.appendingPathComponent("Tests/StoreBenchTests/Schemas/\(schema)").path,
        out.path,
      ]
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.run()
      let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationStatus == 0, "\(format): \(output)")
    }
  }
}
