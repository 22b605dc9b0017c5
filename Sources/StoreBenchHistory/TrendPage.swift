import Foundation
import StoreBenchAnalysis

/// `storebench history html`: one static page, no script, no server, no network. Per machine and scenario, one chart
/// per workload with a line per strategy (and size) over the commits, on a log scale; the steps ``HistoryCheck``
/// found marked on the commit where they start; each strategy's durability class in the legend; and under each
/// chart a table with every point's commit and value (each point also names them on hover).
public struct TrendPage {
  public var series: [HistorySeries]
  public var runs: [HistoryRun]
  public var result: HistoryCheck.Result
  /// The durability class of each strategy ("backend [variant]") in the newest run that has one.
  public var classes: [String: (durability: String, measured: Bool)]
  private let countSeries: [HistorySeries.Key: HistorySeries]

  public init(
    series: [HistorySeries], runs: [HistoryRun], result: HistoryCheck.Result,
    classes: [String: (durability: String, measured: Bool)]
  ) {
    self.series = series
    self.runs = runs
    self.result = result
    self.classes = classes
    countSeries = Dictionary(series.filter { $0.key.metric.isCount }.map { ($0.key, $0) }) { first, _ in first }
  }

  /// A white outline behind a label drawn over the lines.
  static let halo = "paint-order='stroke' stroke='#fff' stroke-width='3'"

