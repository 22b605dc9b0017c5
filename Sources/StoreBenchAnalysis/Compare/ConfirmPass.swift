import Foundation

/// `ab`'s confirm pass: a time gate alarms only on what fresh rounds confirm.
///
/// The first pass judges every row on its paired rounds, as `compare` does. The findings it **flags** — those that
/// would fail the gate: regressions, and improvements when they fail it too — are re-run, alone, for more paired
/// rounds of both builds, and judged again on those fresh rounds only, by the same signed-rank interval at
/// `familyAlpha` / (flagged findings) (``Comparison/Options/only``). A flagged finding the confirm rounds judge the
/// same way is **confirmed** and keeps its verdict; any other is **cleared** and takes the confirm pass's verdict.
///
/// **The error rate.** The confirm rounds are new data, and which findings they judge was fixed before they ran:
/// whatever the first pass flagged, the chance that the confirm pass calls any unchanged flagged finding a change is
/// at most `familyAlpha` (Bonferroni over the flagged findings). An alarm needs both passes, so the chance of a false
/// alarm per job is at most `familyAlpha` (5%) — in fact at most the first pass's rate times the confirm's — and
/// `ConfirmSimulationTests` checks it on rounds drawn from this machine's spread. What the extra look costs is
/// power: a real change must show in both passes.
public enum ConfirmPass {
  /// What the first pass said of a finding it flagged, kept beside the confirm pass's verdict.
  public struct FirstLook: Sendable {
    public let verdict: Comparison.Verdict
    public let ratio: Double
    public let interval: ClosedRange<Double>?
    /// The paired rounds of the first pass, and of the confirm pass.
    public let rounds: Int
    public let confirmRounds: Int
    /// Whether the confirm rounds judged it as the first pass did.
    public let confirmed: Bool
  }

  /// The findings of a first pass that would fail the gate and so are re-run.
  public static func flagged(_ first: Comparison, improvementsFail: Bool) -> [Comparison.Finding] {
    first.findings.filter { finding in
      guard finding.method.hasPrefix("paired rounds") else { return false }
      return finding.verdict == .regression || (improvementsFail && finding.verdict == .improvement)
    }
  }

  /// The first pass with each flagged finding replaced by its confirm pass's judgement (confirmed or cleared); the
  /// confirm pass's problems and warnings are added, prefixed so that a reader knows which pass they belong to.
  public static func combine(
    first: Comparison, flagged: [Comparison.Finding], confirm: Comparison, rounds: Int, confirmRounds: Int
  ) -> Comparison {
    let judged = Dictionary(confirm.findings.map { ($0.id, $0) }) { first, _ in first }
    let flaggedByID = Dictionary(flagged.map { ($0.id, $0) }) { first, _ in first }
    var problems = first.problems
    var findings: [Comparison.Finding] = []
    for finding in first.findings {
      guard let look = flaggedByID[finding.id] else {
        findings.append(finding)
        continue
      }
      guard var again = judged[finding.id] else {
        problems.append(
          "confirm pass: \(finding.key.label) \(finding.metric.name) was flagged (\(finding.verdict.rawValue)) "
            + "but the confirm rounds did not judge it")
        findings.append(finding)
        continue
      }
      again.confirmation = FirstLook(
        verdict: look.verdict, ratio: look.ratio, interval: look.interval, rounds: rounds,
        confirmRounds: confirmRounds, confirmed: again.verdict == look.verdict)
      again.method =
        (again.verdict == look.verdict ? "confirmed" : "cleared") + " on \(confirmRounds) fresh rounds ("
        + again.method + "); first pass: \(look.verdict.rawValue) "
        + String(format: "%.3f×", look.ratio)
      findings.append(again)
    }
    problems += confirm.problems.map { "confirm pass: " + $0 }
    let warnings =
      first.warnings + confirm.warnings.filter { !first.warnings.contains($0) }.map { "confirm pass: " + $0 }
    return Comparison(findings: findings, warnings: warnings, problems: problems, drift: first.drift)
  }
}
