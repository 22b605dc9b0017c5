import Foundation
import Testing

@testable import StoreBenchCore

/// The accepted-changes file: read strictly, and honoured by every gate — `compare` (and so the count gate, which is
/// `compare` on counts), `ab` and `history check` — a change it names passes with its reason, and an entry that
/// matched nothing is reported.
@Suite("Accepted changes")
struct AcceptedChangesTests {
  static func parse(_ text: String, resolve: (String) -> Set<String>? = { _ in nil }) throws -> AcceptedChanges {
    try AcceptedChangesFile.parse(Data(text.utf8), file: "accepted.yaml", resolve: resolve)
  }

  static func entry(_ fields: String) -> String {
    "accepted:\n  - {\(fields)}\n"
  }

  static let valid = "commit: 1f2a0fa, metric: wall_s, direction: regression, reason: on purpose"

  @Test("a commit, a range resolved by git, globs that default to *; the committed file reads and accepts nothing")
  func reads() throws {
    let one = try Self.parse(Self.entry(Self.valid + ", backend: sqlite"))
    let entry = try #require(one.entries.first)
    #expect(entry.commits == .prefix("1f2a0fa") && entry.workload == "*" && entry.backend == "sqlite")
    #expect(entry.commits.contains("1F2A0FA0123456789") && entry.commits.contains("1f2a0fa99+dirty"))
    #expect(!entry.commits.contains("2f2a0fa"))
    let ranged = try Self.parse(
      Self.entry("range: 1111111..2222222, metric: instructions_per_op, direction: improvement, reason: faster")
    ) { range in range == "1111111..2222222" ? ["aaaaaaaaaa", "bbbbbbbbbb"] : nil }
    #expect(ranged.entries.first?.commits == .hashes(["aaaaaaaaaa", "bbbbbbbbbb"]))
    let committed = try AcceptedChangesFile.read(packageRoot.appendingPathComponent("accepted-changes.yaml").path)
    #expect(committed.entries.isEmpty)
  }

