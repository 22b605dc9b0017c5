import Foundation
import HandoffBench
import StoreBenchAdvice
import StoreBenchBackends
import StoreBenchCommands
import StoreBenchConformance
import StoreBenchCore
import StoreBenchStandard
import Testing

/// The workload as the unit of extension: `handoff` (Tests/HandoffBench, one folder and one registration line) has a
/// child job, two columns, a figure and an advise operation of its own, and every command of its binary picks them
/// up — run, report, compare, check, history, columns, advise — as does the conformance suite.
@Suite("A workload declared in one folder")
struct WorkloadExtensionTests {
  static func binary() throws -> URL {
    let url = try storebenchBinary().deletingLastPathComponent().appendingPathComponent("HandoffBench")
    try #require(
      FileManager.default.isExecutableFile(atPath: url.path), "HandoffBench is not built beside storebench")
    return url
  }

  static let scenario = """
    name: handoff-proof
    seed: 7
    repetitions: {min: 3, max: 3}
    backends:
      - {backend: sqlite, variants: [{journal: wal, sync: full, txn: single}]}
      - {backend: lmdb}
      - {backend: memory}
    workloads:
      - {workload: handoff, parameters: {count: 10, stored: 100}}
    """

  @Test("run, report, compare, check, history and columns read the workload's own columns and figure")
  func everyCommand() throws {
    let bench = try Self.binary()
    let temporary = try TemporaryDirectory()
    let folder = temporary.url
    let scenario = folder.appendingPathComponent("handoff.yaml")
    try Self.scenario.write(to: scenario, atomically: true, encoding: .utf8)
    let run = folder.appendingPathComponent("run")
    let ran = try runProgram(
      bench, ["run", "--scenario", scenario.path, "--workdir", "/var/tmp", "--out", run.path, "--quiet"])
    #expect(ran.status == 0, "\(ran.stderr)")

    // samples.csv: the two columns after the standard ones; the fresh process found every record of a store
    // that outlives its process, and the memory store's rows say why nobody read it.
    let samples = try SampleTable(path: run.path, columns: WorkloadRegistry([HandoffWorkload()]).columns)
    #expect(Array(samples.header.suffix(2)) == ["handoff_found", "handoff_child_s"])
    #expect(!ColumnSet.standard.sampleHeader.contains("handoff_found"))
    let rows = samples.rows.filter { $0.status == .ok }
    #expect(rows.count == 9)
    for row in rows {
      if row.key.backend == "memory" {
        #expect(row.values[HandoffWorkload.found] == nil)
      } else {
        #expect(row.values[HandoffWorkload.found] == 110, "\(row.key)")
        #expect((row.values[HandoffWorkload.childSeconds] ?? 0) > 0, "\(row.key)")
      }
    }
    let summary = try String(contentsOf: run.appendingPathComponent("summary.csv"), encoding: .utf8)
    #expect(summary.split(whereSeparator: \.isNewline).first?.hasSuffix(",median_handoff_child_s") == true)

    // report: the figure table with the declared headings; the floor's row was not exercised.
    #expect(try runProgram(bench, ["report", run.path]).status == 0)
    let report = try String(contentsOf: run.appendingPathComponent("report.md"), encoding: .utf8)
    #expect(report.contains("`handoff`: what a fresh process found after the app's saves"))
    #expect(report.contains("| backend [variant] | median | records the fresh process found | its open and read |"))
    #expect(report.contains("| memory | ") && report.contains(" | not exercised | not exercised |"))
    #expect(
      report.range(of: #"\| sqlite \[[^]]*\] \| [^|]+ \| 110 \| [^|]+ \|"#, options: .regularExpression) != nil)

    // compare judges the declared column as a metric; the standard binary does not know it.
    let compared = try runProgram(
      bench, ["compare", run.path, run.path, "--metric", "handoff_child_s", "--allow-underpowered"])
    #expect(compared.status == 0, "\(compared.stderr)")
    #expect(compared.stdout.contains("| handoff_child_s |"))
    let standard = try runStorebench(["compare", run.path, run.path, "--metric", "handoff_child_s"])
    #expect(standard.status == 64 && standard.stderr.contains("unknown metric 'handoff_child_s'"))

    // check: a budget on the workload's rows.
    let budgets = folder.appendingPathComponent("budgets.yaml")
    try "budgets:\n  - {name: a handoff save under 1 s, workload: handoff, metric: p99_us, max: 1s}\n".write(
      to: budgets, atomically: true, encoding: .utf8)
    let checked = try runProgram(bench, ["check", "--budgets", budgets.path, run.path])
    #expect(checked.status == 7 && checked.stdout.contains("a handoff save under 1 s"), "\(checked.stdout)")

    // history keeps the rows, declared cells included.
    let database = folder.appendingPathComponent("history.sqlite")
    let added = try runProgram(bench, ["history", "add", "--db", database.path, run.path])
    #expect(added.status == 0 && added.stdout.contains("3 rows, 9 samples"), "\(added.stdout)\(added.stderr)")
    #expect(try runProgram(bench, ["history", "check", "--db", database.path]).status == 0)

    // columns describes them, from the same set the files were written with.
    let columns = try runProgram(bench, ["columns"])
    #expect(columns.stdout.contains("handoff_child_s") && columns.stdout.contains("median_handoff_child_s"))
  }

  @Test("advise times a profile's declared operation with the workload and answers from it")
  func advise() throws {
    let bench = try Self.binary()
    let temporary = try TemporaryDirectory()
    let folder = temporary.url
    let profile = folder.appendingPathComponent("handoff-app.yaml")
    try """
    name: handoff-app
    data: {records: 200}
    per_day: {handoff: 200}
    budgets: {handoff: {ms: 500, percentile: p99}}
    durability: {survive: kill}
    candidates: ["sqlite[journal=wal,sync=normal,txn=single]", "lmdb[sync=full,txn=single]"]
    run_seconds: 60
    """.write(to: profile, atomically: true, encoding: .utf8)
    let out = folder.appendingPathComponent("advice")
    let advised = try runProgram(
      bench, ["advise", "--profile", profile.path, "--no-crash", "--out", out.path, "--workdir", "/var/tmp"])
    #expect(advised.status == 0, "\(advised.stderr.suffix(2_000))")
    let advice = try String(contentsOf: out.appendingPathComponent("advice.md"), encoding: .utf8)
    #expect(advice.contains("A day: 200 × a save handed to a fresh process."), "\(advice.prefix(1_500))")
    #expect(advice.contains("- **handoff**: 1 record saved and committed as its own app operation (handoff)"))
    #expect(advice.contains("**Recommendation: "))
    let scenario = try String(contentsOf: out.appendingPathComponent("scenario.yaml"), encoding: .utf8)
    #expect(
      scenario.split(separator: "\n").contains {
        $0.contains("{workload: handoff, parameters: {count: 20,") && $0.contains("stored: 200")
      },
      "\(scenario)")
    // The standard binary has no such operation, and says which it has.
    let standard = try runStorebench(["advise", "--profile", profile.path, "--dry-run"])
    #expect(standard.status == 64 && standard.stderr.contains("per_day.handoff"), "\(standard.stderr)")
    // A declared operation that needs no records is refused without them, naming what it needs.
    #expect(throws: (any Error).self) {
      try AppProfile(
        data: Data("name: x\ndata: {settings: 5}\nper_day: {handoff: 1}\ndurability: {survive: kill}\n".utf8),
        file: "x.yaml", operations: HandoffWorkload().adviceOperations)
    }
  }

  @Test("the conformance suite runs the workload on a backend, its child job and notes included")
  func conformance() throws {
    for name in ["sqlite", "lmdb", "memory"] {
      let descriptor = try #require(BackendRegistry.standard()[name])
      var suite = ContractSuite(descriptor, executable: try Self.binary(), variants: [try descriptor.variant()])
      suite.checks = [.workloads]
      suite.workloads = WorkloadRegistry([HandoffWorkload()])
      let report = suite.run()
      #expect(report.failures.isEmpty, "\(report)")
      #expect(report.passed.filter { $0.subject == "handoff" }.count == 1, "\(report)")
    }
  }

  @Test("registration refuses a column, an operation or a name that is taken")
  func registrationRefusals() throws {
    struct Clash: Workload {
      let name: String
      var column = SampleColumn.wallSeconds
      var key = "save"
      let summary = "a clash"
      let parameters = [WorkloadParameter.count(1, "one")]
      let sizeParameter = ParameterName.count
      let smokeParameters = ["count": 1]
      let requires: StoreRoles = .articles
      func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
        preconditionFailure("never run")
      }
      var columns: [ReportColumn] { [.declared(column, .count, .neither, "a clash")] }
      var adviceOperations: [AdviceOperation] {
        [AdviceOperation(key: key, phrase: "a clash", parameters: { _ in [:] }, unit: { _ in "" })]
      }
    }
    #expect(throws: (any Error).self) { try CommandEnvironment(registering: [], workloads: [Clash(name: "a")]) }
    let ownColumn = Clash(name: "b", column: SampleColumn(declaring: "clash_b"))
    #expect(throws: (any Error).self) { try CommandEnvironment(registering: [], workloads: [ownColumn]) }
    var both = ownColumn
    both.key = "clash_b"
    _ = try CommandEnvironment(registering: [], workloads: [both])
    var other = both
    other.column = SampleColumn(declaring: "clash_b")
    // The same column declared alike by two workloads is shared; a second operation with the key is refused.
    #expect(throws: (any Error).self) {
      try CommandEnvironment(
        registering: [], workloads: [both, Clash(name: "c", column: other.column, key: "clash_b")])
    }
    #expect(throws: (any Error).self) { try HandoffWorkloadRegistration.twice() }
  }
}

/// Registering `handoff` twice is refused by name.
enum HandoffWorkloadRegistration {
  static func twice() throws {
    var registry = WorkloadRegistry.standard
    try registry.add(HandoffWorkload())
    try registry.add(HandoffWorkload())
  }
}