  static let palette = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#393b79", "#637939",
  ]

  public func html(title: String = "storebench history") -> String {
    var body: [String] = []
    let groups = Dictionary(grouping: series.filter { $0.key.metric == .time }) { $0.key.group }
    for (group, members) in groups.sorted(by: { $0.key < $1.key }) {
      let groupRuns = runs.filter { $0.group == group }
      guard let first = groupRuns.first else { continue }
      let newestRun = groupRuns.last!
      body.append("<h2>\(esc(first.scenarioName)) on \(esc(first.machineLabel))</h2>")
      body.append(
        "<p class=meta>\(esc(newestRun.cpuModel)) · \(esc(newestRun.kernel)) · \(esc(newestRun.fileSystem))"
          + (HistoryRun.spread(groupRuns).map { " (newest run; its runs come from \(esc($0)))" } ?? "")
          + " · scenario hash "
          + "\(esc(first.scenarioHash)) · \(groupRuns.count) runs, \(Set(groupRuns.map(\.commit)).count) commits "
          + "(\(esc(first.shortCommit)) … \(esc(newestRun.shortCommit)))</p>")
      let newest = result.newest.filter { $0.key.group == group }
      if let run = newest.first?.run {
        let regressions = newest.filter { $0.verdict == .regression }.count
        let short = newest.filter { $0.verdict == .notEnoughHistory }.count
        body.append(
          "<p class=\(regressions > 0 ? "bad" : "ok")>Newest commit \(esc(run.shortCommit)): "
            + (regressions > 0 ? "\(regressions) series regressed" : "no regression found")
            + (short > 0 ? " · \(short) of \(newest.count) series have too little history to test" : "")
            + "</p>")
      }
      for (workload, charted) in Dictionary(grouping: members, by: \.key.workload).sorted(by: { $0.key < $1.key }) {
        body.append(chart(workload: workload, series: charted.sorted { $0.key < $1.key }, runs: groupRuns))
      }
    }
    if body.isEmpty { body.append("<p>The history holds no ok rows yet.</p>") }
    return """
      <!doctype html>
      <html lang=en><head><meta charset=utf-8>\(OutputMarks.pageGenerator)<title>\(esc(title))</title>
      <style>
      body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
      h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}h3{font-size:15px;margin:24px 0 4px}
      .meta{color:#555}.ok{color:#2a7a2a}.bad{color:#b00020;font-weight:bold}
      table{border-collapse:collapse;font-size:12px;margin:6px 0}td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}
      th:first-child,td:first-child{text-align:left}.legend{list-style:none;padding:0;margin:4px 0;font-size:12px}
      .legend li{margin:1px 0}.swatch{display:inline-block;width:14px;height:4px;margin-right:6px;vertical-align:middle}
      .step{color:#b00020}
      </style></head><body>
      <h1>\(esc(title))</h1>
      <p class=meta>Median time of each row over the commits (log scale), one line per strategy and size. Dashed red lines:
      steps found by E-Divisive means (the ratio and its 95% interval beside them). Rows are compared only within one
      machine, one scenario hash and one dataset.</p>
      \(body.joined(separator: "\n"))
      </body></html>

      """
  }

  private func chart(workload: String, series: [HistorySeries], runs: [HistoryRun]) -> String {
    let width = 1000.0
    let height = 300.0
    let left = 70.0
    let right = 90.0
    let top = 16.0
    let bottom = 70.0
    let index = Dictionary(uniqueKeysWithValues: runs.enumerated().map { ($0.element.id, $0.offset) })
    let values = series.flatMap { $0.points.map(\.value) }.filter { $0 > 0 }
    guard let low = values.min(), let high = values.max() else { return "" }
    let lo = log10(low) - 0.05
    let hi = max(log10(high) + 0.05, log10(low) + 0.2)
    func x(_ i: Int) -> Double {
      left + (runs.count == 1 ? 0.5 : Double(i) / Double(runs.count - 1)) * (width - left - right)
    }
    func y(_ v: Double) -> Double { top + (hi - log10(v)) / (hi - lo) * (height - top - bottom) }
    var svg: [String] = [
      "<svg xmlns='http://www.w3.org/2000/svg' width='\(Int(width))' height='\(Int(height))' role=img aria-label='\(esc(workload))'>"
    ]
    svg.append(
      "<rect x='\(left)' y='\(top)' width='\(width - left - right)' height='\(height - top - bottom)' fill='#fafafa' stroke='#ccc'/>"
    )
    for v in Self.ticks(lo...hi) {
      svg.append("<line x1='\(left)' x2='\(width - right)' y1='\(f(y(v)))' y2='\(f(y(v)))' stroke='#e4e4e4'/>")
      svg.append(
        "<text x='\(left - 6)' y='\(f(y(v) + 4))' font-size='11' text-anchor='end'>\(Self.seconds(v))</text>")
    }
    // Every commit's label while they fit (14 px apart); beyond that every k-th, counted back from the newest,
    // which
    // is always named (every point's commit is in the table and on hover).
    let every = max(1, Int((Double(runs.count) * 14 / (width - left - right)).rounded(.up)))
    for (i, run) in runs.enumerated() where (runs.count - 1 - i) % every == 0 {
      svg.append(
        "<text transform='translate(\(f(x(i) + 4)),\(f(height - bottom + 8))) rotate(60)' font-size='11'>\(esc(run.shortCommit))</text>"
      )
    }
    // Steps of this chart's rows, in time or in a count; the dashed lines mark the time steps.
    let allSteps = result.steps.filter { step in
      var timeKey = step.key
      timeKey.metric = .time
      return series.contains { $0.key == timeKey }
    }
    let steps = allSteps.filter { $0.key.metric == .time }
    for (runID, atCommit) in Dictionary(grouping: steps, by: { $0.first.id }) {
      guard let i = index[runID] else { continue }
      let xs = f(x(i) - (runs.count > 1 ? (x(1) - x(0)) / 2 : 0))
      svg.append(
        "<line x1='\(xs)' x2='\(xs)' y1='\(top)' y2='\(height - bottom)' stroke='#b00020' stroke-dasharray='5,4'/>"
      )
      let label = atCommit.map { "×" + HistoryCheck.Result.ratio($0.ratio) }.joined(separator: " ")
      svg.append(
        "<text x='\(f(Double(xs)! + 4))' y='\(top + 12)' font-size='11' fill='#b00020' \(Self.halo)>step \(esc(label))</text>"
      )
    }
    var legend: [String] = []
    var verdictNotes: [String] = []
    let verdicts = Dictionary(
      result.newest.filter { $0.verdict == .regression || $0.verdict == .improvement }
        .map { ($0.key, $0) }
    ) { first, _ in first }
    for (n, s) in series.enumerated() {
      let color = Self.palette[n % Self.palette.count]
      let points = s.points.compactMap { p in index[p.run.id].map { (i: $0, p: p) } }
      let path = points.map { "\(f(x($0.i))),\(f(y($0.p.value)))" }.joined(separator: " ")
      svg.append("<polyline fill='none' stroke='\(color)' stroke-width='1.8' points='\(path)'/>")
      for point in points {
        svg.append(
          "<circle cx='\(f(x(point.i)))' cy='\(f(y(point.p.value)))' r='3' fill='\(color)'><title>"
            + "\(esc(point.p.run.shortCommit)): \(esc(s.key.strategy)) \(s.key.size) — \(Self.seconds(point.p.value))"
            + (point.p.interval.map { " [\(Self.seconds($0.lowerBound))–\(Self.seconds($0.upperBound))]" }
              ?? "")
            + ", n=\(point.p.n)</title></circle>")
      }
      // The newest commit's verdict where it is not "unchanged": a ring on its point and a line under the chart.
      if let verdict = verdicts[s.key], let last = points.last, last.p.run.id == verdict.run.id {
        let regressed = verdict.verdict == .regression
        let mark = regressed ? "#b00020" : "#2a7a2a"
        let label = "\(regressed ? "regressed" : "improved") ×\(HistoryCheck.Result.ratio(verdict.ratio ?? 1))"
        svg.append(
          "<circle cx='\(f(x(last.i)))' cy='\(f(y(last.p.value)))' r='8' fill='none' stroke='\(mark)' stroke-width='2'/>"
        )
        svg.append(
          "<text x='\(f(x(last.i) - 10))' y='\(f(y(last.p.value) - 12))' font-size='11' fill='\(mark)' \(Self.halo) "
            + "text-anchor='end'>#\(n + 1) \(label)</text>")
        verdictNotes.append(
          "<li class=\(regressed ? "step" : "ok")>newest commit \(esc(verdict.run.shortCommit)): #\(n + 1) "
            + "\(esc(s.key.strategy)) · \(s.key.size) \(label) against \(verdict.baseline) earlier runs "
            + String(format: "(z = %.1f, p = %.2g)", verdict.z ?? 0, verdict.p ?? 1) + "</li>")
      }
      // A class from a report carries its evidence ("survives power loss (measured: … in 50 cuts …)"); one
      // from the rows alone is declared.
      let durability =
        classes[s.key.strategy].map {
          $0.durability.hasSuffix(")") ? $0.durability : "\($0.durability) (declared)"
        } ?? "class not reported"
      legend.append(
        "<li><span class=swatch style='background:\(color)'></span><b>#\(n + 1)</b> \(esc(s.key.strategy)) · \(s.key.size)"
          + (s.key.parameters.isEmpty ? "" : " (\(esc(s.key.parameters)))") + " — \(esc(durability))"
          + countsText(of: s.key) + "</li>")
    }
    svg.append("</svg>")
    var table = [
      "<details\(runs.count <= 20 ? " open" : "")><summary>values (median time per commit)</summary><table><tr><th>row</th>"
        + runs.map { "<th>\(esc($0.shortCommit))</th>" }.joined() + "</tr>"
    ]
    // Rows named by their legend number and backend (the full names are in the legend, and on hover).
    for (n, s) in series.enumerated() {
      let byRun = Dictionary(s.points.map { ($0.run.id, $0.value) }) { first, _ in first }
      table.append(
        "<tr><td title='\(esc(s.key.strategy)) · \(s.key.size)'><b>#\(n + 1)</b> \(esc(s.key.backend))</td>"
          + runs.map { "<td>\(byRun[$0.id].map(Self.seconds) ?? "")</td>" }.joined() + "</tr>")
    }
    table.append("</table></details>")
    let stepNotes = allSteps.map {
      "<li class=step>step at \(esc($0.first.shortCommit)): \(esc($0.key.strategy)) · \($0.key.size), "
        + "\($0.key.metric.label) " + HistoryCheck.Result.levels($0.levels, metric: $0.key.metric) + "×"
        + "\(HistoryCheck.Result.ratio($0.ratio)) [\(HistoryCheck.Result.ratio($0.interval.lowerBound))–\(HistoryCheck.Result.ratio($0.interval.upperBound))]</li>"
    }
    return "<h3>\(esc(workload))</h3>\n" + svg.joined(separator: "\n") + "\n<ul class=legend>" + legend.joined()
      + stepNotes.joined()
      + verdictNotes.joined()
      + "</ul>\n" + table.joined(separator: "\n")
  }

  /// The newest counted costs of the row, per operation ("; newest: 1 sync, 4.1 kB written per op").
  private func countsText(of key: HistorySeries.Key) -> String {
    var parts: [String] = []
    for metric in HistorySeries.Metric.allCases where metric.isCount {
      var countKey = key
      countKey.metric = metric
      guard let value = countSeries[countKey]?.points.last?.value else { continue }
      switch metric {
      case .writtenBytes:
        parts.append(
          value >= 1024
            ? String(format: "%.1f KiB written", value / 1024) : String(format: "%.0f B written", value))
      case .syncs: parts.append(String(format: "%.3g ", value) + (value == 1 ? "sync" : "syncs"))
      case .filesCreated:
        parts.append(String(format: "%.3g ", value) + (value == 1 ? "file created" : "files created"))
      case .renames: parts.append(String(format: "%.3g ", value) + (value == 1 ? "rename" : "renames"))
      case .instructions: parts.append(String(format: "%.0f instructions", value))
      case .allocations: parts.append(String(format: "%.3g ", value) + (value == 1 ? "allocation" : "allocations"))
      case .time: break
      }
    }
    return parts.isEmpty ? "" : "; newest, per operation: " + parts.joined(separator: ", ")
  }

  /// Gridline values for a log axis spanning `range` (log10 of seconds): 1, 2, 5 per decade, and finer (1–9, then
  /// 1.0–9.5 in halves) when the range is too narrow to hold three of those.
  static func ticks(_ range: ClosedRange<Double>) -> [Double] {
    let mantissas: [[Double]] = [
      [1, 2, 5], Array(1...9).map(Double.init), stride(from: 1.0, to: 10, by: 0.5).map { $0 },
    ]
    var chosen: [Double] = []
    for candidates in mantissas {
      chosen = (Int(floor(range.lowerBound))...Int(ceil(range.upperBound))).flatMap { exponent in
        candidates.map { $0 * pow(10, Double(exponent)) }
      }.filter { range.contains(log10($0)) }
      if chosen.count >= 3 { break }
    }
    return chosen
  }

  static func seconds(_ value: Double) -> String {
    switch value {
    case 1...: String(format: "%.3g s", value)
    case 1e-3...: String(format: "%.3g ms", value * 1e3)
    default: String(format: "%.3g µs", value * 1e6)
    }
  }

  private func f(_ value: Double) -> String { String(format: "%.1f", value) }

  private func esc(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "'", with: "&#39;")
      .replacingOccurrences(of: "\"", with: "&quot;")
  }
}
