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

    /// "no loss in 50 kills (2,479 batches acknowledged; ≤ 5.8% per kill, one-sided 95%)" or "lost 12 of 2,479
    /// acknowledged batches in 50 kills, 3 of 50 stores unreadable".
    public static func kill(_ counts: CrashResult.Counts) -> String {
        clean(counts) ? "no loss in \(counts.trials) kills (\(acknowledged(counts)); \(bound(counts.trials, "kill")))"
            : (counts.lost > 0 ? "lost \(lost(counts))" : "no acknowledged batch lost") + " in \(counts.trials) kills"
                + unreadable(counts, "stores")
    }

    /// The power cut's evidence, cut by cut: "no loss in 50 cuts (50 synced and 150 prefix images; 823 batches
    /// acknowledged; ≤ 5.8% per cut, one-sided 95%)", or each image kind's losses.
    public static func powerCut(synced: CrashResult.Counts?, prefix: CrashResult.Counts?) -> String {
        let cuts = max(synced?.trials ?? 0, prefix?.trials ?? 0)
        let kinds = [synced.map { "\($0.states) synced" }, prefix.map { "\($0.states) prefix" }].compactMap { $0 }
        if [synced, prefix].allSatisfy({ $0.map(clean) ?? true }) {
            let reference = synced ?? prefix!
            return "no loss in \(cuts) cuts (\(kinds.joined(separator: " and ")) images; "
                + "\(acknowledged(reference))\(synced == nil ? " over the prefix images" : ""); \(bound(cuts, "cut")))"
        }
        func outcome(_ counts: CrashResult.Counts) -> String {
            counts.lost > 0 ? "lost \(lost(counts))" : "no acknowledged batch lost"
        }
        let parts = [synced.map { "synced image \(outcome($0)) in \($0.trials) cuts\(unreadable($0, "images"))" },
                     prefix.map { "prefix images \(outcome($0)) in \($0.states) images of \($0.trials) cuts\(unreadable($0, "images"))" }]
        return parts.compactMap { $0 }.joined(separator: "; ")
    }

    /// The short form for table cells: "no loss in 50 kills (≤ 5.8% per kill)", "lost 12 batches in 50 kills".
    public static func briefKill(_ counts: CrashResult.Counts) -> String {
        clean(counts) ? "no loss in \(counts.trials) kills (≤ \(percent(bound(cleanStates: counts.trials))) per kill)"
            : "lost \(briefLoss(counts)) in \(counts.trials) kills"
    }

    /// "no loss in 50 cuts (≤ 5.8% per cut)", "lost 316 batches in 50 cuts".
    public static func briefPowerCut(synced: CrashResult.Counts?, prefix: CrashResult.Counts?) -> String {
        let cuts = max(synced?.trials ?? 0, prefix?.trials ?? 0)
        let lossy = [synced, prefix].compactMap { $0 }.filter { !clean($0) }
        guard let first = lossy.first else { return "no loss in \(cuts) cuts (≤ \(percent(bound(cleanStates: cuts))) per cut)" }
        return "lost \(briefLoss(first)) in \(cuts) cuts" + (first == synced ? " (synced image)" : " (prefix images)")
    }

    private static func briefLoss(_ counts: CrashResult.Counts) -> String {
        counts.lost > 0 ? "\(MarkdownTable.grouped(Double(counts.lost))) batches" : "the store (\(counts.corrupt) unreadable)"
    }

    static func clean(_ counts: CrashResult.Counts) -> Bool { !counts.lostSomething }

    private static func acknowledged(_ counts: CrashResult.Counts) -> String {
        "\(MarkdownTable.grouped(Double(counts.acknowledged))) batches acknowledged"
    }

    private static func lost(_ counts: CrashResult.Counts) -> String {
        "\(MarkdownTable.grouped(Double(counts.lost))) of \(MarkdownTable.grouped(Double(counts.acknowledged))) acknowledged batches"
    }

    private static func unreadable(_ counts: CrashResult.Counts, _ noun: String) -> String {
        counts.corrupt > 0 ? ", \(counts.corrupt) of \(counts.states) \(noun) unreadable" : ""
    }

    private static func bound(_ states: Int, _ noun: String) -> String {
        "≤ \(percent(bound(cleanStates: states))) per \(noun), one-sided 95%"
    }
}
