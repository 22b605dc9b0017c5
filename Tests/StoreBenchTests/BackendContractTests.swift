import Foundation
import StoreBenchBackends
import StoreBenchConformance
import StoreBenchCore
import Testing

/// The backend contract (see `Store`), checked by the contract suites a team runs on its own backend
/// (`StoreBenchConformance`), on every registered backend and every variant, and on the test target's `jsonfile`
/// backend, which plays only the articles role: where a backend lacks the role a check needs, the check does not
/// apply and opening it as that role is refused as `unsupported` (the row a run reports).
@Suite("Backend contract")
struct BackendContractTests {
  /// The suite's `checks` on one backend variant, with the test target's registry and the debug binary.
  static func report(_ backend: BackendCase, _ checks: [ContractCheck], registry: BackendRegistry? = nil) throws
    -> ContractReport
  {
    let descriptor = try #require((registry ?? BackendCase.contractRegistry)[backend.backend])
    var suite = ContractSuite(
      descriptor, executable: try storebenchBinary(), variants: [try descriptor.variant(backend.variant)])
    suite.checks = checks
    return suite.run()
  }

  @Test(
    "the store contract: round-trip byte for byte, mark-read, lookup and delete, timeline order, files inside",
    arguments: BackendCase.contract)
  func storeContract(_ backend: BackendCase) throws {
    let report = try Self.report(backend, [.roundTrip, .markRead, .lookupAndDelete, .timeline, .filesInside])
    #expect(report.failures.isEmpty, "\(report)")
    let roles = try #require(BackendCase.contractRegistry[backend.backend]).roles
    #expect(report.passed.count == (roles.contains(.timeline) ? 5 : 4), "\(report)")
  }

  @Test("a backend that lacks a role is refused as unsupported for it, and runs every check of the roles it plays")
  func partialRoles() throws {
    let temp = try TemporaryDirectory()
    let jsonfile = BackendCase(backend: "jsonfile", variant: [:], label: "default")
    #expect(try jsonfile.opener(in: try temp.child("a"), as: (any TimelineStore).self) == nil)
    #expect(try jsonfile.opener(in: try temp.child("b"), as: (any ArticleStore).self) != nil)
    let sqlite = BackendCase(backend: "sqlite", variant: [:], label: "default")
    #expect(try sqlite.opener(in: try temp.child("c"), as: (any TimelineStore).self) != nil)
    let report = try Self.report(jsonfile, [.timeline])
    #expect(report.results.map(\.outcome) == [.notApplicable("the backend does not play the role timeline")])
  }

  @Test("the executable check: storebench registers sqlite as the suite's descriptor, and not the test's jsonfile")
  func executableKnowsTheBackend() throws {
    let sqlite = try Self.report(BackendCase(backend: "sqlite", variant: [:], label: "default"), [.executable])
    #expect(sqlite.failures.isEmpty && sqlite.passed.count == 1, "\(sqlite)")
    let jsonfile = try Self.report(BackendCase(backend: "jsonfile", variant: [:], label: "default"), [.executable])
    let failure = try #require(jsonfile.failures.first)
    #expect(
      failure.description.hasPrefix("FAIL executable: ")
        && failure.description.contains("does not register the backend 'jsonfile' (it registers sqlite, grdb"),
      "\(failure)")
  }

  @Test("damage and concurrency: every persistent backend's verdicts hold, and stores on four threads stay apart")
  func damageAndConcurrency() throws {
    for descriptor in BackendRegistry.standard().descriptors {
      let backend = BackendCase(backend: descriptor.name, variant: [:], label: "default")
      let report = try Self.report(backend, [.damage, .concurrency])
      #expect(report.failures.isEmpty, "\(report)")
      #expect(report.passed.count == (descriptor.persistent ? 2 : 1), "\(report)")
    }
  }

  @Test("the suite fails a backend that drops writes, naming the check, the variant and what is missing")
  func brokenBackendFails() throws {
    var registry = BackendRegistry.standard()
    registry.register(BrokenBackend.descriptor())
    let broken = BackendCase(backend: "broken", variant: [:], label: "default")
    let report = try Self.report(broken, [.markRead, .workloads], registry: registry)
    let failed = Set(report.failures.map { "\($0.check.rawValue) \($0.subject)" })
    #expect(failed.isSuperset(of: ["mark-read ", "workloads mark-read", "workloads edit", "workloads search"]))
    let markRead = try #require(report.failures.first { $0.check == .markRead })
    #expect(
      markRead.description
        == "FAIL mark-read [default]: 136 read after a reopen; 1 of the 137 marked are not, 0 others are")
    #expect("\(report)".hasPrefix("contract suite, backend broken: "))
  }
}
