import Foundation
import Testing

@testable import StoreBenchAnalysis
@testable import StoreBenchFormats
@testable import StoreBenchStatistics

/// The signed-rank test and Hodges–Lehmann interval of `ab`'s paired rounds, against SciPy 1.17.1
/// (`scipy.stats.wilcoxon`) and a brute-force enumeration of all 2¹² sign assignments (the values in comments).
@Suite("Signed-rank test and Hodges–Lehmann interval")
struct SignedRankTests {
  static let x = [0.31, -0.05, 0.22, 0.41, 0.08, 0.19, -0.12, 0.27, 0.35, 0.02, 0.15, 0.44]

  @Test("exact null distribution: P(T+ <= 0) = 1/4096 and P(T+ <= 10) = 43/4096 for n = 12")
  func nullDistribution() {
    #expect(abs(SignedRank.cdf(0, n: 12) - 0.000244140625) < 1e-15)
    #expect(abs(SignedRank.cdf(10, n: 12) - 0.010498046875) < 1e-15)
    #expect(SignedRank.nullCounts(n: 12).reduce(0, +) == 4096)
  }

  @Test("p-values match scipy.stats.wilcoxon: exact (n = 12) and normal approximation (n = 60)")
  func pValues() {
    #expect(abs(SignedRank.pValue(Self.x) - 0.0068359375) < 1e-12)
    let y = (0..<60).map { (i: Int) -> Double in
      let t = Double(i)
      let value: Double = 0.1 + 0.3 * sin(t * 1.7) + 0.05 * cos(t * 0.3)
      return (value * 1e6).rounded() / 1e6
    }
    #expect(abs(SignedRank.pValue(y) - 0.0020899006722749787) < 1e-9)
    #expect(SignedRank.pValue([0, 0, 0]) == 1)
  }

  @Test("interval: the Walsh averages of rank k and N+1-k (k = 14 at 95%, 8 at 99%), estimate their median")
  func interval() throws {
    let wide = try #require(SignedRank.interval(Self.x, alpha: 0.05))
    #expect(abs(wide.low - 0.07) < 1e-12 && abs(wide.high - 0.315) < 1e-12 && abs(wide.estimate - 0.1925) < 1e-12)
    let narrow = try #require(SignedRank.interval(Self.x, alpha: 0.01))
    #expect(abs(narrow.low - 0.015) < 1e-12 && abs(narrow.high - 0.355) < 1e-12)
    #expect(
      SignedRank.interval([0.1, 0.2, 0.3, 0.4, 0.5], alpha: 0.05) == nil,
      "n = 5 has no 95% interval (1/32 > 0.025)")
    #expect(SignedRank.interval([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], alpha: 0.05) != nil)
  }

  @Test(
    "coverage: 2,000 seeded samples of 15 heavy-tailed values, the 95% interval covers the centre at least 94% of the time"
  )
  func coverage() {
    var generator = SeededGenerator(seed: 11)
    var covered = 0
    for _ in 0..<2000 {
      // Laplace noise around 0.2: symmetric and heavier-tailed than normal, like a VM's paired log ratios.
      let sample = (0..<15).map { _ -> Double in
        let u = Double.random(in: -0.5..<0.5, using: &generator)
        return 0.2 - 0.15 * (u < 0 ? -1 : 1) * log(1 - 2 * abs(u))
      }
      if let interval = SignedRank.interval(sample, alpha: 0.05), interval.low <= 0.2, 0.2 <= interval.high {
        covered += 1
      }
    }
    #expect(covered >= 1880, "\(covered) of 2000")
  }
}

/// SplitMix64 as a `RandomNumberGenerator`, so the simulation is the same on every run.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
