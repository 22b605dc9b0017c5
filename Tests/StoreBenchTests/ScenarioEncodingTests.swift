import Foundation
import StoreBenchAdvice
import StoreBenchBackends
import StoreBenchStandard
import Testing

@testable import StoreBenchCore

/// A scenario value written as YAML (``Scenario/yaml(comment:)``) reads back as the same scenario: on generated
/// scenarios over the standard registries, and on advise's scenarios of the committed and generated profiles.
@Suite("Scenario values written and read back")
struct ScenarioEncodingTests {
  static let backends = BackendRegistry.standard()
  static let workloads = WorkloadRegistry.standard

  /// A random value in `range`, biased to its ends now and then (where the parser's bounds are).
  static func value(in range: ClosedRange<Int>, _ rng: inout SplitMix64) -> Int {
    switch rng.next() % 8 {
    case 0: range.lowerBound
    case 1: range.upperBound
    default: Int.random(in: range, using: &rng)
    }
  }

  /// A random variant of `descriptor` (nil when the combination drawn is one it refuses).
  static func variant(of descriptor: BackendDescriptor, _ rng: inout SplitMix64) -> Variant? {
    var settings: [String: String] = [:]
    for axis in descriptor.axes where rng.next() % 2 == 0 {
      switch axis.allowed {
      case .choice(let choices): settings[axis.name] = choices.randomElement(using: &rng)
      case .integer(let range): settings[axis.name] = String(value(in: range, &rng))
      }
    }
    return try? descriptor.variant(settings)
  }

  /// A random case of `workload` (its defaults when the values drawn do not fit together).
  static func parameters(of workload: any Workload, _ rng: inout SplitMix64) -> WorkloadParameters {
    for _ in 0..<8 {
      var values: [String: Int] = [:]
      for spec in workload.parameters where rng.next() % 3 == 0 { values[spec.name] = value(in: spec.range, &rng) }
      if let parameters = try? workload.parameters(setting: values) { return parameters }
    }
    return workload.defaultParameters
  }

  static func scenario(_ rng: inout SplitMix64) -> Scenario {
    var policy = RepetitionPolicy(
      warmup: Int.random(in: 0...3, using: &rng), minimum: Int.random(in: 1...12, using: &rng),
      maximum: Int.random(in: 12...40, using: &rng), targetPrecision: Double.random(in: 0.001...0.5, using: &rng))
    if rng.next() % 2 == 0 { policy.caseSeconds = Double.random(in: 0.1...86_400, using: &rng) }
    if rng.next() % 2 == 0 { policy.budgetSeconds = Double(Int.random(in: 1...604_800, using: &rng)) }
    if rng.next() % 2 == 0 { policy.stop = .answer }
    var entries: [Scenario.WorkloadEntry] = []
    for workload in workloads.workloads.shuffled(using: &rng).prefix(Int.random(in: 1...5, using: &rng)) {
      var cases = [parameters(of: workload, &rng)]
      let size = workload.sizeParameter.text
      if rng.next() % 3 == 0, let spec = workload.parameters.first(where: { $0.name == size }) {
        let sizes = Set((0..<3).map { _ in value(in: spec.range, &rng) }).sorted()
        cases = sizes.compactMap { value in
          var sized = cases[0]
          sized.set(size, value)
          return (try? workload.validate(sized)).map { sized }
        }
        if cases.isEmpty { cases = [workload.defaultParameters] }
      }
      let budget =
        rng.next() % 3 == 0
        ? LatencyBudget(
          percentile: [50, 90, 99].randomElement(using: &rng)!,
          milliseconds: Double(Int.random(in: 1...3_600_000, using: &rng)) / 1_000, perRepetition: rng.next() % 2 == 0)
        : nil
      entries.append(
        Scenario.WorkloadEntry(
          workload: workload.name, cases: cases, budget: budget, sizeParameter: cases.count > 1 ? size : nil))
    }
    var backendEntries: [Scenario.BackendEntry] = []
    for descriptor in backends.descriptors.shuffled(using: &rng).prefix(Int.random(in: 1...4, using: &rng)) {
      for _ in 0..<Int.random(in: 1...3, using: &rng) {
        guard let variant = variant(of: descriptor, &rng),
          !backendEntries.contains(where: { $0.backend == descriptor.name && $0.variant == variant })
        else { continue }
        var limits: [String: [String: Int]] = [:]
        if rng.next() % 3 == 0, let entry = entries.randomElement(using: &rng),
          let spec = workloads[entry.workload]?.parameters.randomElement(using: &rng)
        {
          limits[entry.workload] = [spec.name: value(in: spec.range, &rng)]
        }
        let only =
          rng.next() % 3 == 0 ? Set(entries.shuffled(using: &rng).prefix(2).map(\.workload)) : nil
        backendEntries.append(
          Scenario.BackendEntry(backend: descriptor.name, variant: variant, limits: limits, only: only))
      }
    }
    if backendEntries.isEmpty {
      backendEntries = [Scenario.BackendEntry(backend: "memory", variant: try! backends["memory"]!.variant())]
    }
    return Scenario(
      name: "gen-\(rng.next() % 1_000)",
      description: rng.next() % 2 == 0 ? "a: generated, \"quoted\" # not a comment" : nil,
      seed: rng.next() >> 1, policy: policy, backends: backendEntries, workloads: entries, file: "generated")
  }

