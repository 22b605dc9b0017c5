import Foundation
import StoreBenchBackends
import StoreBenchCore
import StoreBenchStandard
import Testing

/// Every registered workload that uses a store, run through its own prepare → measure → verify on every backend
/// variant at its smoke size: each must pass its verification and produce exactly the memory backend's result
/// checksum (sqlite's where the memory backend cannot play the workload's roles).
@Suite("Workload contract")
struct WorkloadContractTests {
  /// Every registered workload that uses a store, at the small sizes it declares for the smoke run: a new workload
  /// is covered here without this suite being edited.
  static var cases: [(workload: any Workload, parameters: [String: Int])] {
    WorkloadRegistry.standard.workloads.filter(\.requiresStore).map { ($0, $0.smokeParameters) }
  }

  /// Runs one repetition of `workload` on a fresh store of `backend`, as the runner does; returns the verified
  /// checksum and notes (the row must be ok).
  static func run(
    _ workload: any Workload, _ overrides: [String: Int], on backend: BackendCase,
    registry: BackendRegistry = .standard()
  ) throws -> (checksum: String, notes: [SampleColumn: String]) {
    let sample = try sample(workload, overrides, on: backend, registry: registry)
    try #require(sample.status == .ok, "\(workload.name) on \(backend.testDescription): \(sample.error)")
    #expect(sample.ops > 0)
    if let percentiles = sample.latency {
      #expect(
        percentiles.p50 <= percentiles.p90 && percentiles.p90 <= percentiles.p99
          && percentiles.p99 <= percentiles.max)
    }
    return (sample.checksum, sample.notes)
  }

  /// One repetition's row, whatever its status.
  static func sample(
    _ workload: any Workload, _ overrides: [String: Int], on backend: BackendCase,
    registry: BackendRegistry = .standard()
  ) throws -> Sample {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let directory = try temp.child("store")
    let descriptor = try #require(registry[backend.backend])
    var parameters = workload.defaultParameters
    for (name, value) in overrides { parameters.set(name, value) }
    try workload.validate(parameters)
    return Runner.runOnce(
      workload, parameters: parameters, seed: 11, backend: descriptor,
      variant: try descriptor.variant(backend.variant), in: directory,
      childExecutable: try storebenchBinary())
  }

  static let memory = BackendCase(backend: "memory", variant: [:], label: "default")

  @Test(
    "insert without `stored` inserts exactly the articles it always did: the smoke baseline's checksum, and no stored parameter in the row"
  )
  func insertDefaultsUnchanged() throws {
    let workload = InsertWorkload()
    var parameters = workload.defaultParameters
    parameters[.count] = 50
    #expect(parameters.description == "count=50")
    #expect(workload.makeCase(parameters, generator: DatasetGenerator(seed: 42)).fingerprint == "0a1e50732c6c0998")
    parameters[.stored] = 0
    #expect(workload.makeCase(parameters, generator: DatasetGenerator(seed: 42)).fingerprint == "0a1e50732c6c0998")
    parameters[.stored] = 10
    #expect(workload.makeCase(parameters, generator: DatasetGenerator(seed: 42)).fingerprint != "0a1e50732c6c0998")
  }

  @Test(
    "every registered store workload: verified, the reference's result, unsupported without the role",
    arguments: BackendCase.contract)
  func sameAsMemory(_ backend: BackendCase) throws {
    let report = try BackendContractTests.report(backend, [.workloads])
    #expect(report.failures.isEmpty, "\(report)")
    // Every registered store workload and the two operations of the suite's own sql workload file.
    #expect(report.results.count == WorkloadRegistry.standard.workloads.count { $0.requiresStore } + 2)
    let sql = report.results.filter { $0.subject.hasPrefix("sql:contract.") }
    #expect(sql.count == 2)
    if ["sqlite", "grdb"].contains(backend.backend) {
      #expect(sql.allSatisfy { if case .passed = $0.outcome { true } else { false } }, "\(sql)")
    }
  }

  @Test(
    "settings: written, then read back by a fresh process",
    arguments: BackendCase.all.filter { $0.backend != "memory" })
  func settingsReadBack(_ backend: BackendCase) throws {
    let checksum = try Self.run(SettingsWorkload(), ["count": 40], on: backend).checksum
    let expected = SettingsWorkload.checksum(
      DatasetGenerator(seed: 11).settings(count: 40).map { ($0.key, $0.value) })
    #expect(checksum == expected)
  }

  @Test("settings: the memory backend is unsupported (nothing survives its process)")
  func settingsMemory() throws {
    let sample = try Self.sample(SettingsWorkload(), ["count": 5], on: Self.memory)
    #expect(sample.status == .unsupported)
    #expect(sample.error.contains("does not play the role persistence"), "\(sample.error)")
  }

  @Test(
    "a backend that drops results fails search and cache verification; settings reads in a child storebench, which does not know a test-only backend"
  )
  func brokenBackendFails() throws {
    var registry = BackendRegistry.standard()
    registry.register(BrokenBackend.descriptor())
    let broken = BackendCase(backend: "broken", variant: [:], label: "default")
    let search = try Self.sample(SearchWorkload(), ["stored": 300, "count": 3], on: broken, registry: registry)
    #expect(search.status == .failed && search.error.contains("verify: verification failed"), "\(search.error)")
    let cache = try Self.sample(
      CacheWorkload(), ["count": 1_000, "capacity": 30, "keys": 100, "value_bytes": 8], on: broken,
      registry: registry)
    // The cache's own bookkeeping notices the dropped put while it runs, or verification does afterwards.
    #expect(cache.status == .failed && cache.error.contains("broken [default] cache"), "\(cache.error)")
    let settings = try Self.sample(SettingsWorkload(), ["count": 20], on: broken, registry: registry)
    // Not the dropped setting: the reading child is the shipped binary, whose registry has no 'broken'.
    #expect(
      settings.status == .failed && settings.error.contains("unknown backend 'broken'"),
      "\(settings.status) \(settings.error)")
  }

  @Test("EXPLAIN QUERY PLAN shows the index with index=on and a scan with index=off")
  func queryPlans() throws {
    for backend in ["sqlite", "grdb"] {
      let on = try Self.run(
        QueryWorkload(), ["stored": 200, "count": 2],
        on: BackendCase(backend: backend, variant: ["index": "on"], label: "on"))
      let off = try Self.run(
        QueryWorkload(), ["stored": 200, "count": 2],
        on: BackendCase(backend: backend, variant: ["index": "off"], label: "off"))
      let planOn = on.notes[.queryPlan] ?? ""
      let planOff = off.notes[.queryPlan] ?? ""
      #expect(planOn.contains("article_feed_unread"), "\(backend): \(planOn)")
      #expect(
        !planOff.contains("article_feed_unread") && planOff.contains("SCAN article"), "\(backend): \(planOff)")
    }
    let scan = try Self.run(
      QueryWorkload(), ["stored": 100, "count": 1],
      on: BackendCase(backend: "gdbm", variant: [:], label: "default"))
    #expect(scan.notes[.queryPlan]?.hasPrefix("scan:") == true)
  }
}

