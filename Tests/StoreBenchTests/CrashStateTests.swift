import Foundation
import StoreBenchCore
import StoreBenchCrash
import StoreBenchPages
import Testing

/// The crash-state enumeration's planning and judging, on a hand-made layer log whose every state is worked out
/// here (no FUSE needed); PowerLossTests runs it on the real libraries.
@Suite("Enumerated crash states: persistence points, states, verdicts, the loss window and the unsynced report")
struct CrashStateTests {
  /// Two settled operations; then a write synced at 3 (batch 1 acknowledged at 120), a two-page write and a
  /// journal created (batch 2 at 150), a sync at 6 that makes the write durable but never the creation (batch 3 at
  /// 165). Names with `%XX` escapes: `db` and `db journal`.
  static let text = """
    # settled 2
    index\tkind\tnode\tdir\tdir2\tname\tname2\toffset\tlength\tpages\ttime_ns\tdurable_at
    0\tcreate\t2\t1\t0\tdb\t-\t0\t0\t0\t10\t0
    1\twrite\t2\t0\t0\t-\t-\t0\t100\t1\t20\t0
    2\twrite\t2\t0\t0\t-\t-\t100\t100\t1\t100\t3
    3\tsync-file\t2\t0\t0\t-\t-\t0\t0\t0\t110\t3
    4\twrite\t2\t0\t0\t-\t-\t200\t5000\t2\t130\t6
    5\tcreate\t3\t1\t0\tdb%20journal\t-\t0\t0\t0\t140\t-
    6\tsync-file\t2\t0\t0\t-\t-\t0\t0\t0\t160\t6

    """
  static let acknowledgements = [
    CrashAcknowledgement(batch: 0, time: 25), CrashAcknowledgement(batch: 1, time: 120),
    CrashAcknowledgement(batch: 2, time: 150), CrashAcknowledgement(batch: 3, time: 165),
  ]

  static func log() throws -> LayerLog { try LayerLog(text: text, source: "test.log") }

  static func report(_ complete: [Int]) -> CrashBatches.Report {
    CrashBatches.Report(
      opened: true, integrity: "ok", settings: "s", completeBatches: complete, partialBatches: [],
      foreignArticles: 0)
  }

  @Test("the layer's log reads back with names unescaped; a malformed line is refused with its line number")
  func readsTheLog() throws {
    let log = try Self.log()
    #expect(log.settled == 2 && log.operations.count == 7)
    #expect(log.operations[5].name == "db journal" && log.operations[5].durableAt == nil)
    #expect(log.paths()[5] == "db journal" && log.paths()[4] == "db")
    #expect(log.pending(atCut: 6) == [4, 5] && log.pending(atCut: 7) == [5])
    let broken = Self.text.replacingOccurrences(of: "4\twrite\t2", with: "4\twrite\tx")
    #expect(throws: HarnessError.self) { try LayerLog(text: broken, source: "test.log") }
    do {
      _ = try LayerLog(text: broken, source: "test.log")
    } catch {
      #expect("\(error)".contains("test.log:7"), "\(error)")
    }
    #expect(CrashAcknowledgement(line: "12 3456") == CrashAcknowledgement(batch: 12, time: 3456))
    #expect(CrashAcknowledgement(line: "{\"done\":{}}") == nil && CrashAcknowledgement(line: "12") == nil)
  }

