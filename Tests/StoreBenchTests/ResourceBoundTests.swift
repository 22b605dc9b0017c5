import Foundation
import StoreBenchCore
import StoreBenchStandard
import Testing

/// Bounds before work: what a scenario's data needs, refused with the numbers before anything runs.
@Suite("Bounds before work")
struct ResourceBoundTests {
  static func bound(records: Int, rows: Int = 1) -> ResourceBound {
    ResourceBound(
      records: records, largestDataset: records,
      rowRecords: Array(repeating: records / max(rows, 1), count: rows),
      memoryBytesPerRecord: 400, generationSecondsPerRecord: 2e-6)
  }

  @Test("memory, disk and budget are each refused with their numbers; a small scenario fits")
  func refusals() throws {
    let big = Self.bound(records: 10_000_000)  // 8 GB of memory at 400 B a record, twice over
    #expect(throws: ScenarioError.self) {
      try big.check(file: "s.yaml", memoryAvailable: 4e9, diskFree: 1e12, budgetSeconds: nil)
    }
    do {
      try big.check(file: "s.yaml", memoryAvailable: 4e9, diskFree: 1e12, budgetSeconds: nil)
    } catch let error as ScenarioError {
      #expect(error.message.contains("10000000 records") && error.message.contains("80% of the"), "\(error)")
    }
    #expect(throws: ScenarioError.self) {
      try big.check(file: "s.yaml", memoryAvailable: 1e12, diskFree: 1e9, budgetSeconds: nil)
    }
    #expect(throws: ScenarioError.self) {  // 20 s to generate, 40 s to fill and verify once, budget 30 s
      try big.check(file: "s.yaml", memoryAvailable: 1e12, diskFree: 1e12, budgetSeconds: 30)
    }
    try Self.bound(records: 10_000).check(file: "s.yaml", memoryAvailable: 4e9, diskFree: 1e10, budgetSeconds: 30)
  }

  @Test("the estimate is measured here: generating is not free, a record is at least its text")
  func estimateIsMeasured() throws {
    let scenario = try ScenarioParser(backends: .standard(), workloads: .standard).parse(
      data: Data(
        """
        name: t
        backends: [{backend: memory}, {backend: sqlite}]
        workloads: [{workload: lookup, parameters: {stored: 20000, count: 100}}]
        """.utf8), file: "t.yaml")
    let cases = try RunPlan.check(scenario, workloads: .standard, limits: .init())
    let bound = ResourceBound.estimate(cases, seed: 42)
    #expect(bound.records == 20_100 && bound.rowRecords == [20_100, 20_100])
    #expect(bound.memoryBytesPerRecord > 190 && bound.generationSecondsPerRecord > 0)
    #expect(bound.description.contains("generated records"))
  }

  @Test(
    "through the binary: a 5,000,000-record profile is refused before anything is created; run --dry-run shows the data"
  )
  func hugeProfileRefused() throws {
    let box = try Sandbox()
    let profile = try box.root.file(
      "big.yaml",
      """
      name: big
      data: {records: 5000000, summary_bytes: 400}
      per_day: {save: 20, launch: 3}
      durability: kill
      """)
    let out = box.url.appendingPathComponent("answer")
    let refused = try box.run(["advise", "--profile", profile, "--out", out.path, "--workdir", box.work.path])
    #expect(
      refused.status == 64
        && ["memory", "budget", "disk"].contains { refused.stderr.contains($0) },
      "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out.path) && box.leftovers().isEmpty)
    let dry = try box.run([
      "run", "--workload", "lookup", "--backend", "memory", "--param", "stored=20000", "--dry-run",
    ])
    #expect(dry.status == 0 && dry.stdout.contains("data: 30000 generated records"), "\(dry.stdout)")
  }
}