@Suite("Search and cache semantics")
struct SemanticsTests {
  @Test("KeywordMatcher: LIKE semantics (ASCII case ignored, substrings, non-ASCII untouched)")
  func matcher() {
    #expect(KeywordMatcher("swift").matches("I like Swift."))
    #expect(KeywordMatcher("SWIFT").matches("swiftly"))
    #expect(!KeywordMatcher("swift").matches("sw ift"))
    #expect(KeywordMatcher("cafe").matches("CAFE") && !KeywordMatcher("cafe").matches("café"))
    #expect(!KeywordMatcher("abc").matches("ab"))
    #expect(KeywordMatcher("xml").matches("<xml attr=\"1\">"))
  }

  /// Word tokens as FTS5's unicode61 tokenizer sees ASCII words: runs of letters and digits, case folded.
  static func tokens(_ text: String) -> Set<String> {
    var result = Set<String>()
    var current = ""
    for scalar in text.unicodeScalars {
      if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
        current.unicodeScalars.append(scalar)
      } else if !current.isEmpty {
        result.insert(current.lowercased())
        current = ""
      }
    }
    if !current.isEmpty { result.insert(current.lowercased()) }
    return result
  }

  @Test("every search keyword matches the same articles as a substring and as a word token")
  func keywordsAreWords() {
    let articles = DatasetGenerator(seed: 7).articles(count: 3_000)
    for keyword in SearchWorkload.keywords {
      let bySubstring = SearchWorkload.expectedMatches(articles, keyword: keyword)
      let byToken = Set(
        articles.filter { Self.tokens($0.title + " " + $0.summary).contains(keyword.lowercased()) }.map(\.uid))
      #expect(bySubstring == byToken, "\(keyword): \(bySubstring.count) vs \(byToken.count)")
      #expect(!bySubstring.isEmpty, "\(keyword) never occurs")
    }
  }

  @Test("ExpiringCache: expired entries miss and go; beyond capacity the earliest-expiring entry is evicted")
  func expiringCache() throws {
    let location = StoreLocation(
      directory: URL(fileURLWithPath: "/nonexistent-\(UInt64.random(in: 0...UInt64.max))"),
      variant: try MemoryBackend.descriptor().variant([:]))
    let memory = try MemoryBackend.descriptor().open(location, as: (any CacheStore).self)
    let cache = try ExpiringCache(storage: memory, capacity: 2)
    try cache.put(key: "a", value: [1], expires: 10)
    try cache.put(key: "b", value: [2], expires: 5)
    try cache.put(key: "c", value: [3], expires: 7)  // evicts b, the earliest to expire
    #expect(cache.count == 2)
    #expect(try cache.get(key: "b", now: 0) == nil)
    #expect(try cache.get(key: "c", now: 6) == [3])
    #expect(try cache.get(key: "c", now: 7) == nil)  // expired at 7: removed
    #expect(try memory.cacheEntries().map(\.key) == ["a"])
    try cache.put(key: "a", value: [4], expires: 20)  // replacing keeps one entry
    #expect(try cache.get(key: "a", now: 19) == [4] && cache.count == 1)
  }

  @Test("setting values round-trip through their canonical text")
  func settingText() throws {
    for value: SettingValue in [
      .bool(true), .bool(false), .int(-42), .double(0.1), .double(-1e300), .string(""), .string("a:b\nc"),
    ] {
      #expect(try SettingValue(encoded: value.encoded, kind: value.kind) == value)
    }
    #expect(throws: StoreError.self) { try SettingValue(encoded: "i:12", kind: .bool) }
  }
}
