import Foundation
import Testing

@testable import StoreBenchCore

/// `ab`'s confirm pass through the binary: a row the first pass flags is re-run alone for fresh rounds, and alarms
/// only when those confirm it.
@Suite("Confirm before alarm")
struct ConfirmPassTests {
  /// A "current binary": storebench with the test slowdown planted in every round (`always`), or only in the first
  /// pass's rounds (the confirm pass runs with `--filter`).
  static func slowedBinary(in temp: TemporaryDirectory, always: Bool) throws -> String {
    let binary = try storebenchBinary().path
    let plant = "export STOREBENCH_TEST_SLOWDOWN=memory:3"
    let script = try temp.file(
      always ? "always.sh" : "first-pass-only.sh",
      """
      #!/bin/sh
      \(always ? plant : "case \" $* \" in *\" --filter \"*) ;; *) \(plant) ;; esac")
      exec '\(binary)' "$@"

      """)
    chmod(script, 0o755)
    return script
  }

  /// `ab` of storebench against `current` on one memory insert row, judged on wall time, with its summary page.
  static func ab(
    current: String, in temp: TemporaryDirectory, name: String, rounds: Int = 8, confirmRounds: Int = 8,
    extra: [String] = []
  ) throws -> (status: Int32, stdout: String, page: String) {
    let scenario = try temp.file(
      "\(name).yaml",
      """
      name: confirm
      backends: [{backend: memory}]
      workloads: [{workload: insert, parameters: {count: 200}}]
      """)
    let summary = temp.url.appendingPathComponent("\(name)-summary.md").path
    let result = try runStorebench(
      [
        "ab", "--baseline-binary", try storebenchBinary().path, "--current-binary", current, "--scenario", scenario,
        "--rounds", String(rounds), "--confirm-rounds", String(confirmRounds), "--out",
        temp.url.appendingPathComponent(name).path, "--workdir", temp.url.path, "--metric", "wall_s", "--summary",
        summary,
      ] + extra)
    let page = (try? String(contentsOfFile: summary, encoding: .utf8)) ?? ""
    return (result.status, result.stdout + result.stderr, page)
  }

  @Test("a row slower in every round is flagged, re-run alone and confirmed: the gate exits 2 and says so")
  func confirmed() throws {
    let temp = try TemporaryDirectory()
    let result = try Self.ab(current: try Self.slowedBinary(in: temp, always: true), in: temp, name: "always")
    #expect(result.status == 2, "\(result.stdout)")
    #expect(result.page.contains("1 flagged finding(s) confirmed on fresh rounds, 0 cleared"), "\(result.page)")
    #expect(result.page.contains("| confirmed | insert | memory |"), "\(result.page)")
    // The confirm rounds ran with the row's filter, and their samples are kept.
    let confirm = try SampleTable(path: temp.url.appendingPathComponent("always/confirm/current").path)
    #expect(Set(confirm.rows.map(\.repetition)) == Set(1...8))
  }

  @Test("a row slower only in the first pass is flagged, then cleared by the fresh rounds: the gate passes")
  func cleared() throws {
    let temp = try TemporaryDirectory()
    let result = try Self.ab(current: try Self.slowedBinary(in: temp, always: false), in: temp, name: "once")
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.page.contains("0 flagged finding(s) confirmed on fresh rounds, 1 cleared"), "\(result.page)")
    #expect(result.page.contains("| cleared | insert | memory |"), "\(result.page)")
    #expect(result.stdout.contains("cleared on 8 fresh rounds"))
  }
}
