import Foundation
import StoreBenchAdvice
import StoreBenchAnalysis
import StoreBenchBackends
import StoreBenchCore
import StoreBenchStandard
import Testing

/// `advise`: the profile format, the scenario it becomes, and the judgement on known numbers.
@Suite("Advice")
struct AdviceTests {
  @Test("advice.json is one typed record: every committed advice.json decodes and encodes back byte for byte")
  func committedAdviceRecordsRoundTrip() throws {
    let root = packageRoot.appendingPathComponent("results")
    let files = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? [])
      .filter { $0.hasSuffix("/advice.json") }.sorted()
    #expect(files.count >= 4, "\(files)")
    for file in files {
      let data = try Data(contentsOf: root.appendingPathComponent(file))
      let record = try JSONDecoder().decode(AdviceRecord.self, from: data)
      #expect(try record.encoded() == data, "\(file)")
      #expect(!record.strategies.isEmpty && record.measuredOn.cores > 0, "\(file)")
    }
  }

  static func profile(_ text: String) throws -> AppProfile { try AppProfile(data: Data(text.utf8), file: "p.yaml") }

  static let simple = """
    name: t
    data: {records: 1000, summary_bytes: 400}
    per_day: {launch: 10, save: 100}
    budgets: {save: {ms: 16.7}, launch: {ms: 100, percentile: p90}}
    durability: power-loss
    """

  @Test("a profile's file name holding a newline and YAML cannot add a key to advise's scenario")
  func profileFileNameStaysInItsComment() throws {
    let file = "p.yaml\nbudget_seconds: 1\nbackends: [{backend: memory}]\n# "
    let plan = AdvicePlan(
      try AppProfile(data: Data(Self.simple.utf8), file: file), backends: .standard(), workloads: .standard)
    let text = try plan.scenarioText()
    let scenario = try ScenarioParser(backends: .standard(), workloads: .standard)
      .parse(data: Data(text.utf8), file: "scenario")
    #expect(scenario.backends.count == plan.candidates.count && !plan.candidates.contains("memory"))
    #expect(text.split(separator: "\n")[0].contains("p.yaml\\u{A}budget_seconds"), "\(text)")
    #expect(scenario.policy.budgetSeconds == Double(plan.profile.runSeconds))
  }

  @Test("every shipped profile parses, and its scenario parses and plans with the profile's sizes and shape")
  func shippedProfiles() throws {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "../../profiles"
    ).standardized
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".yaml") }
    #expect(Set(files).isSuperset(of: ["notes.yaml", "reader.yaml", "messenger.yaml", "settings-cache.yaml"]))
    for file in files {
      let profile = try AppProfile(file: directory.appendingPathComponent(file).path)
      let plan = AdvicePlan(profile, backends: .standard(), workloads: .standard)
      let scenario = try ScenarioParser(backends: .standard(), workloads: .standard)
        .parse(data: Data(try plan.scenarioText().utf8), file: "\(file) → scenario")
      #expect(scenario.workloads.count == plan.measures.count, "\(file)")
      #expect(scenario.backends.count == plan.candidates.count, "\(file)")
      _ = try RunPlan.check(scenario, workloads: .standard, limits: .init())
    }
    let notes = AdvicePlan(
      try AppProfile(file: directory.appendingPathComponent("notes.yaml").path), backends: .standard(),
      workloads: .standard)
    // Notes live in folders: a save goes into a folder, the launch lists the folders, a folder opens.
    let save = try #require(notes.measures.first { $0.operation == .save })
    #expect(
      save.workload == "parent-save" && save.parameters["stored"] == 50_000
        && save.parameters["parents"] == 40 && save.parameters["message_bytes"] == 1_500)
    #expect(notes.measures.first { $0.operation == .launch }?.workload == "parent-list-cold")
    #expect(notes.measures.first { $0.operation == .openParent }?.parameters["parent_skew"] == 100)
    #expect(notes.measures.first { $0.operation == .edit }?.parameters["summary_bytes"] == 1_500)
    #expect(notes.measures.first { $0.operation == .tagQuery }?.parameters["tags"] == 50)
    // Articles live in feeds: "mark this feed read" is a parent marked read, not a bulk mark-read.
    let reader = AdvicePlan(
      try AppProfile(file: directory.appendingPathComponent("reader.yaml").path), backends: .standard(),
      workloads: .standard)
    #expect(reader.measures.map(\.workload).contains("parent-read"))
    #expect(!reader.measures.map(\.workload).contains("mark-read"))
    #expect(notes.notConsidered.contains { $0.candidate.hasPrefix("plist") })
  }

  @Test(
    "candidates come from the registry: a backend registered only here is offered (the scenario advise --dry-run prints), every candidate gets the schema the profile needs, the floor and too-large whole-file strategies are left out with why"
  )
  func candidatesFromTheRegistry() throws {
    let directory = packageRoot.appendingPathComponent("profiles")
    let profile = try AppProfile(file: directory.appendingPathComponent("notes.yaml").path)
    var registry = BackendRegistry.standard()
    registry.register(JSONFileBackend.descriptor)
    registry.register(
      BackendDescriptor(name: "unadvised", summary: "offers advise nothing (test double)") { location in
        try JSONFileBackend.JSONFileStore(file: URL(fileURLWithPath: location.path("articles.json")))
      })
    let plan = AdvicePlan(profile, backends: registry, workloads: .standard)
    // Offered by the registry; on a need it declares it cannot keep, left out before anything is timed.
    let offered = AdvicePlan.offered(for: profile, by: registry).considered
    #expect(offered.contains(JSONFileBackend.descriptor.name))
    let killed = AdvicePlan(
      try AppProfile(
        data: Data(
          try String(contentsOf: directory.appendingPathComponent("notes.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "durability: power-loss", with: "durability: kill").utf8),
        file: "notes-kill.yaml"), backends: registry, workloads: .standard)
    for (name, candidates, text) in [
      (JSONFileBackend.descriptor.name, plan.candidates, try plan.scenarioText()),
      (JSONFileBackend.descriptor.name, killed.candidates, try killed.scenarioText()),
    ] where candidates.contains(name) {
      #expect(text.contains("{backend: \(name)}"), "\(text)")
    }
    for candidate in offered where !plan.candidates.contains(candidate) {
      #expect(
        plan.notConsidered.contains { $0.candidate == candidate && $0.reason.contains("declares that it") },
        "\(candidate) is neither timed nor left out for its declaration")
    }
    for candidate in plan.candidates {
      let (descriptor, variant) = try #require(AdvicePlan.resolve(candidate, backends: registry))
      #expect(descriptor.promise(variant) == .durable, "\(candidate)")
    }
    #expect(plan.notConsidered.contains { $0.candidate == "unadvised" && $0.reason.contains("no strategy") })
    // Every registered persistent backend offers advise something, or is said not to.
    for descriptor in registry.descriptors {
      let named =
        plan.candidates.contains { $0 == descriptor.name || $0.hasPrefix(descriptor.name + "[") }
        || plan.notConsidered.contains {
          $0.candidate == descriptor.name || $0.candidate.hasPrefix(descriptor.name + "[")
        }
      #expect(named, "\(descriptor.name) is neither a candidate nor left out with a reason")
    }
    // notes.yaml queries tags and searches: each strategy that can provide those gets all of it. (Its launch lists
    // folders, which needs no newest-first index over every note; a launch to the newest notes does.)
    #expect(AdvicePlan.schemaNeeds(of: profile) == [.coveringTagIndex, .fullTextSearch])
    #expect(AdvicePlan.schemaNeeds(of: try Self.profile(Self.simple)) == [.newestFirstList])
    let sqlite = registry["sqlite"]!.adviceCandidates
    #expect(sqlite.count >= 2)
    for candidate in (sqlite + registry["grdb"]!.adviceCandidates).map({
      $0.spec(for: AdvicePlan.schemaNeeds(of: profile))
    }) {
      #expect(offered.contains(candidate))
      for setting in ["tags=covering", "search=fts5"] {
        #expect(candidate.contains(setting), "\(candidate) lacks \(setting)")
      }
    }
    #expect(plan.notConsidered.contains { $0.candidate == "memory" && $0.reason.contains("keeps nothing") })
  }

  @Test(
    "a save is one app operation committed as the strategy commits one (insert batch=1), every row gets the first look's 8 repetitions, and advice.md says what measured each operation"
  )
  func saveIsOneOperation() throws {
    let plan = AdvicePlan(try Self.profile(Self.simple), backends: .standard(), workloads: .standard)
    let save = try #require(plan.measures.first { $0.operation == .save })
    #expect(save.workload == "insert" && save.parameters["batch"] == 1 && save.parameters["count"] == 100)
    #expect(save.unit.contains("1 record inserted and committed") && save.unit.contains("100 per repetition"))
    let text = try plan.scenarioText()
    #expect(text.contains("repetitions: {min: 8, max: 16}"), "\(text)")
    // No per-row time cap: it would end a row of a large store before its eighth repetition.
    #expect(!text.contains("case_seconds"))
    let provenance = Advice.Provenance(
      host: "h", cpu: "c", cores: 2, kernel: "k", fileSystem: "ext4", date: "d", commit: "abc",
      runDirectory: "run/", crashTrials: "t")
    let eight = Array(repeating: 0.001, count: 4) + Array(repeating: 0.0012, count: 4)
    let launches = [0.05, 0.051, 0.052, 0.05, 0.049, 0.05, 0.053, 0.05]
    let full = Advice(
      plan: plan,
      table: try Self.table([("a", "v", eight, launches), ("b", "v", eight.map { $0 * 3 }, launches)]),
      crashes: [:], promise: { _, _ in .durable }, resamples: 300
    ).markdown(provenance, chart: nil)
    #expect(full.contains("- **save**: 1 record inserted and committed"), "\(full)")
    #expect(full.contains("a day (95% interval") && full.contains("n=8]"), "\(full)")
    // Five repetitions: the figures stand, no interval is printed beside them, and the ratio gives no verdict.
    let short = Advice(
      plan: plan,
      table: try Self.table([
        ("a", "v", Array(eight.prefix(5)), Array(launches.prefix(5))),
        ("b", "v", Array(eight.prefix(5)).map { $0 * 3 }, Array(launches.prefix(5))),
      ]), crashes: [:], promise: { _, _ in .durable }, resamples: 300
    ).markdown(provenance, chart: nil)
    #expect(!short.contains("95% interval 1") && short.contains("too few repetitions for an interval"), "\(short)")
    // Five repetitions: no budget is judged and nothing is recommended — no answer yet, and what each needs.
    #expect(!short.contains("**Recommendation") && short.contains("**No answer yet: 2 of 2 strategies"), "\(short)")
    #expect(short.contains("| not measured enough to judge: launch p90: not measured enough (n=5; 8 needed)"))
    #expect(short.contains(" vs 16.7 ms (") && short.contains("; not measured enough: 8 needed)"), "\(short)")
    #expect(full.contains("costlier: its cost a day is"), "\(full)")
  }

  @Test(
    "with a kill-only need no SQL candidate can lose on a missing index: a chat app that was answered by one gets every SQL strategy with the list and covering tag index, each with and without FTS"
  )
  func noCandidateLosesOnAMissingIndex() throws {
    // The chat app a new user described (messages as records, conversations as tags): its answer once rested
    // on the sidebar join of the SQL strategies that lacked the covering index.
    let profile = try Self.profile(
      """
      name: chat
      data: {records: 200000, tags: 500, tags_per_note: 1}
      per_day: {launch: 20, save: 2000, search: 10, tag_query: 200}
      budgets: {tag_query: {ms: 50}, search: {ms: 300}, save: {ms: 16.7}}
      durability: kill
      """)
    let plan = AdvicePlan(profile, backends: .standard(), workloads: .standard)
    let sql = plan.candidates.filter { $0.hasPrefix("sqlite[") || $0.hasPrefix("grdb[") }
    #expect(
      sql.contains { $0.hasPrefix("grdb[") } && sql.contains { $0.hasPrefix("sqlite[") }, "\(plan.candidates)")
    for candidate in sql {
      #expect(candidate.contains("list_index=on") && candidate.contains("tags=covering"), "\(candidate)")
    }
    let withSearch = sql.filter { $0.contains("search=fts5") }
    let without = sql.filter { !$0.contains("search=fts5") }
    #expect(withSearch.count == without.count && !without.isEmpty)
    for candidate in withSearch {
      let twin = candidate.replacingOccurrences(of: ",search=fts5", with: "")
      #expect(without.contains(twin), "\(candidate) has no twin without FTS")
    }
    // Every candidate parses, with the same schema settings for the same need.
    let scenario = try ScenarioParser(backends: .standard(), workloads: .standard)
      .parse(data: Data(try plan.scenarioText().utf8), file: "chat → scenario")
    #expect(scenario.backends.count == plan.candidates.count)
  }

  @Test(
    "profiles are strict: unknown keys, bad values and budgets for operations never done are errors naming the key",
    arguments: [
      (
        "name: t\ndata: {records: 10}\nper_day: {save: 1}\ndurability: kill\ncolour: red",
        "p.yaml: colour: unknown key"
      ),
      ("name: t\ndata: {records: 10}\nper_day: {fly: 1}\ndurability: kill", "p.yaml: per_day.fly: unknown key"),
      ("name: t\ndata: {records: 10}\nper_day: {save: 1}\ndurability: forever", "p.yaml: durability: 'forever'"),
      (
        "name: t\ndata: {records: 10}\nper_day: {save: 1}\nbudgets: {edit: {ms: 5}}\ndurability: kill",
        "p.yaml: budgets.edit: a budget for an operation the profile never does"
      ),
      (
        "name: t\ndata: {records: 10}\nper_day: {save: 1}\nbudgets: {save: {ms: 5, percentile: p95}}\ndurability: kill",
        "p.yaml: budgets.save.percentile: 'p95'"
      ),
      (
        "name: t\ndata: {records: 10}\nper_day: {tag_query: 1}\ndurability: kill",
        "p.yaml: per_day.tag_query: needs data.records and data.tags"
      ),
      (
        "name: t\ndata: {records: 10}\nper_day: {save: 0}\ndurability: kill",
        "p.yaml: per_day: no operation happens"
      ),
      (
        "name: t\ndata: {records: 10}\nper_day: {open_parent: 1}\ndurability: kill",
        "p.yaml: per_day.open_parent: needs data.parents"
      ),
      (
        "name: t\ndata: {records: 10, parent_skew: 100}\nper_day: {save: 1}\ndurability: kill",
        "p.yaml: data.parent_skew: describes parents"
      ),
      (
        "name: t\ndata: {parents: 10, settings: 5}\nper_day: {setting: 1}\ndurability: kill",
        "p.yaml: data.parents: parents hold records"
      ),
      (
        "name: t\ndata: {records: 10, parents: 5, parent_skew: 400}\nper_day: {save: 1}\ndurability: kill",
        "p.yaml: data.parent_skew: 400 is out of range"
      ),
    ] as [(String, String)])
  func strict(_ text: String, _ message: String) {
    #expect(throws: ScenarioError.self) { try Self.profile(text) }
    do { _ = try Self.profile(text) } catch { #expect("\(error)".hasPrefix(message), "\(error)") }
  }

  /// A samples.csv of `strategies` (backend, variant, seconds per save per repetition, launch seconds per
  /// repetition).
  static func table(_ strategies: [(String, String, [Double], [Double])]) throws -> SampleTable {
    var lines = ["scenario,workload,backend,variant,size,repetition,status,wall_s,ops,p90_us,p99_us"]
    for (backend, variant, saves, launches) in strategies {
      for (index, save) in saves.enumerated() {
        lines.append(
          "s,insert,\(backend),\(variant),100,\(index + 1),ok,\(save * 100),100,\(save * 1e6),\(save * 1.5e6)"
        )
      }
      for (index, launch) in launches.enumerated() {
        lines.append("s,list-cold,\(backend),\(variant),1000,\(index + 1),ok,\(launch),1,,")
      }
    }
    return try SampleTable(text: lines.joined(separator: "\n") + "\n", source: "t")
  }

  @Test(
    "the cheapest strategy that meets every budget and the need is recommended; ties, misses and failures say why")
  func judgement() throws {
    let plan = AdvicePlan(try Self.profile(Self.simple), backends: .standard(), workloads: .standard)
    let table = try Self.table([
      (
        "a", "fast", [0.001, 0.0011, 0.0009, 0.001, 0.001, 0.001, 0.001, 0.001],
        [0.05, 0.05, 0.06, 0.05, 0.05, 0.05, 0.05, 0.05]
      ),
      (
        "b", "same", [0.00105, 0.001, 0.00095, 0.001, 0.0011, 0.001, 0.001, 0.001],
        [0.05, 0.055, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05]
      ),
      (
        "c", "slow", [0.004, 0.0041, 0.0039, 0.004, 0.004, 0.004, 0.004, 0.004],
        [0.06, 0.06, 0.06, 0.06, 0.06, 0.06, 0.06, 0.06]
      ),
      (
        "d", "laggy", [0.02, 0.021, 0.019, 0.02, 0.02, 0.02, 0.02, 0.02],
        [0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05]
      ),
      (
        "e", "volatile", [0.0001, 0.0001, 0.0001, 0.0001, 0.0001, 0.0001, 0.0001, 0.0001],
        [0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01]
      ),
    ])
    let promise: (String, String) -> DurabilityPromise? = { backend, _ in backend == "e" ? .survivesKill : .durable
    }
    let advice = Advice(plan: plan, table: table, crashes: [:], promise: promise, resamples: 500)
    let verdicts = Dictionary(uniqueKeysWithValues: advice.strategies.map { ($0.backend, $0.verdict) })
    #expect(advice.recommendation != nil)
    #expect(Set(["a", "b"]).contains(advice.recommendation!.backend))
    #expect(verdicts["a"] == .recommended || verdicts["a"] == .tied)
    #expect(verdicts["b"] == .recommended || verdicts["b"] == .tied)
    #expect(verdicts["c"] == .costlier && verdicts["d"] == .missesBudget && verdicts["e"] == .failsNeed)
    // Cost a day: 100 saves × 1 ms + 10 launches × 50 ms = 0.6 s.
    let a = try #require(advice.strategies.first { $0.backend == "a" })
    #expect(abs(a.costPerDay! - 0.6) < 1e-9)
    #expect(a.costInterval!.low <= 0.6 && a.costInterval!.high >= 0.6)
    // The launch budget is p90 over the repetitions (nearest rank: the 8th of 8 here); the save budget p99 per
    // save.
    #expect(a.budgets.first { $0.operation == .launch }?.measured == 0.06)
    let d = try #require(advice.strategies.first { $0.backend == "d" })
    #expect(
      advice.reason(d).contains("save: p99 30.0 ms (95% interval up to 31.5 ms), 1.9× the 16.7 ms budget"),
      "\(advice.reason(d))")
    let c = try #require(advice.strategies.first { $0.backend == "c" })
    #expect(advice.reason(c).hasPrefix("costlier: "), "\(advice.reason(c))")
    #expect(
      advice.reason(try #require(advice.strategies.first { $0.backend == "e" })).contains("survives a killed app")
    )
    // A measured loss lowers the class and changes the answer.
    let lost = CrashResult(
      kill: .init(trials: 5, acknowledged: 100, lost: 0), synced: .init(trials: 5, acknowledged: 100, lost: 3))
    let after = Advice(
      plan: plan, table: table, crashes: ["a [fast]": lost, "b [same]": lost], promise: promise, resamples: 500)
    #expect(after.recommendation?.backend == "c")
    #expect(after.strategies.first { $0.backend == "a" }?.verdict == .failsNeed)
    let markdown = after.markdown(
      .init(
        host: "h", cpu: "c", cores: 2, kernel: "k", fileSystem: "ext4", date: "2026-11-25",
        commit: "abc", runDirectory: "run/", crashTrials: "t"), chart: nil)
    #expect(markdown.contains("**Recommendation: c [slow]**") && markdown.contains("measured here, on 2026-11-25"))
  }

  @Test("among strategies whose cost cannot be told apart, the strongest durability class is recommended")
  func tieGoesToDurability() throws {
    let plan = AdvicePlan(
      try Self.profile(Self.simple.replacingOccurrences(of: "durability: power-loss", with: "durability: kill")),
      backends: .standard(), workloads: .standard)
    let table = try Self.table([
      (
        "fast", "v", [0.001, 0.0011, 0.0009, 0.001, 0.001, 0.001, 0.0011, 0.0009],
        Array(repeating: 0.05, count: 8)
      ),
      (
        "safe", "v", [0.00105, 0.001, 0.00095, 0.001, 0.0011, 0.001, 0.00105, 0.00095],
        Array(repeating: 0.05, count: 8)
      ),
    ])
    let advice = Advice(
      plan: plan, table: table, crashes: [:],
      promise: { backend, _ in backend == "safe" ? .durable : .survivesKill }, resamples: 500)
    #expect(advice.recommendation?.backend == "safe")
    #expect(advice.strategies.first { $0.backend == "fast" }?.verdict == .tied)
  }

  @Test("no strategy meets the budgets: no recommendation, and each says which budget it missed")
  func nothingMeets() throws {
    let plan = AdvicePlan(try Self.profile(Self.simple), backends: .standard(), workloads: .standard)
    let table = try Self.table([("d", "laggy", Array(repeating: 0.02, count: 8), Array(repeating: 0.5, count: 8))])
    let advice = Advice(plan: plan, table: table, crashes: [:], promise: { _, _ in .durable }, resamples: 200)
    #expect(advice.recommendation == nil && !advice.noAnswerYet)
    let reason = advice.reason(advice.strategies[0])
    #expect(reason.contains("launch: p90") && reason.contains("save: p99"), "\(reason)")
    let markdown = advice.markdown(
      .init(
        host: "h", cpu: "c", cores: 2, kernel: "k", fileSystem: "ext4", date: "d",
        commit: "abc", runDirectory: "run/", crashTrials: "t"), chart: nil)
    #expect(markdown.contains("No strategy meets everything"))
    // The same from 3 repetitions is no verdict at all: the miss is not measured enough, and there is no answer.
    let thin = Advice(
      plan: plan, table: try Self.table([("d", "laggy", [0.02, 0.021, 0.019], [0.5, 0.52, 0.49])]), crashes: [:],
      promise: { _, _ in .durable }, resamples: 200)
    #expect(thin.recommendation == nil && thin.noAnswerYet)
    #expect(thin.strategies[0].verdict == .notMeasuredEnough)
    #expect(thin.reason(thin.strategies[0]).contains("launch p90: not measured enough (n=3; 8 needed)"))
    // Unless the repetitions agree exactly, as check --budgets decides an exact count (one rule, BudgetJudgement).
    let exact = Advice(
      plan: plan, table: try Self.table([("d", "laggy", [0.02, 0.02, 0.02], [0.5, 0.5, 0.5])]), crashes: [:],
      promise: { _, _ in .durable }, resamples: 200)
    #expect(exact.strategies[0].verdict == .missesBudget)
    // "No loss" from 4 kills carries no need either: the durability is not measured enough.
    let fast = try Self.table([("f", "v", Array(repeating: 0.001, count: 8), Array(repeating: 0.05, count: 8))])
    let killed = Advice(
      plan: AdvicePlan(
        try Self.profile(
          Self.simple.replacingOccurrences(of: "durability: power-loss", with: "durability: kill")),
        backends: .standard(), workloads: .standard),
      table: fast, crashes: ["f [v]": CrashResult(kill: .init(trials: 4, acknowledged: 80, lost: 0))],
      promise: { _, _ in .durable }, resamples: 200)
    #expect(killed.noAnswerYet && killed.strategies[0].verdict == .notMeasuredEnough)
    #expect(
      killed.reason(killed.strategies[0]).contains(
        "durability: not measured enough (4 kills without a loss; 8 needed)"),
      "\(killed.reason(killed.strategies[0]))")
  }

  @Test(
    "advise end to end on a small profile: the run, crash trials of the strategy that met the budgets, the answer; bad input exits 64"
  )
  func endToEnd() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let profile = temp.url.appendingPathComponent("small.yaml")
    try Data(
      """
      name: small
      data: {records: 300, summary_bytes: 300}
      per_day: {save: 20, launch: 3}
      budgets: {save: {ms: 100}}
      durability: kill
      candidates: ["sqlite[txn=single,journal=wal,sync=normal]", "memory"]
      crash_trials: 8
      run_seconds: 30
      """.utf8
    ).write(to: profile)
    let out = temp.url.appendingPathComponent("answer")
    let result = try runStorebench([
      "advise", "--profile", profile.path, "--out", out.path, "--workdir", temp.url.path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let advice = try String(contentsOf: out.appendingPathComponent("advice.md"), encoding: .utf8)
    #expect(advice.contains("**Recommendation: sqlite [txn=single journal=wal sync=normal]**"), "\(advice)")
    #expect(advice.contains("measured: ") && advice.contains("in memory only"), "\(advice)")
    for file in [
      "scenario.yaml", "profile.yaml", "durability.csv", "advice.json", "run/samples.csv", "run/durability.csv",
    ] {
      #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path), "\(file)")
    }
    let record = try JSONDecoder().decode(
      AdviceRecord.self, from: Data(contentsOf: out.appendingPathComponent("advice.json")))
    #expect(record.recommendation.value?.backend == "sqlite" && record.answer == "recommendation")

    // A budget nothing meets: exit 6, and the answer says which budget each strategy missed.
    try Data(
      String(decoding: Data(contentsOf: profile), as: UTF8.self).replacingOccurrences(
        of: "ms: 100", with: "ms: 0.001"
      )
      .utf8
    ).write(to: profile)
    let none = try runStorebench([
      "advise", "--profile", profile.path, "--out", temp.url.appendingPathComponent("none").path,
      "--workdir", temp.url.path, "--no-crash",
    ])
    #expect(none.status == 6, "\(none.stderr)")
    #expect(
      none.stdout.contains("No strategy meets everything") && none.stdout.contains("misses save"),
      "\(none.stdout)")

    try Data("name: bad\ndata: {records: 10}\nper_day: {save: 1}\ndurability: maybe\n".utf8)
      .write(to: temp.url.appendingPathComponent("bad.yaml"))
    let bad = try runStorebench([
      "advise", "--profile", temp.url.appendingPathComponent("bad.yaml").path,
      "--out", temp.url.appendingPathComponent("nothing").path,
    ])
    #expect(bad.status == 64 && bad.stderr.contains("durability: 'maybe'"), "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: temp.url.appendingPathComponent("nothing").path))
    let dry = try runStorebench(["advise", "--profile", profile.path, "--dry-run"])
    // (the profile now asks for 0.001 ms: the dry run still plans it)
    #expect(
      dry.status == 0 && dry.stdout.contains("name: advise-small") && dry.stdout.contains("estimated duration"),
      "\(dry.stderr)")
  }

  @Test("the committed answers are what this binary renders from their own folders (generated text stays current)")
  func committedAnswersCurrent() throws {
    let examples = packageRoot.appendingPathComponent("results/example")
    let folders = try FileManager.default.contentsOfDirectory(atPath: examples.path).filter {
      $0.hasPrefix("advice-")
    }
    // One committed answer for every shipped profile.
    let profiles = try FileManager.default.contentsOfDirectory(
      atPath: packageRoot.appendingPathComponent("profiles").path
    ).filter { $0.hasSuffix(".yaml") }
    #expect(Set(folders) == Set(profiles.map { "advice-" + $0.dropLast(".yaml".count) }), "\(folders)")
    // Each answer, and its second run back to back where committed (advice-<name>/again/).
    let answers = folders.flatMap { folder in
      FileManager.default.fileExists(atPath: examples.appendingPathComponent("\(folder)/again/advice.md").path)
        ? [folder, "\(folder)/again"] : [folder]
    }
    for folder in answers {
      let temp = try TemporaryDirectory()
      let copy = temp.url.appendingPathComponent("answer")
      try FileManager.default.copyItem(at: examples.appendingPathComponent(folder), to: copy)
      let result = try runStorebench(["advise", "--report", copy.path])
      #expect(result.status == 0 || result.status == 6 || result.status == 7, "\(result.stderr)")
      let committed = try String(
        contentsOf: examples.appendingPathComponent(folder).appendingPathComponent("advice.md"), encoding: .utf8
      )
      let rendered = try String(contentsOf: copy.appendingPathComponent("advice.md"), encoding: .utf8)
      #expect(rendered == committed, "\(folder)/advice.md is stale: run scripts/regenerate-advice --render")
    }
  }
}
