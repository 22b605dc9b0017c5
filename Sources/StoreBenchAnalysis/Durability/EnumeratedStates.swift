import Foundation

/// The words for enumerated power-loss evidence (`method` `enumerated`): every crash state the page-cache model
/// allows at every persistence point of a traced run, counted in states of their kind. A clean result is exhaustive
/// within the model ("no loss in all 412 crash states") and needs no bound, unless some points' prefix states were
/// a sample, which the claim then says. Batches are named once per run, never re-counted across states.
struct EnumeratedStates {
  let synced: CrashResult.Counts?
  let prefix: CrashResult.Counts?
  let torn: CrashResult.Counts?
  private let kinds: [(name: String, counts: CrashResult.Counts)]
  private let run: CrashResult.Counts.Enumerated

  /// nil unless the counts are enumerated ones.
  init?(synced: CrashResult.Counts?, prefix: CrashResult.Counts?, torn: CrashResult.Counts?) {
    let present = [("synced", synced), ("prefix", prefix), ("torn", torn)].compactMap { name, counts in
      counts.map { (name: name, counts: $0) }
    }
    guard let first = present.first?.counts.enumerated,
      present.allSatisfy({ $0.counts.enumerated != nil })
    else { return nil }
    (self.synced, self.prefix, self.torn, kinds, run) = (synced, prefix, torn, present, first)
  }

  private var states: Int { kinds.map(\.counts.states).reduce(0, +) }
  private var acknowledged: Int { kinds.map(\.counts.acknowledged).max() ?? 0 }
  private var clean: Bool { kinds.allSatisfy { !$0.counts.lostSomething } }

  /// "137 persistence points (3 sampled)" — the points, and how many of them had a sample of prefix states.
  private var points: String {
    "\(grouped(run.points)) persistence points"
      + (run.sampledPoints > 0 ? ", the prefix states of \(grouped(run.sampledPoints)) of them a sample" : "")
  }

  /// "no loss in all 412 crash states (137 persistence points: 137 synced, 275 prefix; 20 batches acknowledged)"
  /// or each kind's losses.
  var claim: String {
    let split = kinds.map { "\(grouped($0.counts.states)) \($0.name)" }.joined(separator: ", ")
    if clean {
      let all = run.sampledPoints == 0 ? "all " : ""
      return "no loss in \(all)\(grouped(states)) crash states (\(points): \(split); "
        + "\(grouped(acknowledged)) batches acknowledged)"
    }
    return kinds.map { kind in
      "\(kind.name) states: " + outcome(kind.counts, kind.name)
    }.joined(separator: "; ") + " (\(points))"
  }

  /// "lost saves in 19 of 137 synced states (only the newest save each, the oldest loss 4.2 ms after its
  /// acknowledgement; lost 19 of 20 acknowledged batches across them)": the states that lost, how far back a loss
  /// reaches, and the run's batches lost in one state or another (each batch once). A damaged or unreadable state
  /// is a losing state (it loses every save it held); a file written before that was counted gives the least count
  /// ("at least 131 of 254").
  private func outcome(_ counts: CrashResult.Counts, _ name: String) -> String {
    let enumerated = counts.enumerated ?? run
    let total = "\(grouped(counts.states)) \(name) states"
    guard counts.lostSomething else { return "no acknowledged batch lost in \(total)" }
    var reach: [String] = []
    if let depth = enumerated.lossDepth {
      reach.append(depth == 1 ? "only the newest save each" : "up to the \(grouped(depth)) newest saves")
    }
    if let window = enumerated.lossWindowMilliseconds {
      reach.append("the oldest loss \(ClaimNumber.trimmed(window, digits: 1)) ms after its acknowledgement")
    }
    var parts = [reach.joined(separator: ", ")].filter { !$0.isEmpty }
    if counts.lost > 0 {
      parts.append(
        "lost \(grouped(counts.lost)) of \(grouped(counts.acknowledged)) acknowledged batches across them")
    }
    if counts.corrupt > 0 {
      parts.append("\(grouped(counts.corrupt)) of them unreadable or damaged, each losing every save it held")
    }
    return "lost saves in \(CrashEvidence.losing(counts)) of \(total) (\(parts.joined(separator: "; ")))"
  }

  /// "no loss in all 412 states (137 points)", "lost in 19 of 137 synced states".
  var brief: String {
    if clean { return "no loss in \(run.sampledPoints == 0 ? "all " : "")\(grouped(states)) crash states" }
    let first = kinds.first { $0.counts.lostSomething }!
    return "lost in \(CrashEvidence.losing(first.counts)) of \(grouped(first.counts.states)) \(first.name) states"
  }

  /// The report table's two power-cut cells: the synced states, and the prefix (and torn) states.
  var cells: (synced: String, prefix: String) {
    func cell(_ counts: CrashResult.Counts?, _ name: String) -> String? {
      counts.map { counts in
        counts.lostSomething
          ? "**\(outcome(counts, name))**"
          : "no loss in \(run.sampledPoints == 0 ? "all " : "")\(grouped(counts.states)) \(name) states"
      }
    }
    let rest = [cell(prefix, "prefix"), cell(torn, "torn")].compactMap { $0 }
    return (cell(synced, "synced") ?? "not measured", rest.isEmpty ? "not measured" : rest.joined(separator: "; "))
  }

  private func grouped(_ count: Int) -> String { MarkdownTable.grouped(Double(count)) }
}
