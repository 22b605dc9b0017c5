import Foundation
import StoreBenchBackends
import StoreBenchCore
import StoreBenchStandard
import Testing

@Suite("Runner")
struct RunnerTests {
  func scenario(_ temp: TemporaryDirectory, backends: String, insertCount: Int = 2_000) throws -> String {
    try temp.file(
      "scenario.yaml",
      """
      name: runner-test
      seed: 3
      warmup: 0
      repetitions: 2
      backends:
      \(backends)
      workloads:
        - workload: insert
          parameters: {count: \(insertCount)}
        - workload: mark-read
          parameters: {stored: 300, count: 100}
        - workload: timeline
          parameters: {users: 20, messages: 500, screen: 50}
      """)
  }

  /// Runs the scenario through the library: the finished run's result (the library returns it; the command
  /// decides the exit code), or the failure's text, and the progress lines.
  func invoke(_ path: String, output: URL, registry: BackendRegistry) -> (Runner.Result?, String) {
    var request = RunRequest(scenarioFile: path)
    request.output = output.path
    request.workdir = output.deletingLastPathComponent().path
    var lines = ""
    do {
      let outcome = try RunInvocation(request).execute(
        backendRegistry: registry, workloadRegistry: .standard,
        progress: { lines += $0 + "\n" })
      guard case .finished(let result, let published) = outcome else { return (nil, lines + "planned only") }
      #expect(published.standardizedFileURL.path == output.standardizedFileURL.path)
      return (result, lines)
    } catch {
      return (nil, lines + "error: \(error)")
    }
  }

  @Test("verification catches a backend that drops 1 write in 1,000: rows failed, the run reports it")
  func brokenBackendFails() throws {
    let temp = try TemporaryDirectory()
    var registry = BackendRegistry.standard()
    registry.register(BrokenBackend.descriptor())
    let path = try scenario(temp, backends: "  - backend: broken\n  - backend: memory")
    let output = temp.url.appendingPathComponent("out")
    let (result, errors) = invoke(path, output: output, registry: registry)
    let finished = try #require(result, "\(errors)")
    #expect(!finished.allSucceeded && !finished.interrupted)
    #expect(finished.summary.contains { $0.status == .failed })

    let summary = try CSVFormat.decode(
      String(contentsOf: output.appendingPathComponent("summary.csv"), encoding: .utf8))
    let status = summary.header.firstIndex(of: "status")!
    let backend = summary.header.firstIndex(of: "backend")!
    let workload = summary.header.firstIndex(of: "workload")!
    let error = summary.header.firstIndex(of: "error")!
    let broken = summary.rows.filter { $0[backend] == "broken" }
    #expect(broken.first { $0[workload] == "insert" }?[status] == "failed")
    #expect(
      broken.first { $0[workload] == "insert" }?[error].hasPrefix(
        "broken [default] insert verify: verification failed: expected 2000 articles") == true)
    #expect(broken.first { $0[workload] == "mark-read" }?[status] == "failed")
    #expect(broken.first { $0[workload] == "timeline" }?[status] == "ok")
    #expect(summary.rows.filter { $0[backend] == "memory" }.allSatisfy { $0[status] == "ok" })
  }

  @Test("a clean run exits 0 and its work directories are removed")
  func cleanRun() throws {
    let temp = try TemporaryDirectory()
    let path = try scenario(
      temp,
      backends:
        "  - backend: sqlite\n    variants: [{txn: single, journal: wal, sync: normal}]\n  - backend: memory",
      insertCount: 300)
    let output = temp.url.appendingPathComponent("out")
    let (result, errors) = invoke(path, output: output, registry: .standard())
    #expect(result?.allSucceeded == true, "\(errors)")
    #expect(
      temp.tree().filter { $0.hasPrefix("storebench-") }.isEmpty, "work directory left behind: \(temp.tree())")
    let samples = try CSVFormat.decode(
      String(contentsOf: output.appendingPathComponent("samples.csv"), encoding: .utf8))
    #expect(samples.header == ColumnSet.standard.sampleHeader)
    #expect(samples.rows.count == 3 * 2 * 2)
    let checksum = samples.header.firstIndex(of: "checksum")!
    #expect(samples.rows.allSatisfy { $0[checksum].count == 16 })
    // The same data gives the same checksum on every backend.
    let workload = samples.header.firstIndex(of: "workload")!
    for name in ["insert", "mark-read", "timeline"] {
      #expect(Set(samples.rows.filter { $0[workload] == name }.map { $0[checksum] }).count == 1, "\(name)")
    }
  }

  @Test("limits cap a variant's workload parameters")
  func limitsCap() throws {
    let temp = try TemporaryDirectory()
    let path = try scenario(
      temp,
      backends: "  - backend: memory\n    limits: {insert: {count: 150}, timeline: {messages: 150, users: 10}}")
    let registry = BackendRegistry.standard()
    let scenario = try ScenarioParser(backends: registry, workloads: .standard).parse(file: path)
    let plan = try RunPlan(scenario: scenario, backends: registry, workloads: .standard)
    #expect(plan.cases.map(\.key.size) == [150, 100, 150])
    #expect(
      plan.cases.map(\.key.parameters) == [
        "count=150", "count=100 stored=300", "messages=150 screen=50 users=10",
      ])
  }

  @Test("the run order is seeded: the same each run, different between rounds")
  func seededOrder() throws {
    let temp = try TemporaryDirectory()
    let path = try scenario(
      temp, backends: "  - backend: memory\n  - backend: sqlite\n    variants: [{txn: none}, {txn: single}]")
    let registry = BackendRegistry.standard()
    let scenario = try ScenarioParser(backends: registry, workloads: .standard).parse(file: path)
    let plan = try RunPlan(scenario: scenario, backends: registry, workloads: .standard)
    let again = try RunPlan(scenario: scenario, backends: registry, workloads: .standard)
    #expect(plan.order(round: 0) == again.order(round: 0))
    #expect(Set(plan.order(round: 0)) == Set(plan.cases.indices))
    #expect((0..<5).map(plan.order(round:)).count { $0 != plan.order(round: 0) } >= 3)
  }
}

@Suite("Finished stores are put aside, not deleted at once")
struct RetiredStoresTests {
  @Test("retire moves a store aside; over the budget they are deleted; remove() leaves nothing")
  func retire() throws {
    let parent = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let work = try WorkDirectory(in: parent.url, prefix: "retire-")
    let first = try work.subdirectory("a")
    try Data(repeating: 1, count: 10_000).write(to: first.appendingPathComponent("store"))
    work.retire(first)
    #expect(!FileManager.default.fileExists(atPath: first.path))
    let aside = try FileManager.default.contentsOfDirectory(
      atPath: work.url.appendingPathComponent(".retired").path)
    #expect(aside.count == 1)
    work.retireBudgetBytes = 1  // the next store goes over the budget: everything put aside is deleted
    let second = try work.subdirectory("b")
    try Data(repeating: 2, count: 10_000).write(to: second.appendingPathComponent("store"))
    work.retire(second)
    #expect(!FileManager.default.fileExists(atPath: work.url.appendingPathComponent(".retired").path))
    work.remove()
    #expect(parent.tree().isEmpty, "\(parent.tree())")
  }
}
