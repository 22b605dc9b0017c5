import Foundation
import StoreBenchCore
import Testing

@testable import StoreBenchAnalysis

/// `compare --count-tolerance`: a stated tolerance for a count that moves between identical runs more than the
/// exact ±1%, parsed strictly, applied only to the rows and metric it names, and named in the finding.
@Suite("Count tolerances")
struct CountToleranceTests {
  /// A lookup row of `backend` (plist's is its binary format).
  static func key(_ backend: String) -> ComparisonKey {
    ComparisonKey(
      RowKey(
        scenario: "s", workload: "lookup", backend: backend, variant: backend == "plist" ? "format=binary" : "default",
        size: 100, parameters: "count=100"))
  }

  /// Compare's verdict on one count per side of instructions per operation.
  static func judge(_ backend: String, _ before: Double, _ after: Double, _ options: Comparison.Options) throws
    -> Comparison.Finding
  {
    Comparison.judge(
      key: key(backend), metric: try #require(Comparison.Metric.named("instructions_per_op", in: .standard)),
      baseline: [before], current: [after], options: options, drift: nil, pairs: nil, tests: 1)
  }

  @Test("ROWS:METRIC=PERCENT parses, a variant's '=' and ':' included; anything else is refused")
  func parsing() throws {
    let plain = try #require(CountTolerance(parsing: "plist[format=binary*]:instructions_per_op=8%"))
    #expect(plain == CountTolerance(rows: "plist[format=binary*]", metric: "instructions_per_op", fraction: 0.08))
    #expect(plain.description == "plist[format=binary*]:instructions_per_op=8%")
    #expect(CountTolerance(parsing: "a[x=1:y]:allocations_per_op=0.05")?.rows == "a[x=1:y]")
    #expect(CountTolerance(parsing: "a[x=1:y]:allocations_per_op=0.05")?.fraction == 0.05)
    for bad in [
      "", "plist", "plist=8%", ":instructions_per_op=8%", "plist:=8%", "plist:instructions_per_op=",
      "plist:instructions_per_op=-1%", "plist:instructions_per_op=100%", "plist:instructions_per_op=1.5",
      "plist:instructions_per_op=nan", "plist:instructions_per_op=eight",
    ] {
      #expect(CountTolerance(parsing: bad) == nil, "\(bad)")
    }
  }

  @Test("a stated tolerance widens only its rows' metric: +5% on plist is unchanged at 8%, +5% on sqlite regressed")
  func judged() throws {
    var options = Comparison.Options()
    for backend in ["plist", "sqlite"] {
      let exact = try Self.judge(backend, 10_000, 10_500, options)
      #expect(exact.verdict == .regression && exact.method == "counted exactly (instructions pass)")
    }
    options.countTolerances = [
      CountTolerance(rows: "plist[format=binary*]", metric: "instructions_per_op", fraction: 0.08),
      // Another metric's tolerance does not widen this one.
      CountTolerance(rows: "sqlite", metric: "allocations_per_op", fraction: 0.5),
    ]
    let plist = try Self.judge("plist", 10_000, 10_500, options)
    #expect(plist.verdict == .unchanged)
    #expect(plist.method == "counted exactly (instructions pass), ±8% stated for plist[format=binary*]")
    let sqlite = try Self.judge("sqlite", 10_000, 10_500, options)
    #expect(sqlite.verdict == .regression && sqlite.method == "counted exactly (instructions pass)")
    // Beyond the stated tolerance it is a regression again (or an improvement), the tolerance named.
    #expect(try Self.judge("plist", 10_000, 10_900, options).verdict == .regression)
    #expect(try Self.judge("plist", 10_000, 9_100, options).verdict == .improvement)
    #expect(try Self.judge("sqlite", 10_000, 10_050, options).verdict == .unchanged)
    // The report's heading states the tolerances it judged with.
    let empty = Comparison(
      baseline: try table(syntheticSamples(mean: 1, repetitions: 3, seed: 1)),
      current: try table(syntheticSamples(mean: 1, repetitions: 3, seed: 2)), options: options)
    #expect(CompareReport.markdown(empty, options: options).contains("stated count tolerances: plist[format=binary*]"))
  }

  @Test("compare refuses a malformed tolerance and one for a metric that is not a count, naming it")
  func refused() throws {
    for (argument, said) in [
      ("plist:instructions_per_op", "expected ROWS:METRIC=PERCENT"),
      ("plist:wall_s=5%", "'wall_s' is not a counted metric"),
    ] {
      let result = try runStorebench(["compare", "a", "b", "--count-tolerance", argument])
      #expect(result.status != 0)
      #expect(result.stderr.contains(said), "\(result.stderr)")
    }
  }
}