  @Test("every persistence point gets its synced state and every prefix; identical images are checked once")
  func plansEveryState() throws {
    let plan = CrashStatePlan(log: try Self.log(), acknowledgements: Self.acknowledgements, seed: 1)
    #expect(plan.points.map(\.end) == [3, 4, 6, 7])
    #expect(plan.points[0].kinds == [.beforeSync])
    #expect(plan.points[1].kinds == [.afterSync, .acknowledgement])
    #expect(plan.points[2].kinds == [.beforeSync, .acknowledgement])
    #expect(plan.points[3].kinds == [.afterSync, .acknowledgement, .end])
    #expect(plan.points.map { $0.acknowledged.map(\.batch) } == [[], [1], [1, 2], [1, 2, 3]])
    #expect(plan.states.map(\.kind) == [.synced, .prefix, .synced, .synced, .prefix, .prefix, .synced, .prefix])
    #expect(plan.states.map(\.keep) == [0, 1, 0, 0, 1, 2, 0, 1])
    // {} · {2} · {2, 4} · {2, 4, 5}: four distinct images among eight states.
    #expect(plan.states.map(\.image) == [0, 1, 1, 1, 2, 3, 2, 3])
    #expect(
      plan.images == [
        .init(end: 3, keep: 0, tear: 0), .init(end: 3, keep: 1, tear: 0), .init(end: 6, keep: 1, tear: 0),
        .init(end: 6, keep: 2, tear: 0),
      ])
    // Torn writes: the two-page write pending at the point before the second sync, kept one page.
    let torn = CrashStatePlan(log: try Self.log(), acknowledgements: Self.acknowledgements, tear: true, seed: 1)
    #expect(torn.states.filter { $0.kind == .torn }.map { [$0.point, $0.keep, $0.tear] } == [[2, 0, 1]])
    #expect(torn.images.count == 5 && torn.images.last == .init(end: 6, keep: 0, tear: 1))
  }

  @Test("more pending operations than the bound: a seeded sample with the longest prefix, and the point says so")
  func samplesBeyondTheBound() throws {
    let plan = CrashStatePlan(log: try Self.log(), acknowledgements: Self.acknowledgements, bound: 1, seed: 1)
    let sampled = plan.points.filter(\.sampled).map(\.end)
    #expect(sampled == [6])
    #expect(plan.states.filter { $0.point == 2 && $0.kind == .prefix }.map(\.keep) == [2])
  }

  @Test(
    "each state is judged against the batches acknowledged before its own cut; the loss window is the oldest loss")
  func judgesStates() throws {
    let plan = CrashStatePlan(log: try Self.log(), acknowledgements: Self.acknowledgements, seed: 1)
    // {} keeps batch 0, {2} batch 1, {2, 4} batch 2; batch 3 wrote nothing this log kept.
    let verdicts = CrashStateVerdicts(
      plan: plan,
      reports: [Self.report([0]), Self.report([0, 1]), Self.report([0, 1, 2]), Self.report([0, 1, 2])])
    let synced = try #require(verdicts.tallies[.synced])
    #expect(synced.states == 4 && synced.lostStates == 2 && synced.lostBatches == [2, 3])
    // Batch 2 (acknowledged at 150) lost at the cut before the sync at 160: 10 ns old.
    #expect(synced.lossWindow == 10 && synced.lossDepth == 1)
    let prefix = try #require(verdicts.tallies[.prefix])
    #expect(prefix.states == 4 && prefix.lostStates == 1 && prefix.lostBatches == [3] && prefix.lossWindow == 0)
    #expect(verdicts.points == 4 && verdicts.images == 4 && verdicts.acknowledged == 3)
    #expect(synced.firstLoss?.hasPrefix("a cut after 6 operations (acknowledgement, before a sync)") == true)
  }

  @Test("what was still only in the page cache after each acknowledgement, and when it became durable")
  func reportsUnsyncedData() throws {
    let report = UnsyncedReport(log: try Self.log(), acknowledgements: Self.acknowledgements)
    #expect(report.acknowledgements == 3)
    #expect(report.items.count == 2)
    let write = try #require(report.items.first { $0.path == "db" })
    #expect(write.change == "written" && write.acknowledgements == 1 && write.bytes == 5000)
    #expect(write.longestDelay == 10 && !write.neverDurable)
    let journal = try #require(report.items.first { $0.path == "db journal" })
    #expect(journal.change == "created" && journal.acknowledgements == 2 && journal.neverDurable)
    #expect(
      report.lines.contains {
        $0.contains("`db journal` created: not durable after 2 of 3")
          && $0.hasSuffix("never made durable in the run")
      })
    // unsynced.csv reads back as what report.md and advice.md quote, beside a strategy that lost saves only.
    var row = DurabilityRow(backend: "sqlite", variant: "v", fault: .powerLoss, image: .synced)
    row.unsynced = report
    let evidence = try UnsyncedEvidence(csv: try UnsyncedReport.csv([row]), source: "unsynced.csv")
    #expect(evidence.items["sqlite [v]"]?.map(\.sentence) == report.lines)
    let enumerated = CrashResult.Counts.Enumerated(
      points: 4, lostStates: 1, lossWindowMilliseconds: 4, lossDepth: 1)
    let lossy = CrashResult(
      synced: .init(trials: 1, states: 4, acknowledged: 3, lost: 1, enumerated: enumerated))
    let clean = CrashResult(synced: .init(trials: 1, states: 4, acknowledged: 3, lost: 0, enumerated: .init()))
    let section = evidence.section(crashes: ["sqlite [v]": lossy]) { "label of \($0)" }
    #expect(section.first == "## What a power cut can take")
    #expect(
      section.contains {
        $0.hasPrefix("- **label of sqlite [v]**: synced states: lost saves in 1 of 4 synced states")
          && $0.contains("Not yet durable: `db` written (up to 4.9 KiB after one)")
      }, "\(section)")
    #expect(evidence.section(crashes: ["sqlite [v]": clean]) { $0 }.isEmpty)
    // Made durable by the next transaction's sync after most acknowledgements, by nothing after the last.
    let removal = UnsyncedEvidence.Item(
      path: "x.sqlite-journal", change: "removed", acknowledgements: 20, of: 20, maxBytes: 0,
      longestDelayMilliseconds: 3.25, neverDurable: true)
    #expect(
      removal.sentence
        == "`x.sqlite-journal` removed: not durable after 20 of 20 acknowledgements; durable at most 3.2 ms "
        + "later where a later sync came, never made durable in the run after the last acknowledgement")
    #expect(throws: (any Error).self) {
      try UnsyncedEvidence(csv: Data("backend,variant\nsqlite,v\n".utf8), source: "unsynced.csv")
    }
  }

  @Test(
    "enumerated evidence is counted in states: all of them when no point was sampled, losses by kind, the lint knows them"
  )
  func rendersStates() throws {
    let row = { (image: String, states: Int, lost: Int, lostStates: Int, window: String) in
      "sqlite,v,s,power-loss,\(image),1,\(states),20,\(lost),0,0,0,0,measured,,enumerated,137,0,96,\(lostStates),\(window),"
        + (window.isEmpty ? "" : "1") + ",\(lostStates)"
    }
    let header = DurabilityColumn.header.joined(separator: ",")
    let clean = try CrashResult.read(
      csv: [header, row("synced", 137, 0, 0, ""), row("prefix", 275, 0, 0, "")].joined(separator: "\n") + "\n")
    let summary = try #require(clean["sqlite [v]"]).powerLossSummary
    #expect(
      summary
        == "no loss in all 412 crash states (137 persistence points: 137 synced, 275 prefix; 20 batches acknowledged)",
      "\(summary)")
    let lossy = try CrashResult.read(
      csv: [header, row("synced", 137, 1, 19, "4.25"), row("prefix", 275, 0, 0, "")].joined(separator: "\n")
        + "\n")
    let lost = try #require(lossy["sqlite [v]"]).powerLossSummary
    #expect(
      lost.hasPrefix(
        "synced states: lost saves in 19 of 137 synced states (only the newest save each, the oldest loss 4.2 ms after its acknowledgement; lost 1 of 20 acknowledged batches across them)"
      ), "\(lost)")
    #expect(lost.contains("prefix states: no acknowledged batch lost in 275 prefix states"), "\(lost)")
    #expect(throws: (any Error).self) {
      try CrashResult.read(csv: [header, row("synced", 137, 1, 19, "soon")].joined(separator: "\n") + "\n")
    }
    // The claims lint checks state counts against the crash results beside the page.
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let csv = [header, row("synced", 137, 1, 19, "4.25"), row("prefix", 275, 0, 0, "")].joined(separator: "\n")
    _ = try temp.file("durability.csv", csv + "\n")
    let page = temp.url.appendingPathComponent("report.md")
    let claim = "- may lose data (measured: power cut: \(lost))\n"
    #expect(ClaimsLint.lint(page: claim, at: page, name: "report.md").isEmpty, "\(claim)")
    let wrong = claim.replacingOccurrences(of: "of 137 synced states", with: "of 138 synced states")
    #expect(ClaimsLint.lint(page: wrong, at: page, name: "report.md").map(\.rule).contains(.durabilityCSV))
  }
}
