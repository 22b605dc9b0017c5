import Foundation

/// The evidence behind a measured durability claim, in its own unit: **crash states** (a kill; a power cut, each
/// checked through its synced image and its prefix images), how many, of which fault, and what a clean result
/// bounds. Zero losses in n states bound the per-state loss rate at `1 − 0.05^(1/n)` (one-sided 95%, exact
/// binomial): ≤ 31.2% from 8 cuts, ≤ 5.8% from 50. A loss is a proof and needs no bound.
///
/// Batches are a crash state's content, not more evidence: the prefix images of one cut re-check the same
/// acknowledged batches, so batches are summed only within one image kind and always named with that kind.
public enum CrashEvidence {
  /// The one-sided 95% upper bound of a per-state loss rate after `states` states without a loss.
  public static func bound(cleanStates states: Int) -> Double {
    states > 0 ? 1 - pow(0.05, 1 / Double(states)) : 1
  }

  /// "5.8%", "31.2%", "0.6%".
  public static func percent(_ rate: Double) -> String { ClaimNumber.trimmed(rate * 100, digits: 1) + "%" }

  /// "no loss in 50 kills (2,479 batches acknowledged; ≤ 5.8% per kill, one-sided 95%)" or "lost saves in 5 of 50
  /// kills (lost 12 of 2,479 acknowledged batches; 3 of 50 stores unreadable or damaged, each losing every save it
  /// held)".
  public static func kill(_ counts: CrashResult.Counts) -> String {
    clean(counts)
      ? "no loss in \(counts.trials) kills (\(acknowledged(counts)); \(bound(counts.trials, "kill")))"
      : "lost saves in \(losing(counts)) of \(counts.trials) kills (\(lossParts(counts, "stores")))"
  }

  /// How many states (kills, images) lost a save, a damaged or unreadable store included: "5", or "at least 3"
  /// from a file that did not count them (``CrashResult/Counts/losing``).
  public static func losing(_ counts: CrashResult.Counts) -> String {
    let losing = counts.losing
    return (losing.exact ? "" : "at least ") + MarkdownTable.grouped(Double(losing.count))
  }

  /// "lost 12 of 2,479 acknowledged batches; 3 of 50 stores unreadable or damaged, each losing every save it held".
  private static func lossParts(_ counts: CrashResult.Counts, _ noun: String) -> String {
    var parts = [counts.lost > 0 ? "lost \(lost(counts))" : "no acknowledged batch among them"]
    if counts.corrupt > 0 {
      parts.append(
        "\(counts.corrupt) of \(counts.states) \(noun) unreadable or damaged, each losing every save it held")
    }
    return parts.joined(separator: "; ")
  }

  /// The power cut's evidence, cut by cut: "no loss in 50 cuts (50 synced and 150 prefix images; 823 batches
  /// acknowledged; ≤ 5.8% per cut, one-sided 95%)", or each image kind's losses.
  public static func powerCut(
    synced: CrashResult.Counts?, prefix: CrashResult.Counts?, torn: CrashResult.Counts? = nil
  ) -> String {
    if let enumerated = EnumeratedStates(synced: synced, prefix: prefix, torn: torn) { return enumerated.claim }
    let cuts = max(synced?.trials ?? 0, prefix?.trials ?? 0)
    let kinds = [synced.map { "\($0.states) synced" }, prefix.map { "\($0.states) prefix" }].compactMap { $0 }
    if [synced, prefix].allSatisfy({ $0.map(clean) ?? true }) {
      let reference = synced ?? prefix!
      return "no loss in \(cuts) cuts (\(kinds.joined(separator: " and ")) images; "
        + "\(acknowledged(reference))\(synced == nil ? " over the prefix images" : ""); \(bound(cuts, "cut")))"
    }
    let parts = [
      synced.map { "synced image " + syncedOutcome($0) }, prefix.map { "prefix images " + prefixOutcome($0) },
    ]
    return parts.compactMap { $0 }.joined(separator: "; ")
  }

  /// What the synced images of the cuts kept: "lost saves in 12 of 50 cuts (lost 42 of 740 acknowledged
  /// batches)".
  static func syncedOutcome(_ counts: CrashResult.Counts) -> String {
    guard !clean(counts) else { return "no acknowledged batch lost in \(counts.trials) cuts" }
    return "lost saves in \(losing(counts)) of \(counts.trials) cuts (\(lossParts(counts, "images")))"
  }

  /// What the prefix images kept: "lost saves in 9 of 150 images of 50 cuts (lost 22 of 2,220 acknowledged
  /// batches)".
  static func prefixOutcome(_ counts: CrashResult.Counts) -> String {
    guard !clean(counts) else {
      return "no acknowledged batch lost in \(counts.states) images of \(counts.trials) cuts"
    }
    return "lost saves in \(losing(counts)) of \(counts.states) images of \(counts.trials) cuts "
      + "(\(lossParts(counts, "images")))"
  }