  /// `scenario`'s text parsed back: the same value, text and hash.
  static func readBack(_ scenario: Scenario, comment: [String] = [], _ label: String) throws {
    let text = try scenario.yaml(comment: comment)
    let parsed = try ScenarioParser(backends: backends, workloads: workloads).parse(
      data: Data(text.utf8), file: "s.yaml")
    #expect(try parsed.yaml(comment: comment) == text, "\(label)")
    #expect(parsed.fileHash == scenario.stamped(file: "s.yaml", bytes: Data(text.utf8)).fileHash, "\(label)")
    #expect(parsed.name == scenario.name && parsed.description == scenario.description && parsed.seed == scenario.seed)
    #expect(parsed.policy == scenario.policy, "\(label): \(parsed.policy) ≠ \(scenario.policy)")
    #expect(
      parsed.backends.map { "\($0.backend) [\($0.variant)] \($0.limits) \($0.only?.sorted() ?? [])" }
        == scenario.backends.map { "\($0.backend) [\($0.variant)] \($0.limits) \($0.only?.sorted() ?? [])" },
      "\(label)\n\(text)")
    #expect(parsed.workloads.map(\.workload) == scenario.workloads.map(\.workload), "\(label)")
    #expect(parsed.workloads.map(\.cases) == scenario.workloads.map(\.cases), "\(label)\n\(text)")
    #expect(parsed.workloads.map(\.budget) == scenario.workloads.map(\.budget), "\(label)\n\(text)")
  }

  @Test(
    "generated scenarios (random backends, variants, limits, workloads, sizes, budgets, policies) read back as written")
  func generatedScenariosRoundTrip() throws {
    var rng = SplitMix64(seed: 63)
    for trial in 0..<150 {
      try Self.readBack(Self.scenario(&rng), comment: ["trial \(trial)", "a newline\nbackends: []"], "trial \(trial)")
    }
  }

  @Test("advise's scenario of every committed profile reads back as the value advise runs")
  func adviseScenariosRoundTrip() throws {
    let folders = ["profiles", "Tests/Fixtures/profiles"].map { packageRoot.appendingPathComponent($0) }
    var count = 0
    for folder in folders {
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".yaml") {
        guard
          let profile = try? AppProfile(
            file: folder.appendingPathComponent(name).path,
            operations: Self.workloads.adviceOperations.map(\.operation))
        else { continue }
        let plan = AdvicePlan(profile, backends: Self.backends, workloads: Self.workloads)
        guard !plan.candidates.isEmpty else { continue }
        let scenario = try plan.scenario()
        try Self.readBack(scenario, name)
        try Self.readBack(try AdviceProbe.scenario(plan), "probe of \(name)")
        #expect(try plan.text(of: scenario).hasPrefix("# Generated by storebench advise from "))
        count += 1
      }
    }
    #expect(count >= 5)
  }

  @Test("a scenario naming a sql workload file (examples/sql) reads back as written; a part of the file is refused")
  func workloadFileRoundTrip() throws {
    let file = packageRoot.appendingPathComponent("examples/sql/scenario.yaml").path
    let scenario = try ScenarioParser(backends: Self.backends, workloads: Self.workloads).parse(file: file)
    #expect(scenario.workloadFiles.count == 1 && scenario.workloadFiles[0].key == "sql")
    try Self.readBack(scenario, "examples/sql/scenario.yaml")
    let text = try scenario.yaml()
    #expect(text.contains("- {sql: \(packageRoot.path)/examples/sql/notes-tags.yaml, parameters: {"), "\(text)")
    var part = scenario
    part.workloads.removeAll { $0.workload == "sql:notes-tags.tag-note" }
    #expect(throws: ScenarioError.self) { try part.yaml() }
  }

  @Test("a value the format cannot say is refused by name: cases that differ beyond their size")
  func unsayableRefused() throws {
    let insert = try #require(Self.workloads["insert"])
    var other = insert.defaultParameters
    other.set("batch", 10)
    let scenario = Scenario(
      name: "x", seed: 1, policy: RepetitionPolicy(),
      backends: [Scenario.BackendEntry(backend: "memory", variant: try Self.backends["memory"]!.variant())],
      workloads: [Scenario.WorkloadEntry(workload: "insert", cases: [insert.defaultParameters, other])], file: "x")
    #expect(throws: ScenarioError.self) { try scenario.yaml() }
  }
}
