import Foundation
import Testing

@testable import StoreBenchBackends

/// The record decoder's UTF-8 check against the standard library's, which it replaces on the hot path.
@Suite("UTF-8 validation of stored texts")
struct UTF8ValidationTests {
  /// The standard library's verdict: nil when not UTF-8, else whether all ASCII.
  static func reference(_ bytes: [UInt8]) -> Bool? {
    guard String(validating: bytes, as: UTF8.self) != nil else { return nil }
    return bytes.allSatisfy { $0 < 0x80 }
  }

  static func verdict(_ bytes: [UInt8]) -> Bool? {
    bytes.withUnsafeBytes { UTF8Validation.isASCII(ifValid: $0) }
  }

  @Test(
    "every sequence of one to three bytes, and every four-byte lead with its second byte, as the standard library")
  func exhaustive() {
    var mismatches: [[UInt8]] = []
    func compare(_ bytes: [UInt8]) {
      if Self.verdict(bytes) != Self.reference(bytes), mismatches.count < 10 { mismatches.append(bytes) }
    }
    for a in 0...255 {
      compare([UInt8(a)])
      for b in 0...255 {
        compare([UInt8(a), UInt8(b)])
        // Third bytes: every class boundary (ASCII, the continuation range's ends, leads, invalid).
        for c in [
          0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xF0, 0xF4, 0xF5, 0xFF,
        ] {
          compare([UInt8(a), UInt8(b), UInt8(c)])
          if a >= 0xF0 { compare([UInt8(a), UInt8(b), UInt8(c), 0x80]) }
          if a >= 0xF0 { compare([UInt8(a), UInt8(b), UInt8(c), 0x41]) }
        }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
    #expect(Self.verdict([]) == true)
  }

  @Test(
    "texts of every kind the generator writes, at every offset past a 32-byte block, and each with one byte changed"
  )
  func textsAndDamage() {
    var rng = SystemRandomNumberGenerator()
    let samples = [
      "plain ascii words only", "Ünïcödé café naïve façade", "東京のタイムライン", "Привет, мир", "עברית RTL",
      "🚀👩‍💻🏳️‍🌈", "tab\there line\nbreak", "mixed 🚀 and ascii and ü at the end ü",
    ]
    var mismatches: [String] = []
    for sample in samples {
      for prefix in 0..<33 {
        let text = Array(
          (String(repeating: "x", count: prefix) + sample
            + " tail words, long enough for a whole 32-byte block after it").utf8)
        if Self.verdict(text) != Self.reference(text) { mismatches.append("\(prefix) \(sample)") }
        for _ in 0..<12 {
          var damaged = text
          damaged[Int.random(in: 0..<damaged.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
          if Self.verdict(damaged) != Self.reference(damaged) { mismatches.append("\(damaged)") }
        }
      }
    }
    for _ in 0..<20_000 {
      let random = (0..<Int.random(in: 0...72, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
      if Self.verdict(random) != Self.reference(random) { mismatches.append("\(random)") }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
  }
}
