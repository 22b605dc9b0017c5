import Foundation

/// How much one repetition's time varies in a run, and what its first repetition costs, counted from its samples
/// (docs/MEASURING.md quotes both from the committed default run, never from memory):
/// - the **log standard deviation** of `wall_s` within a row, pooled over the rows with at least
///   `minimumRepetitions` ok repetitions (each row's sample variance of ln `wall_s`, weighted by its n − 1), and the
///   same over those of them whose median `syncs_per_op` is 1 or more;
/// - the **first repetition's** `wall_s` over the median of the row's later ones, over the rows with at least 4,
///   at the median row and from the 10th to the 90th percentile (nearest rank).
public struct RunNoise: Sendable {
  public let rows: Int
  public let logStandardDeviation: Double?
  public let syncingRows: Int
  public let syncingLogStandardDeviation: Double?
  public let firstRepetitionRows: Int
  /// The first repetition's ratio at the 10th, 50th and 90th percentile row.
  public let firstRepetition: (low: Double, median: Double, high: Double)?

  /// Counts `table`'s ok repetitions, row by row in repetition order.
  public init(table: SampleTable, minimumRepetitions: Int) {
    var byRow: [RowKey: [(repetition: Int, wall: Double, syncs: Double)]] = [:]
    for row in table.rows where row.status == .ok {
      guard let wall = row.values[.wallSeconds], wall > 0 else { continue }
      byRow[row.key, default: []].append((row.repetition, wall, row.values[.syncsPerOp] ?? 0))
    }
    var pooled = (sum: 0.0, weight: 0.0, rows: 0)
    var syncing = (sum: 0.0, weight: 0.0, rows: 0)
    var ratios: [Double] = []
    for repetitions in byRow.values {
      let ordered = repetitions.sorted { $0.repetition < $1.repetition }
      if ordered.count >= minimumRepetitions {
        let logs = ordered.map { Foundation.log($0.wall) }
        let mean = logs.reduce(0, +) / Double(logs.count)
        let squares = logs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +)
        pooled = (pooled.sum + squares, pooled.weight + Double(logs.count - 1), pooled.rows + 1)
        if (Statistics.median(ordered.map(\.syncs)) ?? 0) >= 1 {
          syncing = (syncing.sum + squares, syncing.weight + Double(logs.count - 1), syncing.rows + 1)
        }
      }
      if ordered.count >= 4, let later = Statistics.median(ordered.dropFirst().map(\.wall)), later > 0 {
        ratios.append(ordered[0].wall / later)
      }
    }
    rows = pooled.rows
    logStandardDeviation = pooled.weight > 0 ? (pooled.sum / pooled.weight).squareRoot() : nil
    syncingRows = syncing.rows
    syncingLogStandardDeviation = syncing.weight > 0 ? (syncing.sum / syncing.weight).squareRoot() : nil
    firstRepetitionRows = ratios.count
    ratios.sort()
    func rank(_ fraction: Double) -> Double { ratios[min(ratios.count - 1, Int(fraction * Double(ratios.count)))] }
    firstRepetition = ratios.isEmpty ? nil : (rank(0.1), Statistics.median(ofSorted: ratios), rank(0.9))
  }

  /// The paragraph a page quotes.
  public var sentence: String {
    func two(_ value: Double) -> String { String(format: "%.2f", value) }
    var parts: [String] = []
    if let logStandardDeviation {
      parts.append(
        "One repetition's time varies with a log standard deviation of \(two(logStandardDeviation)), pooled "
          + "over the \(grouped(rows)) rows with enough repetitions for an interval"
          + (syncingLogStandardDeviation.map {
            " (\(two($0)) over the \(grouped(syncingRows)) of them that sync once or more per operation)"
          } ?? "") + ".")
    }
    if let firstRepetition {
      parts.append(
        "The first repetition's time over the median of its row's later ones, over the "
          + "\(grouped(firstRepetitionRows)) rows with at least 4: \(two(firstRepetition.median)) at the "
          + "median row, \(two(firstRepetition.low))–\(two(firstRepetition.high)) from the 10th to the 90th "
          + "percentile.")
    }
    return parts.isEmpty
      ? "Too few repetitions in this run to say how its times vary." : parts.joined(separator: " ")
  }

  private func grouped(_ count: Int) -> String { MarkdownTable.grouped(Double(count)) }
}
