import Foundation
import StoreBenchContract

/// The written forms of claims, read back: what ``RatioClaim``, ``MedianClaim`` and ``CrashEvidence`` print, as
/// patterns ``ClaimsLint`` checks on every page, and the marker a generated page carries with the settings its claims
/// were judged by.
public enum ClaimSyntax {
  /// `<!-- storebench claims: tie-margin=0.1 minimum-repetitions=6 -->`: the marker a generated page carries.
  public static func marker(margin: TieMargin, minimumCount: Int) -> String {
    "<!-- storebench claims: tie-margin=\(ClaimNumber.trimmed(margin.fraction, digits: 4)) minimum-repetitions=\(minimumCount) -->"
  }

  /// `<!-- storebench rendered: report -->`: the first line of a page storebench renders whole (report.md,
  /// advice.md). Such a page is rendered again from its run, never edited, so the lint holds only hand-written pages
  /// to binding their figures (``FigureBinding``).
  public static func renderedMarker(_ kind: String) -> String { "<!-- storebench rendered: \(kind) -->" }

  /// Whether `page` is one storebench rendered whole (its first line is a ``renderedMarker(_:)``).
  public static func isRendered(_ page: String) -> Bool { page.hasPrefix("<!-- storebench rendered: ") }

  /// The settings a page's marker names (the defaults where it has none).
  public static func settings(of page: String) -> (margin: TieMargin, minimumCount: Int) {
    var margin = TieMargin.standard
    var minimum = MedianInterval.minimumCount
    if let match = first(
      #"<!-- storebench claims: tie-margin=([0-9.]+) minimum-repetitions=([0-9]+) -->"#, in: page)
    {
      margin = Double(match[1]).map(TieMargin.init(fraction:)) ?? margin
      minimum = Int(match[2]) ?? minimum
    }
    return (margin, minimum)
  }

  public static let number = #"([0-9]+(?:\.[0-9]+)?)"#
  public static let count = #"([0-9][0-9,]*)"#
  /// "1.26× [1.08–1.42] slower"
  public static let ratio =
    number + "× \\[" + number + "–" + number + "\\] (faster|slower|equivalent|indistinguishable)"
  /// "12.3 ms [11.9–12.8 ms, n=10]"
  public static let timeInterval =
    number + " (ns|µs|ms|s) \\[" + number + "–" + number + "(?: (?:ns|µs|ms|s))?, n=([0-9]+)\\]"
  /// "no loss in 50 cuts (…; ≤ 5.8% per cut, …)"
  public static let cleanStates =
    "no loss in " + count + " (kills|cuts)(?:[^|]{0,160}?≤ " + number + "% per (kill|cut))?"
  /// "measured: …" up to the end of its cell or line.
  public static let measured = #"measured(:?)([^|\n]*)"#
  /// "in 50 kills", "in 150 images of 50 cuts", "in all 412 crash states", "in 19 of 137 synced states" (the total)
  public static let states =
    "in (?:all )?(?:(?:at least )?[0-9][0-9,]* of )?" + count
    + " (kills|cuts|images|crash states|synced states|prefix states|torn states)(?: of "
    + count + " cuts)?"
  /// "lost saves in 131 of 254 prefix states": group 1 the losing states; the claim runs to the next such count or
  /// the end of its cell.
  public static let losingStates = "lost (?:saves )?in (?:at least )?" + count + " of [0-9][0-9,]* "
  /// "131 of them unreadable", "3 of 50 stores unreadable", "3 stores unreadable": the damaged states a losing
  /// count includes.
  public static let unreadableStates =
    count + " (?:of them |of [0-9][0-9,]* (?:stores|images) |stores |images )unreadable"
  /// "lost 316 of 823 acknowledged batches"
  public static let lostBatches = "lost " + count + " of " + count + " acknowledged batches"
  /// "823 batches acknowledged"
  public static let acknowledged = count + " batches acknowledged"

  /// Every match of `pattern` in `text`, as its groups (0: the whole match; "" for a group that did not take part).
  public static func matches(_ pattern: String, in text: String) -> [[String]] {
    let expression = try! NSRegularExpression(pattern: pattern)
    let whole = NSRange(text.startIndex..., in: text)
    return expression.matches(in: text, range: whole).map { match in
      (0..<match.numberOfRanges).map { index in
        Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
      }
    }
  }

  public static func first(_ pattern: String, in text: String) -> [String]? { matches(pattern, in: text).first }

  /// `text` with every match of `pattern` replaced by `replacement`.
  public static func replacing(_ pattern: String, in text: String, with replacement: String) -> String {
    let expression = try! NSRegularExpression(pattern: pattern)
    return expression.stringByReplacingMatches(
      in: text, range: NSRange(text.startIndex..., in: text), withTemplate: replacement)
  }

  /// A strategy as a page names it: its backend and the settings its label shows ("sqlite [txn=single
  /// journal=wal]").
  public struct Strategy {
    public let backend: String
    public let settings: Set<String>

    /// Whether this label names the strategy whose full variant is `variant` (its settings include the label's).
    public func names(backend: String, variant: String) -> Bool {
      self.backend == backend && settings.isSubset(of: variant.split(separator: " ").map(String.init))
    }

    /// Whether this label names the crash result or row keyed "backend [variant]".
    public func names(key: String) -> Bool {
      let (backend, variant) = BackendRegistry.parts(ofStrategy: key)
      return names(backend: backend, variant: variant)
    }
  }

  /// Every strategy label in `text`: a backend and, in brackets, settings (`name=value`) or `default`.
  public static func strategies(in text: String) -> [Strategy] {
    matches(#"\b([a-z][a-z0-9-]*) \[([a-z_]+=[^\]]*|default)\]"#, in: text).map { match in
      Strategy(backend: match[1], settings: Set(match[2].split(separator: " ").map(String.init)))
    }
  }

  /// "25,684" → 25684.
  public static func integer(_ text: String) -> Int? { Int(text.replacingOccurrences(of: ",", with: "")) }
}
