import Foundation

/// How a run's rows were measured, counted from its summary (the `stopped`, `n`, `target_precision` and interval
/// columns): why each row stopped, how many reached the target precision, how many have an interval of their median
/// and how wide those intervals are. Pages say this from a run's own summary, never from the policy's intent.
public struct RunMethod: Sendable, Equatable {
  /// Rows by the summary's `stopped` value.
  public let stopped: [String: Int]
  public let rows: Int
  /// Rows with a 95% interval of their median, and the median of their half-widths (a fraction of the median).
  public let withInterval: Int
  public let medianHalfWidth: Double?
  /// Rows whose interval is within the target precision, and that target (a fraction; nil: the run set none).
  public let precise: Int
  public let target: Double?

  /// Counts `summary` (a run folder's summary.csv as cells by column name).
  public init(summary: [[String: String]]) {
    rows = summary.count
    var stopped: [String: Int] = [:]
    var halfWidths: [Double] = []
    var precise = 0
    var target: Double?
    for row in summary {
      stopped[row[.stopped].flatMap { $0.isEmpty ? nil : $0 } ?? "unknown", default: 0] += 1
      if let value = row[.targetPrecision].flatMap(Double.init) { target = value }
      guard let median = row[.medianSeconds].flatMap(Double.init), median > 0,
        let low = row[.intervalLow].flatMap(Double.init),
        let high = row[.intervalHigh].flatMap(Double.init)
      else { continue }
      let halfWidth = (high - low) / 2 / median
      halfWidths.append(halfWidth)
      if let limit = row[.targetPrecision].flatMap(Double.init), halfWidth <= limit { precise += 1 }
    }
    self.stopped = stopped
    withInterval = halfWidths.count
    medianHalfWidth = Statistics.median(halfWidths)
    self.precise = precise
    self.target = target
  }

  /// What each `stopped` value means, in the order a page lists them.
  static let reasons: [(String, String)] = [
    ("precise", "at the target precision"), ("settled-slower", "settled slower than their answer's leader"),
    ("settled-equivalent", "settled equivalent to their answer's leader"), ("leader", "as their answer's leader"),
    ("case-time", "at their case's time cap"), ("budget", "at the run's budget"),
    ("max-repetitions", "at the most repetitions"),
    ("no-answer", "at the first look, no answer depending on them"), ("failed", "failed"),
    ("unsupported", "unsupported by their backend"),
  ]

  /// "How its 364 rows stopped: 107 at their case's time cap, …; 0 of them reached the ±5% target. 136 have a 95%
  /// interval of their median (…), half-width ±19% at the median."
  public var sentence: String {
    let known = Dictionary(uniqueKeysWithValues: Self.reasons)
    let order = Self.reasons.map(\.0) + stopped.keys.filter { known[$0] == nil }.sorted()
    let parts = order.compactMap { reason in
      stopped[reason].map { "\(grouped($0)) \(known[reason] ?? reason)" }
    }
    var text = "How its \(grouped(rows)) rows stopped: " + parts.joined(separator: ", ")
    if let target {
      text += "; \(grouped(precise)) reached the target of ±\(ClaimNumber.trimmed(target * 100, digits: 1))%"
    }
    text += ". \(grouped(withInterval)) of \(grouped(rows)) have a 95% interval of their median"
    if let medianHalfWidth {
      text +=
        " (half its width is ±\(ClaimNumber.trimmed(medianHalfWidth * 100, digits: 0))% of the median, "
        + "at the median of those rows)"
    }
    return text + "; the rest show their median and repetitions."
  }

  private func grouped(_ count: Int) -> String { MarkdownTable.grouped(Double(count)) }
}
