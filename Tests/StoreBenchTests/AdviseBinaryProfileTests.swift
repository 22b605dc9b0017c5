import Foundation
import StoreBenchCore
import Testing

/// advise as a user meets it, on profiles nobody shipped: the real binary, the real probe, stores and schedule, at
/// small scale (hundreds of records, SQLite and the memory floor, seconds a profile). Whatever the profile, the
/// command ends in one of three ways, each with its evidence: a recommendation resting on the first look (8
/// repetitions) of every operation of every contender; "not measured", before measuring, with the `run_seconds` it
/// needs; or an answer that names what is open. And a profile whose probe says it fits is answered.
@Suite("advise on any profile, the real binary", .serialized)
struct AdviseBinaryProfileTests {
  static let operations = ["launch", "save", "edit", "search", "setting", "cache", "mark_read"]
  static let candidates = [
    "sqlite[txn=single,journal=wal,sync=normal]", "sqlite[txn=single,journal=delete,sync=full]",
    "sqlite[txn=none,journal=wal,sync=normal]", "memory",
  ]

  /// A random small profile: 100–1,000 records, 1 to 4 operations, budgets 1 ms–1 s, every need, 30–90 s.
  static func profile(_ rng: inout SplitMix64) -> String {
    func uniform() -> Double { Double(rng.next() % 1_000_000) / 1e6 }
    let records = 100 + Int(rng.next() % 900)
    let chosen = operations.shuffled(using: &rng).prefix(1 + Int(rng.next() % 4))
    var perDay: [String] = []
    var budgets: [String] = []
    for operation in chosen {
      perDay.append("  \(operation): \(1 + Int(rng.next() % 500))")
      if uniform() < 0.8 {
        let ms = exp(uniform() * log(1_000.0))
        let percentile = ["p50", "p90", "p99"][Int(rng.next() % 3)]
        budgets.append("  \(operation): {ms: \(String(format: "%.3f", ms)), percentile: \(percentile)}")
      }
    }
    let saves = chosen.contains("save") || chosen.contains("edit")
    let needs = ["kill", "power-loss"] + (saves ? ["{survive: power-loss, loss_window_ms: 1000}"] : [])
    return """
      name: generated
      data: {records: \(records), settings: \(10 + Int(rng.next() % 200)), cache_keys: 200}
      per_day:
      \(perDay.joined(separator: "\n"))
      \(budgets.isEmpty ? "" : "budgets:\n" + budgets.joined(separator: "\n"))
      durability: \(needs[Int(rng.next() % UInt64(needs.count))])
      candidates: [\(candidates.map { "\"\($0)\"" }.joined(separator: ", "))]
      run_seconds: \(30 + Int(rng.next() % 61))
      """
  }

  @Test(
    "generated profiles through the binary: a recommendation from ≥ 8 repetitions of every contender's every operation, a refusal with a number before measuring, or an answer saying what is open; a profile the probe says fits is answered"
  )
  func generatedProfilesThroughTheBinary() throws {
    var rng = SplitMix64(seed: 6_000)
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    var outcomes: [String: Int] = [:]
    for trial in 0..<8 {
      let text = Self.profile(&rng)
      let file = try temp.file("profile-\(trial).yaml", text)
      let out = temp.url.appendingPathComponent("advice-\(trial)")
      let result = try runStorebench([
        "advise", "--profile", file, "--out", out.path, "--no-crash", "--workdir", temp.url.path,
      ])
      let context = "trial \(trial) (exit \(result.status)):\n\(text)\n\(result.stderr.suffix(2_000))"
      try #require([0, 6, 7].contains(result.status), "\(context)")
      if result.stderr.contains("no candidate can meet the need") {
        // Every candidate declares less than the need: the answer without measuring, each one's reason.
        #expect(result.status == 6, "\(context)")
        #expect(result.stderr.contains("short of the need"), "\(context)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "\(context)")
        outcomes["none can meet the need", default: 0] += 1
        continue
      }
      if result.stderr.contains("not measured: the budget does not buy an answer") {
        // Refused up front: with the budget it needs, and nothing measured.
        #expect(result.status == 7, "\(context)")
        #expect(
          result.stderr.range(of: #"Raise run_seconds to at least \d+"#, options: .regularExpression) != nil)
        #expect(!FileManager.default.fileExists(atPath: out.path), "\(context)")
        outcomes["refused", default: 0] += 1
        continue
      }
      // The probe said it fits: a full answer, never "no answer yet".
      #expect(result.stderr.contains(": it fits."), "\(context)")
      #expect(result.status != 7, "a plan the probe said fits got no answer: \(context)")
      let data = try Data(contentsOf: out.appendingPathComponent("advice.json"))
      let advice = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      let strategies = try #require(advice["strategies"] as? [[String: Any]])
      if result.status == 0 {
        #expect(advice["recommendation"] is [String: Any], "\(context)")
        let contenders = strategies.filter {
          ["recommended", "tied", "costlier", "candidate"].contains($0["verdict"] as? String ?? "")
        }
        #expect(!contenders.isEmpty, "\(context)")
        for strategy in contenders {
          for operation in strategy["operations"] as? [[String: Any]] ?? [] {
            let n = operation["repetitions"] as? Int ?? 0
            let label =
              "\(strategy["backend"] ?? "") \(strategy["variant"] ?? ""): \(operation["operation"] ?? "")"
            #expect(n >= 8, "\(context)\n\(label) n=\(n)")
          }
        }
        outcomes["recommended", default: 0] += 1
      } else {
        // No strategy meets everything: each says why.
        #expect(advice["recommendation"] == nil || advice["recommendation"] is NSNull, "\(context)")
        for strategy in strategies {
          #expect(!(strategy["reason"] as? String ?? "").isEmpty, "\(context)")
        }
        outcomes["no strategy", default: 0] += 1
      }
    }
    print("advise on generated profiles through the binary: \(outcomes)")
    // A test that always refuses fails.
    #expect((outcomes["recommended"] ?? 0) + (outcomes["no strategy"] ?? 0) >= 2, "\(outcomes)")
  }
}
