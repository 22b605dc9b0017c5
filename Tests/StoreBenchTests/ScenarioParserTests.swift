import Foundation
import StoreBenchBackends
import StoreBenchCore
import StoreBenchStandard
import Testing

@Suite("Scenario parsing")
struct ScenarioParserTests {
  let parser = ScenarioParser(backends: .standard(), workloads: .standard)

  let valid = """
    name: ok
    backends:
      - backend: sqlite
        variants: [{txn: none}]
    workloads:
      - workload: insert
    """

  func parse(_ text: String) throws -> Scenario {
    try parser.parse(data: Data(text.utf8), file: "test.yaml")
  }

  func failure(_ text: String) -> ScenarioError? {
    do {
      _ = try parse(text)
      return nil
    } catch let error as ScenarioError {
      return error
    } catch {
      Issue.record("unexpected error type: \(error)")
      return nil
    }
  }

  @Test func validScenarioUsesDefaults() throws {
    let scenario = try parse(valid)
    #expect(
      scenario.seed == 42
        && scenario.policy == RepetitionPolicy(warmup: 1, minimum: 6, maximum: 20, targetPrecision: 0.05))
    #expect(
      scenario.backends.map(\.variant.description) == [
        "txn=none journal=delete sync=full index=on list_index=off search=like auto_vacuum=none migrate=alter tags=join fullfsync=off busy_timeout=10000"
      ])
    #expect(scenario.workloads.first?.cases == [WorkloadParameters(["count": 10_000])])
  }

  @Test func repetitionPolicyKeys() throws {
    let fixed = try parse(
      "name: x\nwarmup: 0\nrepetitions: 3\nbackends: [{backend: memory}]\nworkloads: [{workload: insert}]")
    #expect(fixed.policy == .fixed(3, warmup: 0) && fixed.policy.isFixed)
    let adaptive = try parse(
      """
      name: x
      repetitions: {min: 4, max: 12}
      target_precision: 0.02
      case_seconds: 7.5
      budget_seconds: 600
      backends: [{backend: memory}]
      workloads: [{workload: insert}]
      """)
    #expect(
      adaptive.policy
        == RepetitionPolicy(
          warmup: 1, minimum: 4, maximum: 12, targetPrecision: 0.02,
          caseSeconds: 7.5, budgetSeconds: 600))
    let onlyMax = try parse(
      "name: x\nrepetitions: {max: 4}\nbackends: [{backend: memory}]\nworkloads: [{workload: insert}]")
    #expect(onlyMax.policy.minimum == 4 && onlyMax.policy.maximum == 4)
    var overrides = RepetitionPolicy.Overrides()
    overrides.minimum = 30
    #expect(try adaptive.policy.applying(overrides).maximum == 30)
    overrides.maximum = 2
    #expect(throws: PolicyError.self) { try adaptive.policy.applying(overrides) }
    // --reps N promises exactly N: the scenario's case cap would end a row sooner, so it is lifted; a cap given
    // with the count applies, and the run budget stays.
    var exactly = RepetitionPolicy.Overrides()
    exactly.repetitions = 3
    let exact = try adaptive.policy.applying(exactly)
    #expect(exact.minimum == 3 && exact.maximum == 3 && exact.caseSeconds == nil && exact.budgetSeconds == 600)
    exactly.caseSeconds = 5
    #expect(try adaptive.policy.applying(exactly).caseSeconds == 5)
    // `stop: answer` races the repetitions (not for a fixed count); anything else is refused with the key.
    let racing = try parse(
      "name: x\nrepetitions: {min: 3, max: 20}\nstop: answer\nbackends: [{backend: memory}]\nworkloads: [{workload: insert}]"
    )
    #expect(racing.policy.stop == .answer && racing.policy.racing)
    #expect(try racing.policy.applying(exactly).racing == false)
    #expect(adaptive.policy.stop == .precision && !adaptive.policy.racing)
    let wrong = failure(
      "name: x\nstop: fast\nbackends: [{backend: memory}]\nworkloads: [{workload: insert}]")
    #expect(wrong?.description == "test.yaml: stop: expected precision or answer, found \"fast\"")
  }

  @Test("runaway input: duplicate sizes, too many sizes, too many cases or records are refused with the key")
  func runawayInput() throws {
    let duplicate = failure(
      "name: x\nbackends: [{backend: memory}]\nworkloads: [{workload: insert, sizes: [10, 20, 10]}]")
    #expect(
      duplicate?.description == "test.yaml: workloads[0].sizes[2]: 10 is listed twice; each size makes one row")
    let many = (1...1001).map(String.init).joined(separator: ", ")
    let tooMany = failure(
      "name: x\nbackends: [{backend: memory}]\nworkloads: [{workload: insert, sizes: [\(many)]}]")
    #expect(tooMany?.description == "test.yaml: workloads[0].sizes: 1001 sizes; at most 1000 are allowed")
    let scenario = try parse(
      """
      name: x
      backends: [{backend: memory}, {backend: sqlite}]
      workloads: [{workload: insert, sizes: [100, 200, 300]}, {workload: timeline, parameters: {messages: 400000}}]
      """)
    var limits = RunPlan.Limits()
    try RunPlan.check(scenario, workloads: .standard, limits: limits)
    limits.cases = 7
    #expect(throws: ScenarioError.self) { try RunPlan.check(scenario, workloads: .standard, limits: limits) }
    limits = RunPlan.Limits()
    limits.records = 100_000
    do {
      try RunPlan.check(scenario, workloads: .standard, limits: limits)
      Issue.record("400,000 messages passed a 100,000-record cap")
    } catch let error as ScenarioError {
      #expect(error.message.contains("--max-records"), "\(error)")
    }
  }

  @Test func shippedScenariosParse() throws {
    for name in ["default", "quick", "smoke", "scaling", "launch"] {
      let scenario = try parser.parse(file: packageRoot.appendingPathComponent("scenarios/\(name).yaml").path)
      #expect(scenario.name == name)
    }
  }

  @Test(
    arguments: [
      (
        "name: x\nbogus: 1\nbackends: [{backend: memory}]\nworkloads: [{workload: insert}]",
        "test.yaml: bogus: unknown key; allowed keys: name, description, seed, warmup, repetitions, target_precision, "
          + "case_seconds, budget_seconds, stop, backends, workloads"
      ),
      (
        "name: x\nbackends: [{backend: nosuch}]\nworkloads: [{workload: insert}]",
        "test.yaml: backends[0].backend: unknown backend 'nosuch'; known: "
          + BackendRegistry.standard().names.joined(separator: ", ")
      ),
      (
        "name: x\nbackends: [{backend: sqlite, variants: [{txn: maybe}]}]\nworkloads: [{workload: insert}]",
        "test.yaml: backends[0].variants[0]: backend 'sqlite' setting 'txn' cannot be 'maybe'; allowed: none, single, batch"
      ),
      (
        "name: x\nbackends: [{backend: sqlite, variants: [{wal: true}]}]\nworkloads: [{workload: insert}]",
        "test.yaml: backends[0].variants[0].wal: unknown key; allowed settings of backend 'sqlite': txn, journal, sync, batch_ops, batch_ms, index, list_index, search, auto_vacuum, migrate, tags, fullfsync, busy_timeout"
      ),
      (
        "name: x\nbackends: [{backend: memory}]\nworkloads: [{workload: insert, parameters: {count: -5}}]",
        "test.yaml: workloads[0].parameters.count: -5 is out of range; expected a whole number in 1...10000000"
      ),
      (
        "name: x\nbackends: [{backend: memory}]\nworkloads: [{workload: insert, parameters: {count: ten}}]",
        "test.yaml: workloads[0].parameters.count: expected a whole number in 1...10000000, found 'ten'"
      ),
      (
        "name: x\nbackends: [{backend: memory}]\nworkloads: [{workload: insert, parameters: {count: .nan}}]",
        "test.yaml: workloads[0].parameters.count: expected a whole number in 1...10000000, found '.nan'"
      ),
      (
        "name: x\nbackends: [{backend: memory}]\nworkloads: [{workload: mark-read, parameters: {count: 10, stored: 5}}]",
        "test.yaml: workloads[0].parameters: count (10) must not exceed stored (5)"
      ),
      (
        "name: x\nrepetitions: 0\nbackends: [{backend: memory}]\nworkloads: [{workload: insert}]",
        "test.yaml: repetitions: 0 is out of range; expected a whole number in 1...1000"
      ),
      (
        "name: x\nrepetitions: {min: 8, max: 4}\nbackends: [{backend: memory}]\nworkloads: [{workload: insert}]",
        "test.yaml: repetitions: repetitions: min (8) must be at least 1 and at most max (4)"
      ),
      (
        "name: x\nrepetitions: {min: 3, most: 4}\nbackends: [{backend: memory}]\nworkloads: [{workload: insert}]",
        "test.yaml: repetitions.most: unknown key; allowed keys: min, max"
      ),
      (
        "name: x\ntarget_precision: 5%\nbackends: [{backend: memory}]\nworkloads: [{workload: insert}]",
        "test.yaml: target_precision: expected a number in 0.001...0.5, found '5%'"
      ),
      (
        "name: x\ncase_seconds: 0\nbackends: [{backend: memory}]\nworkloads: [{workload: insert}]",
        "test.yaml: case_seconds: 0 is out of range; expected a number in 0.1...86,400"
      ),
      (
        "name: x\nbackends: {backend: memory}\nworkloads: [{workload: insert}]",
        "test.yaml: backends: expected a list, found a mapping"
      ),
      (
        "name: x\nbackends: []\nworkloads: [{workload: insert}]",
        "test.yaml: backends: must list at least one entry"
      ),
      (
        "backends: [{backend: memory}]\nworkloads: [{workload: insert}]",
        "test.yaml: name: required key is missing"
      ),
      (
        "name: x\nbackends: [{backend: memory}]\nworkloads: [{workload: dance}]",
        "test.yaml: workloads[0].workload: unknown workload 'dance'; known: "
          + WorkloadRegistry.standard.names.joined(separator: ", ")
      ),
      (
        "name: x\nbackends: [{backend: memory}, {backend: memory}]\nworkloads: [{workload: insert}]",
        "test.yaml: backends[1].variants[0]: duplicate variant 'default' of backend 'memory'"
      ),
      ("", "test.yaml: the file is empty; a scenario needs name, backends and workloads"),
    ] as [(String, String)])
  func rejects(_ text: String, _ message: String) {
    #expect(failure(text)?.description == message)
  }

  @Test(
    "a backend entry's workloads: the variant runs only those; an unknown name or one the scenario does not list is refused"
  )
  func entryWorkloads() throws {
    let scenario = try parse(
      """
      name: x
      backends:
        - {backend: memory}
        - {backend: sqlite, workloads: [edit], variants: [{tags: covering}]}
      workloads: [{workload: insert, parameters: {count: 10}}, {workload: edit, parameters: {count: 5, stored: 10}}]
      """)
    let plan = try RunPlan(scenario: scenario, backends: .standard(), workloads: .standard)
    #expect(
      plan.cases.map { "\($0.key.workload) \($0.key.backend)" } == [
        "insert memory", "edit memory", "edit sqlite",
      ])
    #expect(try RunPlan.check(scenario, workloads: .standard, limits: .init()).count == 3)
    #expect(
      failure("name: x\nbackends: [{backend: memory, workloads: [dance]}]\nworkloads: [{workload: insert}]")?
        .description
        .hasPrefix("test.yaml: backends[0].workloads[0]: unknown workload 'dance'; known: ") == true)
    #expect(
      failure(
        "name: x\nbackends: [{backend: memory}, {backend: sqlite, workloads: [edit]}]\nworkloads: [{workload: insert}]"
      )?
      .description
        == "test.yaml: backends: entry 2 (sqlite [\(try BackendRegistry.standard()["sqlite"]!.variant())]) runs only edit, none of the scenario's workloads"
    )
  }

  @Test func conditionalSettingsApplyOnlyWithTheirValue() throws {
    let batch = try parse(
      "name: x\nbackends: [{backend: sqlite, variants: [{txn: batch, batch_ops: 7}]}]\nworkloads: [{workload: insert}]"
    )
    #expect(
      batch.backends[0].variant.description
        == "txn=batch journal=delete sync=full batch_ops=7 batch_ms=100 index=on list_index=off search=like auto_vacuum=none migrate=alter tags=join fullfsync=off busy_timeout=10000"
    )
    #expect(
      failure(
        "name: x\nbackends: [{backend: sqlite, variants: [{txn: none, batch_ops: 7}]}]\nworkloads: [{workload: insert}]"
      )?
      .description
        == "test.yaml: backends[0].variants[0]: backend 'sqlite' setting 'batch_ops' applies only with txn=batch"
    )
  }

  @Test func duplicateKeysAreRejected() {
    let error = failure("name: x\nname: y\nbackends: [{backend: memory}]\nworkloads: [{workload: insert}]")
    #expect(error?.file == "test.yaml")
    #expect(error?.description.contains("name") == true)
  }

  @Test func nonUTF8IsRejected() {
    #expect(throws: ScenarioError(file: "bad.yaml", path: "", message: "the file is not valid UTF-8")) {
      try parser.parse(data: Data([0x6E, 0x3A, 0x20, 0xFF, 0xFE]), file: "bad.yaml")
    }
  }

  @Test func sizesMakeOneCasePerSize() throws {
    let scenario = try parse(
      "name: x\nbackends: [{backend: memory}]\nworkloads: [{workload: insert, sizes: [10, 100]}]")
    #expect(scenario.workloads[0].cases.map { $0[.count] } == [10, 100])
  }

  @Test func filtersNarrowAndRejectUnknownNames() throws {
    let scenario = try parse(
      "name: x\nbackends: [{backend: memory}, {backend: sqlite}]\nworkloads: [{workload: insert}, {workload: timeline}]"
    )
    let narrowed = try scenario.narrowed(backends: ["sqlite"], workloads: ["timeline"])
    #expect(narrowed.backends.map(\.backend) == ["sqlite"])
    #expect(narrowed.workloads.map(\.workload) == ["timeline"])
    #expect(throws: ScenarioError.self) { try scenario.narrowed(backends: ["lmdb"], workloads: []) }
  }
}