  @Test(
    "hostile files are refused naming the entry and key",
    arguments: [
      ("metric: wall_s, direction: regression, reason: r", "needs the commit it is for"),
      ("commit: HEAD, metric: wall_s, direction: regression, reason: r", "is not a commit hash"),
      ("commit: 1f2a0f, metric: wall_s, direction: regression, reason: r", "is not a commit hash"),
      ("commit: 1f2a0fa, range: 1111111..2222222, metric: wall_s, direction: regression, reason: r", "not both"),
      ("range: 1111111, metric: wall_s, direction: regression, reason: r", "is not a range"),
      ("range: 1111111..2222222, metric: wall_s, direction: regression, reason: r", "git could not list"),
      ("commit: 1f2a0fa, metric: speed, direction: regression, reason: r", "unknown metric 'speed'"),
      ("commit: 1f2a0fa, metric: wall_s, direction: worse, reason: r", "neither regression nor improvement"),
      ("commit: 1f2a0fa, metric: wall_s, direction: regression", "accepted[0].reason"),
      ("commit: 1f2a0fa, metric: wall_s, direction: regression, reason: \"  \"", "one line of 1 to 500"),
      ("commit: 1f2a0fa, metric: wall_s, direction: regression, reason: r, owner: me", "unknown key"),
    ])
  func refused(fields: String, message: String) throws {
    #expect {
      try Self.parse(Self.entry(fields))
    } throws: { error in
      "\(error)".contains(message) && "\(error)".contains("accepted")
    }
  }

  @Test("compare (the count gate's judge): an accepted regression passes with its reason; a stale entry is named")
  func compare() throws {
    let temp = try TemporaryDirectory()
    let scenario = try temp.file(
      "s.yaml",
      """
      name: accepted
      backends: [{backend: lmdb}]
      workloads: [{workload: insert, parameters: {count: 50}}]
      """)
    let runs = try ["base", "cur"].map { name in
      let out = temp.url.appendingPathComponent(name).path
      let run = try runStorebench(
        ["run", "--scenario", scenario, "--reps", "3", "--workdir", temp.url.path, "--out", out],
        environment: name == "cur" ? ["STOREBENCH_TEST_EXTRA_SYNC": "lmdb/insert"] : [:])
      #expect(run.status == 0, "\(run.stderr)")
      return out
    }
    let gate = ["compare", runs[0], runs[1], "--metric", "syncs_per_op", "--require-counts", "--allow-underpowered"]
    #expect(try runStorebench(gate).status == 2, "one more sync per record is a regression")
    let commit = String(MachineFacts.gitCommit().prefix(12))
    let accepted = try temp.file(
      "accepted.yaml",
      """
      accepted:
        - {commit: \(commit), workload: insert, backend: lmdb, metric: syncs_per_op, direction: regression,
           reason: one more sync per record on purpose}
        - {commit: 0000000, metric: syncs_per_op, direction: regression, reason: another commit's}
      """)
    let summary = temp.url.appendingPathComponent("summary.md").path
    let passed = try runStorebench(gate + ["--accepted", accepted, "--summary", summary])
    #expect(passed.status == 0, "\(passed.stdout)")
    let page = try String(contentsOfFile: summary, encoding: .utf8)
    #expect(page.contains("**storebench compare: no regression**"), "\(page)")
    #expect(page.contains("| accepted[0] | one more sync per record on purpose |"), "\(page)")
    #expect(page.contains("accepted change accepted[1] of \(accepted) matched nothing"), "\(page)")
    #expect(passed.stdout.contains("| accepted | insert | lmdb |"), "\(passed.stdout)")
    // Another metric's entry does not let this one pass.
    let other = try temp.file(
      "other.yaml",
      Self.entry("commit: \(commit), metric: written_bytes_per_op, direction: regression, reason: other metric"))
    #expect(try runStorebench(gate + ["--accepted", other]).status == 2)
    // The file is an input: a page is never written over it.
    let over = try runStorebench(gate + ["--accepted", accepted, "--summary", accepted])
    #expect(
      over.status == 64 && (try? String(contentsOfFile: accepted, encoding: .utf8))?.contains("accepted:") == true)
    // An unreadable file is bad input, before anything is judged.
    let broken = try temp.file("broken.yaml", "accepted: [{commit: 1}]\n")
    let refused = try runStorebench(gate + ["--accepted", broken])
    #expect(refused.status == 64 && refused.stderr.contains("--accepted"), "\(refused)")
  }

  @Test("ab: a regression in every round, accepted for this commit, passes with its reason")
  func ab() throws {
    let temp = try TemporaryDirectory()
    let current = try ConfirmPassTests.slowedBinary(in: temp, always: true)
    let accepted = try temp.file(
      "accepted.yaml",
      Self.entry(
        "commit: \(MachineFacts.gitCommit().prefix(12)), backend: memory, metric: wall_s, direction: regression, "
          + "reason: the memory floor now copies each record"))
    // A file compare would refuse is refused before any round runs.
    let broken = try temp.file("broken.yaml", "accepted: [{commit: 1f2a0fa}]\n")
    let refused = try ConfirmPassTests.ab(current: current, in: temp, name: "refused", extra: ["--accepted", broken])
    #expect(refused.status == 64 && refused.stdout.contains("accepted[0].metric"), "\(refused)")
    #expect(!FileManager.default.fileExists(atPath: temp.url.appendingPathComponent("refused").path))
    let result = try ConfirmPassTests.ab(
      current: current, in: temp, name: "ab-accepted", rounds: 6, confirmRounds: 0, extra: ["--accepted", accepted])
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.page.contains("the memory floor now copies each record"), "\(result.page)")
  }

  @Test("history check: the newest commit's accepted regression passes with its reason; a stale entry is named")
  func history() throws {
    let directory = try TemporaryDirectory()
    let db = directory.url.appendingPathComponent("h.sqlite").path
    let earlier = try HistoryDatabaseTests.runs(Array(repeating: 1.0, count: 10), in: directory)
    let newest = try HistoryDatabaseTests.runs([1.4], in: directory, offset: 10)
    #expect(try runStorebench(["history", "add", "--db", db] + earlier + newest).status == 0)
    #expect(try runStorebench(["history", "check", "--db", db]).status == 2)
    let accepted = try directory.file(
      "accepted.yaml",
      """
      accepted:
        - {commit: c00000010, workload: insert, metric: wall_s, direction: regression, reason: inserts now verify}
        - {commit: c00000009, workload: insert, metric: wall_s, direction: regression, reason: too early}
      """)
    let summary = directory.url.appendingPathComponent("summary.md").path
    let check = try runStorebench(["history", "check", "--db", db, "--accepted", accepted, "--summary", summary])
    #expect(check.status == 0, "\(check.stdout)")
    #expect(
      check.stdout.contains("accepted regression: ") && check.stdout.contains("(accepted[0]: inserts now verify)"))
    #expect(check.stdout.contains("Warning: accepted change accepted[1]"), "\(check.stdout)")
    let page = try String(contentsOfFile: summary, encoding: .utf8)
    #expect(page.contains("**Accepted**") && page.contains("inserts now verify"), "\(page)")
  }
}
