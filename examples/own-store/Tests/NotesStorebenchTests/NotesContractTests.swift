import Foundation
import NotesStorebench
import StoreBenchConformance
import StoreBenchKit
import Testing

/// The notes adapter under storebench's contract suites, and a broken copy of it that they must fail.
@Suite("Notes adapter: storebench's contract suites")
struct NotesContractTests {
  /// `notes-bench`, built beside this test bundle: the checks that need a fresh process start it.
  static func notesBench() throws -> URL {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let candidates = [
      beside.appendingPathComponent("notes-bench"),
      beside.deletingLastPathComponent().appendingPathComponent("notes-bench"),
      package.appendingPathComponent(".build/debug/notes-bench"),
      package.appendingPathComponent(".build/release/notes-bench"),
    ]
    return try #require(
      candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
      "notes-bench not found near \(beside.path)")
  }

  @Test("the notes backend keeps the whole contract on every variant")
  func notesKeepsTheContract() throws {
    var suite = ContractSuite(NotesBackend.descriptor, executable: try Self.notesBench())
    // The team's own workload is checked like the standard ones: on every variant, against the reference's result.
    suite.workloads.register(TriageWorkload())
    let report = suite.run()
    print(report.description.prefix { $0 != "\n" })  // the summary line, for the CI log
    #expect(report.failures.isEmpty, "\(report)")
    // The executable once, then on each of the four variants 6 checks and the 11 workloads its roles allow
    // (`triage` included; the timeline check and the other workloads do not apply).
    #expect(report.passed.count >= 1 + 4 * 17, "\(report)")
    #expect(report.passed.contains { $0.check == .damage } && report.passed.contains { $0.subject == "query" })
    #expect(report.passed.filter { $0.subject == "triage" }.count == 4, "\(report)")
    #expect(report.passed.first?.check == .executable, "\(report)")
  }

  @Test("a copy that drops one write in ten fails verification and the contract suites")
  func droppingFails() throws {
    let dropping = NotesBackend.dropping(oneWriteIn: 10)
    var suite = ContractSuite(
      dropping, executable: try Self.notesBench(), variants: [try dropping.variant()])
    suite.checks = [.executable, .roundTrip, .markRead, .lookupAndDelete, .workloads]
    let report = suite.run()
    let failed = Set(report.failures.map { "\($0.check.rawValue) \($0.subject)" })
    #expect(
      failed.isSuperset(of: [
        "executable ", "round-trip ", "mark-read ", "lookup-delete ", "workloads insert", "workloads edit",
        "workloads mark-read", "workloads delete",
      ]), "\(report)")
    // notes-bench does not register the broken copy: the suite says so once, before the checks that need it.
    #expect(report.failures.first?.description.contains("does not register the backend 'notes-dropping'") == true)
    // The runner's own verification is what fails the insert row (the store holds 1 in 10 fewer articles).
    let insert = try #require(report.failures.first { $0.subject == "insert" })
    #expect("\(insert)".contains("verify: verification failed"), "\(insert)")
    #expect(report.failures.contains { "\($0)".contains("missing after a reopen") }, "\(report)")
  }
}
