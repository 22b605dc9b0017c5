import Foundation
import StoreBenchCommands
import StoreBenchCore
import StoreBenchPages
import Testing

@Suite("Claims by construction: the one vocabulary, its renderer and the lint over every page")
struct ClaimsTests {
  @Test("a ratio's verdict comes from its interval and the tie margin, printed with the digits it needs")
  func ratios() {
    let margin = TieMargin.standard
    #expect(margin.verdict(low: 1.02, high: 1.08) == .equivalent)
    #expect(margin.verdict(low: 0.95, high: 1.05) == .equivalent)
    #expect(margin.verdict(low: 1.05, high: 1.42) == .slower)
    #expect(margin.verdict(low: 0.5, high: 0.8) == .faster)
    #expect(margin.verdict(low: 0.9, high: 1.3) == .indistinguishable)
    // A bound just above 1 is never printed as 1.00 beside "slower".
    let close = RatioClaim(ratio: 1.26, interval: 1.0004...1.42, counts: (10, 10), minimumCount: 6)
    #expect(close.verdict == .slower)
    #expect(close.text == "1.2600× [1.0004–1.4200] slower", "\(close.text)")
    #expect(
      RatioClaim(ratio: 1.26, interval: 1.08...1.42, counts: (10, 10), minimumCount: 6).text
        == "1.26× [1.08–1.42] slower")
    // Too few repetitions on either side: no interval, no verdict.
    let few = RatioClaim(ratio: 1.26, interval: 1.08...1.42, counts: (10, 5), minimumCount: 6)
    #expect(few.verdict == nil && few.text == "1.26× (too few repetitions to tell)")
  }

  @Test("a time's interval needs the first look's repetitions and a width; fewer or none print the median and n")
  func times() {
    #expect(
      MedianClaim(median: 0.0892, interval: 0.0806...0.1101, count: 17, minimumCount: 8).text
        == "89.2 ms [80.6–110.1 ms, n=17]")
    #expect(
      MedianClaim(median: 0.0892, interval: 0.0806...0.1101, count: 6, minimumCount: 8).text
        == "89.2 ms (n=6, no interval)")
    #expect(
      MedianClaim(median: 0.0892, interval: 0.0892...0.0892, count: 20, minimumCount: 8).text
        == "89.2 ms (n=20, no interval)")
    // Ends that would print equal get another digit.
    #expect(
      MedianClaim(median: 0.08921, interval: 0.08920...0.08924, count: 20, minimumCount: 8).text
        == "89.21 ms [89.20–89.24 ms, n=20]")
  }

  @Test("zero losses in n crash states bound the per-state loss rate at 1 − 0.05^(1/n): 31.2% from 8, 5.8% from 50")
  func bounds() {
    #expect(CrashEvidence.percent(CrashEvidence.bound(cleanStates: 8)) == "31.2%")
    #expect(CrashEvidence.percent(CrashEvidence.bound(cleanStates: 50)) == "5.8%")
    let kill = CrashResult.Counts(trials: 8, acknowledged: 396, lost: 0, corrupt: 0)
    #expect(
      CrashEvidence.kill(kill) == "no loss in 8 kills (396 batches acknowledged; ≤ 31.2% per kill, one-sided 95%)"
    )
    let synced = CrashResult.Counts(trials: 50, acknowledged: 823, lost: 316, corrupt: 0, losingStates: 41)
    let prefix = CrashResult.Counts(trials: 50, states: 150, acknowledged: 2469, lost: 0, corrupt: 92)
    #expect(
      CrashEvidence.powerCut(synced: synced, prefix: prefix)
        == "synced image lost saves in 41 of 50 cuts (lost 316 of 823 acknowledged batches); prefix images lost saves in 92 of 150 images of 50 cuts (no acknowledged batch among them; 92 of 150 images unreadable or damaged, each losing every save it held)",
      "unreadable images are losses, counted in images (150), not cuts (50)")
    // A file written before losing states were counted gives only the least count, and says so.
    let old = CrashResult.Counts(trials: 50, acknowledged: 823, lost: 316, corrupt: 3)
    #expect(
      CrashEvidence.kill(old)
        == "lost saves in at least 3 of 50 kills (lost 316 of 823 acknowledged batches; 3 of 50 stores unreadable or damaged, each losing every save it held)"
    )
    #expect(
      CrashEvidence.briefKill(old) == "lost saves in at least 3 of 50 kills (316 batches, 3 stores unreadable)")
  }

  /// A package-like folder: a README, one run folder with an environment and crash results.
  func plantedRoot() throws -> TemporaryDirectory {
    let temp = try TemporaryDirectory()
    let run = temp.url.appendingPathComponent("results/run")
    try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
    try Data(
      #"{"storebench_version":"0.1.0","scenario_name":"quick","scenario_hash":"x","started_at":"2026-11-25T01:00:00Z","finished_at":"2026-11-25T01:02:31Z"}"#
        .utf8
    )
    .write(to: run.appendingPathComponent("environment.json"))
    try Data(
      """
      backend,variant,settings,fault,image,trials,images,acked_batches,lost_batches,partial_batches,corrupt_opens,unrecoverable,retries,status,detail\r
      a,default,,kill,live,50,50,900,0,0,0,0,0,measured,\r
      a,default,,power-loss,synced,50,50,800,12,0,0,0,0,measured,\r
      a,default,,power-loss,prefix,50,150,2400,0,0,0,0,0,measured,\r
      b,txn=x,,kill,live,20,20,400,3,0,0,0,0,measured,\r

      """.utf8
    ).write(to: run.appendingPathComponent("durability.csv"))
    try Data("// swift-tools-version:6.0\n".utf8).write(to: temp.url.appendingPathComponent("Package.swift"))
    return temp
  }

  @Test("the lint catches one planted violation of each class, and passes the same page without them")
  func plantedViolations() throws {
    let temp = try plantedRoot()
    let page = temp.url.appendingPathComponent("results/run/report.md")
    let clean = """
      <!-- storebench claims: tie-margin=0.1 minimum-repetitions=8 -->
      - a: 1.26× [1.08–1.42] slower; b: 1.02× [0.95–1.05] equivalent; c: 1.10× [0.90–1.30] indistinguishable
      - a time: 89.2 ms [80.6–110.1 ms, n=17]
      - survives a killed app (measured: killed app: no loss in 50 kills (900 batches acknowledged; ≤ 5.8% per kill, one-sided 95%); power cut: synced image lost 12 of 800 acknowledged batches in 50 cuts)
      - [the environment](environment.json); quick took 2 min 31 s ([run](../run/))

      """
    #expect(
      ClaimsLint.lint(page: clean, at: page, name: "report.md").isEmpty,
      "\(ClaimsLint.lint(page: clean, at: page, name: "report.md"))")
    let planted: [(ClaimsLint.Rule, String)] = [
      (.verdict, "- 1.26× [1.00–1.42] slower"),
      (.verdict, "- 1.26× [1.08–1.42] equivalent"),
      (.fewRepetitions, "- 89.2 ms [80.6–110.1 ms, n=5]"),
      (.zeroWidth, "- 89.2 ms [89.2–89.2 ms, n=12]"),
      (.durabilityEvidence, "- survives power loss, measured"),
      (.durabilityEvidence, "- survives power loss (measured: 0 of 3,200 lost)"),
      (.durabilityEvidence, "- no loss in 8 kills (≤ 5.8% per kill)"),
      // "No loss" from fewer trials than the first look is no verdict, however its bound is printed.
      (.durabilityEvidence, "- no loss in 4 kills (≤ 52.7% per kill)"),
      (
        .durabilityCSV,
        "- survives power loss (measured: power cut: no loss in 50 cuts (50 synced and 50 prefix images; 3,200 batches acknowledged; ≤ 5.8% per cut, one-sided 95%))"
      ),
      (.durabilityCSV, "- synced image lost 12 of 900 acknowledged batches in 50 cuts"),
      // Destroyed stores are losses: a losing count below the damaged count contradicts itself.
      (
        .durabilityEvidence,
        "- lost saves in 124 of 254 prefix states (lost 19 of 20 acknowledged batches across them; 131 of them unreadable or damaged)"
      ),
      (.link, "- [gone](power-loss/)"),
      (.runTime, "- quick took 44 s ([run](../run/))"),
      (.runTime, "- `scenarios/quick.yaml` takes about 44 s"),
    ]
    for (rule, line) in planted {
      let findings = ClaimsLint.lint(page: clean + line + "\n", at: page, name: "report.md")
      #expect(findings.map(\.rule).contains(rule), "\(rule.rawValue) not caught in \(line): \(findings)")
    }
    let readme = temp.url.appendingPathComponent("README.md")
    let long = String(repeating: "line\n", count: ClaimsLint.readmeLimit + 1)
    #expect(ClaimsLint.lint(page: long, at: readme, name: "README.md").map(\.rule) == [.readmeLength])
    #expect(
      ClaimsLint.lint(
        page: String(repeating: "line\n", count: ClaimsLint.readmeLimit), at: readme, name: "README.md"
      ).isEmpty)
    // Within the lines, over the characters: 150 lines of 118 characters; and one hand-written line too wide, while a
    // table row and a generated block's line of that width are not.
    let dense = String(repeating: String(repeating: "w", count: 117) + "\n", count: 150)
    #expect(ClaimsLint.lint(page: dense, at: readme, name: "README.md").map(\.rule) == [.readmeLength])
    let wide = String(repeating: "x", count: ClaimsLint.readmeWidth + 1)
    let widths = ClaimsLint.lint(
      page: "short\n\(wide)\n| \(wide) |\n<!-- generated:facts run=r -->\n\(wide)\n<!-- end generated -->\n",
      at: readme, name: "README.md"
    ).filter { $0.rule == .readmeLength }
    #expect(widths.map(\.line) == [2], "\(widths)")
    // figure and generated are planted by figuresAreRederived.
    #expect(
      Set(planted.map(\.0) + [.readmeLength, .figure, .generated]) == Set(ClaimsLint.Rule.allCases),
      "every class is planted")
  }

  @Test(
    "the lint re-derives figures: a strategy's durability line with another's count, a prose time beside a run, a time in a hand-written table, a bound figure its run does not give, a stale block"
  )
  func figuresAreRederived() throws {
    let temp = try plantedRoot()
    let smoke = temp.url.appendingPathComponent("results/smoke")
    try FileManager.default.copyItem(
      at: packageRoot.appendingPathComponent("Tests/Fixtures/smoke-run"), to: smoke)
    let readme = temp.url.appendingPathComponent("README.md")
    let evidence = "<!-- storebench evidence: results/run -->\n"
    func findings(_ line: String) -> [ClaimsLint.Rule] {
      // The README's own budget (its line width) is not what these lines test.
      ClaimsLint.lint(page: evidence + line + "\n", at: readme, name: "README.md").map(\.rule).filter {
        $0 != .readmeLength
      }
    }
    // Bound, and right: the marker's row gives 287 µs.
    let bound =
      #"- sqlite's single-transaction insert took <!-- figure run=results/smoke workload=insert strategy="sqlite [txn=single journal=wal]" column=median_s -->287 µs a record ([run](results/smoke/))"#
    #expect(findings(bound).isEmpty, "\(findings(bound))")
    let own =
      "- b [txn=x] may lose data when the app is killed (measured: lost saves in at least 1 of 20 kills (lost 3 of 400 acknowledged batches))"
    #expect(findings(own).isEmpty, "\(findings(own))")
    let planted: [(ClaimsLint.Rule, String)] = [
      // b was killed 20 times: 50 kills are a's count, not b's.
      (.durabilityCSV, "- b [txn=x] survives a killed app (measured: no loss in 50 kills (≤ 5.8% per kill))"),
      // A changed prose time beside its run, bound or not.
      (.figure, bound.replacingOccurrences(of: "-->287 µs", with: "-->281 µs")),
      (.figure, "- sqlite's single-transaction insert took 281 µs a record ([run](results/smoke/))"),
      // A time in a hand-written table.
      (.figure, "| sqlite [txn=single] | 281 µs |"),
      (.figure, bound.replacingOccurrences(of: "workload=insert", with: "workload=nothing")),
    ]
    for (rule, line) in planted {
      #expect(findings(line).contains(rule), "\(rule.rawValue) not caught in \(line): \(findings(line))")
    }
    // A page storebench rendered whole says so on its first line and is rendered again from its run, wherever it
    // lies; a hand-written page is held to binding its figures wherever it lies, under results/ too.
    let unbound = "- sqlite's single-transaction insert took 281 µs a record ([run](results/smoke/))"
    let anywhere = temp.url.appendingPathComponent("results/run/notes.md")
    #expect(
      !ClaimsLint.lint(
        page: ClaimSyntax.renderedMarker("report") + "\n" + unbound + "\n", at: anywhere,
        name: "answers/report.md"
      ).map(\.rule).contains(.figure))
    #expect(
      ClaimsLint.lint(page: unbound + "\n", at: anywhere, name: "results/run/notes.md").map(\.rule).contains(
        .figure))
    // A setting in code is no measurement; a run time with its run's link is the run-time rule's.
    #expect(findings("| sqlite | `busy_timeout` `10 s` | quick took 2 min 31 s ([run](results/run/)) |").isEmpty)
    // A changed number inside a generated block: StoreBenchPages lint-claims renders every block again.
    let original = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let copy = try TemporaryDirectory()
    for name in ["README.md", "docs", "results"] {
      try FileManager.default.createSymbolicLink(
        at: copy.url.appendingPathComponent(name == "README.md" ? "README.original.md" : name),
        withDestinationURL: packageRoot.appendingPathComponent(name))
    }
    let changed = original.replacingOccurrences(of: "(n=3, no interval)", with: "(n=4, no interval)")
    #expect(changed != original)
    try Data(changed.utf8).write(to: copy.url.appendingPathComponent("README.md"))
    let result = try runPageTool(["lint-claims", copy.url.path])
    #expect(result.status == 1 && result.stdout.contains("[generated] generated:seed-table"), "\(result.stdout)")
  }

  @Test(
    "how the committed default run's rows stopped is counted from its summary, and the pages' method words say what the code does"
  )
  func methodSentencesAreTrue() throws {
    let example = packageRoot.appendingPathComponent("results/example")
    let folder = try RunFolder(example.path)
    let method = RunMethod(summary: folder.summary.cells)
    // An independent count of summary.csv, cell by cell.
    let text = try String(contentsOf: example.appendingPathComponent("summary.csv"), encoding: .utf8)
    let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    let header = lines[0].map(String.init)
    let stopped = try #require(header.firstIndex(of: "stopped"))
    let low = try #require(header.firstIndex(of: "median_ci95_low_s"))
    var counts: [String: Int] = [:]
    var intervals = 0
    for row in folder.summary.rows {
      counts[row[stopped], default: 0] += 1
      if !row[low].isEmpty { intervals += 1 }
    }
    #expect(
      method.stopped == counts && method.rows == folder.summary.rows.count && method.withInterval == intervals)
    #expect(method.sentence.contains("\(method.precise) reached the target of ±5%"), "\(method.sentence)")
    // The README renders that sentence from the run, and says no sentence of its own about rows reaching ±5%.
    let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(readme.contains("<!-- generated:method run=results/example -->\n" + method.sentence + "\n"))
    #expect(!readme.contains("Each row stops at a fixed look once"))
    // "slower" is what TieMargin.verdict does: wholly above 1, its low end possibly inside the margin.
    #expect(TieMargin.standard.verdict(low: 1.01, high: 1.26) == .slower)
    #expect(
      readme.contains(
        "lies wholly above 1 (the difference is shown; its low end may still lie inside the ±10% tie margin)"))
    let measuring = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/MEASURING.md"), encoding: .utf8)
    #expect(
      measuring.contains("the interval lies wholly below / above 1 — the difference is shown — and not wholly"))
    // "cheapest": the README names the durability-preferring pick among ties, as Advice's judge makes it.
    #expect(
      readme.contains(
        "(among those whose cost cannot be told from the cheapest's, the strongest durability class)"
      ))
  }

  @Test("every committed page passes the claims lint (StoreBenchPages lint-claims, as scripts/test runs it)")
  func committedPages() throws {
    let result = try runPageTool(["lint-claims", packageRoot.path])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }

  @Test("the product has no command that checks or renders this repository's pages (the page tool does)")
  func pageToolingOutOfTheProduct() throws {
    let names = StoreBench.configuration.subcommands.compactMap { $0.configuration.commandName }
    #expect(names.contains("report") && !names.contains("lint-claims") && !names.contains("render-blocks"))
    for command in ["lint-claims", "render-blocks"] {
      #expect(try runStorebench([command, packageRoot.path]).status == StoreBenchExit.badInput.rawValue)
    }
    for command in ["lint-claims", "render-blocks"] {
      #expect(try runPageTool([command, "/nonexistent"]).status == StoreBenchExit.badInput.rawValue)
    }
  }
}