@Suite("Scenario caps")
struct ScenarioCapTests {
  @Test func limitsNameWorkloadsAndParameters() throws {
    let parser = ScenarioParser(backends: .standard(), workloads: .standard)
    func parse(_ limits: String) throws -> Scenario {
      try parser.parse(
        data: Data(
          "name: x\nbackends: [{backend: memory, limits: \(limits)}]\nworkloads: [{workload: insert}]".utf8),
        file: "t.yaml")
    }
    #expect(try parse("{insert: {count: 5}}").backends[0].limits == ["insert": ["count": 5]])
    #expect(
      throws: ScenarioError(
        file: "t.yaml", path: "backends[0].limits.dance",
        message: "unknown key; allowed workloads: "
          + WorkloadRegistry.standard.names.joined(separator: ", "))
    ) {
      try parse("{dance: {count: 5}}")
    }
    #expect(
      throws: ScenarioError(
        file: "t.yaml", path: "backends[0].limits.insert.size",
        message:
          "unknown key; allowed parameters of 'insert': count, stored, batch, title_words, summary_bytes, summary_max_bytes"
      )
    ) {
      try parse("{insert: {size: 5}}")
    }
    #expect(
      throws: ScenarioError(
        file: "t.yaml", path: "backends[0].limits.insert.count",
        message: "0 is out of range; expected a whole number in 1...10000000")
    ) {
      try parse("{insert: {count: 0}}")
    }
  }
}
