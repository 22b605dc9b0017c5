import Foundation
import StoreBenchContract

/// Two crash results side by side (`durability*.csv` of `storebench crash`), variant by variant: the durability gate.
///
/// A variant regresses when its measured class weakens (``DurabilityClass`` of the images both sides measured, taking
/// every variant as if it promised the most, so only measured losses lower it), or when it loses acknowledged writes,
/// or leaves an
/// unreadable store, in an image (killed app, power-loss synced, power-loss prefix) where the baseline lost none. That
/// is a regression even when the variant got faster. The reverse is an improvement. Variants measured on one side only
/// are named, never judged.
public struct DurabilityComparison: Sendable {
  public struct Change: Sendable, Equatable {
    public let variant: String
    public let isRegression: Bool
    /// "power-loss synced image: 0 of 1,234 lost in 50 cuts → 42 of 1,200 lost in 50 cuts".
    public let detail: String

    public var line: String { "\(isRegression ? "regression" : "improvement"): \(variant): \(detail)" }
  }

  public let changes: [Change]
  /// Variants measured on one side only, images measured on one side only.
  public let warnings: [String]
  /// Variants judged on both sides.
  public let compared: Int

  public var hasRegression: Bool { changes.contains(where: \.isRegression) }
  public var hasImprovement: Bool { changes.contains { !$0.isRegression } }

  public init(baseline: [String: CrashResult], current: [String: CrashResult]) {
    var changes: [Change] = []
    var warnings: [String] = []
    for variant in Set(baseline.keys).symmetricDifference(current.keys).sorted() {
      warnings.append(
        "durability of \(variant) measured only in \(baseline[variant] == nil ? "current" : "baseline")")
    }
    let both = Set(baseline.keys).intersection(current.keys).sorted()
    for variant in both {
      let before = baseline[variant]!
      let after = current[variant]!
      let images: [(String, CrashResult.Counts?, CrashResult.Counts?, String, String)] = [
        ("killed app", before.kill, after.kill, "kills", ""),
        ("power-loss synced image", before.synced, after.synced, "cuts", "synced states"),
        ("power-loss prefix images", before.prefix, after.prefix, "images", "prefix states"),
        ("power-loss torn states", before.torn, after.torn, "images", "torn states"),
      ]
      for (name, b, a, noun, states) in images {
        switch (b, a) {
        case (let b?, let a?) where b.lostSomething != a.lostSomething:
          changes.append(
            Change(
              variant: variant, isRegression: a.lostSomething,
              detail: "\(name): \(b.brief(noun, states: states)) → \(a.brief(noun, states: states))"))
        case (.some, nil), (nil, .some):
          warnings.append(
            "durability of \(variant): \(name) measured only in \(b == nil ? "current" : "baseline")")
        default:
          break
        }
      }
      // The class from the images both sides measured: an image measured on one side only decides nothing.
      func common(_ result: CrashResult, _ other: CrashResult) -> CrashResult {
        CrashResult(
          kill: other.kill == nil ? nil : result.kill, synced: other.synced == nil ? nil : result.synced,
          prefix: other.prefix == nil ? nil : result.prefix, torn: other.torn == nil ? nil : result.torn)
      }
      let classBefore = DurabilityClass(declared: .durable, crash: common(before, after)).promise
      let classAfter = DurabilityClass(declared: .durable, crash: common(after, before)).promise
      if classBefore != classAfter {
        changes.append(
          Change(
            variant: variant, isRegression: classAfter > classBefore,
            detail: "measured class '\(classBefore.rawValue)' → '\(classAfter.rawValue)'"))
      }
    }
    self.changes = changes.sorted { ($0.isRegression ? 0 : 1, $0.variant) < ($1.isRegression ? 0 : 1, $1.variant) }
    self.warnings = warnings
    compared = both.count
  }

  /// The Markdown section of the compare report.
  public var markdown: String {
    var lines = [
      "",
      "**Durability** (\(compared) variant(s) crash-tested on both sides: \(changes.filter(\.isRegression).count) "
        + "regression(s), \(changes.filter { !$0.isRegression }.count) improvement(s))", "",
    ]
    lines += changes.map { "- \(MarkdownTable.escape($0.line))" }
    lines += warnings.map { "- warning: \(MarkdownTable.escape($0))" }
    return lines.joined(separator: "\n") + "\n"
  }
}