  /// A Markdown table of crash results, one row per variant (by name): the killed app, the power cut's synced
  /// image and its prefix images, each in its own crash states; losses in bold.
  public static func table(_ results: [String: CrashResult]) -> [String] {
    // Enumerated results are counted in states; random cuts in images of cuts.
    let unit = results.values.contains { $0.synced?.enumerated != nil } ? ("states", "states") : ("image", "images")
    var lines = [
      "| backend [variant] | app killed | power cut: synced \(unit.0) | power cut: prefix \(unit.1) |",
      "|---|---|---|---|",
    ]
    func cell(
      _ counts: CrashResult.Counts?, clean: (CrashResult.Counts) -> String, lossy: (CrashResult.Counts) -> String
    ) -> String? {
      counts.map { self.clean($0) ? clean($0) : "**\(lossy($0))**" }
    }
    for (key, result) in results.sorted(by: { $0.key < $1.key }) {
      let unmeasured = result.powerLossUnmeasured ?? "not measured"
      let kill = cell(result.kill, clean: briefKill, lossy: CrashEvidence.kill) ?? "not measured"
      let synced: String
      let prefix: String
      if let enumerated = EnumeratedStates(synced: result.synced, prefix: result.prefix, torn: result.torn) {
        (synced, prefix) = enumerated.cells
      } else {
        synced =
          cell(
            result.synced, clean: { "no loss in \($0.trials) cuts (\(shortBound($0.trials, "cut")))" },
            lossy: syncedOutcome) ?? unmeasured
        prefix =
          cell(
            result.prefix, clean: { "no loss in \($0.states) images of \($0.trials) cuts" },
            lossy: prefixOutcome) ?? unmeasured
      }
      lines.append(
        "| \(MarkdownTable.escape(key)) | \(kill) | \(MarkdownTable.escape(synced)) | \(MarkdownTable.escape(prefix)) |"
      )
    }
    return lines
  }

  /// The short form for table cells: "no loss in 50 kills (≤ 5.8% per kill)", "lost saves in 5 of 50 kills (12
  /// batches, 3 stores unreadable)".
  public static func briefKill(_ counts: CrashResult.Counts) -> String {
    clean(counts)
      ? "no loss in \(counts.trials) kills (\(shortBound(counts.trials, "kill")))"
      : "lost saves in \(losing(counts)) of \(counts.trials) kills (\(briefLoss(counts, "stores")))"
  }

  /// "no loss in 50 cuts (≤ 5.8% per cut)", "lost saves in 12 of 50 cuts (316 batches; synced image)".
  public static func briefPowerCut(
    synced: CrashResult.Counts?, prefix: CrashResult.Counts?, torn: CrashResult.Counts? = nil
  ) -> String {
    if let enumerated = EnumeratedStates(synced: synced, prefix: prefix, torn: torn) { return enumerated.brief }
    let cuts = max(synced?.trials ?? 0, prefix?.trials ?? 0)
    let lossy = [synced, prefix].compactMap { $0 }.filter { !clean($0) }
    guard let first = lossy.first else { return "no loss in \(cuts) cuts (\(shortBound(cuts, "cut")))" }
    return first == synced
      ? "lost saves in \(losing(first)) of \(cuts) cuts (\(briefLoss(first, "images")); synced image)"
      : "lost saves in \(losing(first)) of \(first.states) images of \(cuts) cuts (\(briefLoss(first, "images")))"
  }

  /// "12 batches", "12 batches, 3 stores unreadable", "3 stores unreadable".
  private static func briefLoss(_ counts: CrashResult.Counts, _ noun: String) -> String {
    [
      counts.lost > 0 ? "\(MarkdownTable.grouped(Double(counts.lost))) batches" : nil,
      counts.corrupt > 0 ? "\(counts.corrupt) \(noun) unreadable" : nil,
    ].compactMap { $0 }.joined(separator: ", ")
  }

  static func clean(_ counts: CrashResult.Counts) -> Bool { !counts.lostSomething }

  private static func acknowledged(_ counts: CrashResult.Counts) -> String {
    "\(MarkdownTable.grouped(Double(counts.acknowledged))) batches acknowledged"
  }

  private static func lost(_ counts: CrashResult.Counts) -> String {
    "\(MarkdownTable.grouped(Double(counts.lost))) of \(MarkdownTable.grouped(Double(counts.acknowledged))) acknowledged batches"
  }

  /// "≤ 5.8% per cut".
  private static func shortBound(_ states: Int, _ noun: String) -> String {
    "≤ \(percent(bound(cleanStates: states))) per \(noun)"
  }

  /// "≤ 5.8% per cut, one-sided 95%".
  private static func bound(_ states: Int, _ noun: String) -> String { shortBound(states, noun) + ", one-sided 95%" }
}
