import ArgumentParser
import Foundation
import StoreBenchCore

/// docs/COMPARING.md's power table (`<!-- generated:gate-power power=results/gate-power -->`), rendered from
/// `scripts/gate-power`'s committed output: per gate and row, how many jobs caught each planted size, the A/A false
/// alarms and the minutes a job took, with the settings, machine and commit the output records.
enum GatePowerTable {
  static func render(_ folder: URL, link: String) throws -> [String] {
    let power = try CSVFormat.decode(
      String(contentsOf: folder.appendingPathComponent("power.csv"), encoding: .utf8))
    let settings =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: folder.appendingPathComponent("power.json"))) as? [String: Any] ?? [:]
    func column(_ name: String) throws -> Int {
      guard let index = power.header.firstIndex(of: name) else {
        throw ValidationError("\(folder.path)/power.csv has no \(name) column")
      }
      return index
    }
    let (gate, row, kind, planted, jobs, detected, falseAlarms, minutes) = (
      try column("gate"), try column("row"), try column("kind"), try column("planted"), try column("jobs"),
      try column("detected"), try column("false_alarms"), try column("minutes_per_job")
    )
    let sizes = (settings["sizes"] as? [Double] ?? []).map { String(format: "%.2f", $0) }
    var order: [String] = []
    var cells: [String: [String: [String]]] = [:]
    for line in power.rows {
      let name = "\(line[gate])\u{1F}\(line[row])\u{1F}\(line[kind])"
      if cells[name] == nil { order.append(name) }
      cells[name, default: [:]][line[planted]] = line
    }
    let percent = { (text: String) in "\(Int(((Double(text) ?? 0) * 100).rounded()))%" }
    let commit = String(describing: settings["git_commit"] ?? "?")
    let commitText =
      String(commit.prefix(7)) + (commit.hasSuffix("+dirty") ? " with local changes (the binary of this work)" : "")
    var lines = [
      "`scripts/gate-power --jobs \(settings["jobs"] ?? "?") --rounds \(settings["rounds"] ?? "?")` on "
        + "`\(settings["scenario_file"] ?? "?")`, \(settings["date"] ?? "?"), commit \(commitText), "
        + "\(settings["cores"] ?? "?") cores "
        + "(\(settings["cpu_model"] ?? "?")); [output](\(link)/power.csv). A cell is the jobs that called the "
        + "planted regression a regression, of the jobs run; A/A is the jobs that called an unchanged row a "
        + "regression or an improvement.",
      "",
      "| gate | row | " + sizes.map(percent).joined(separator: " | ") + " | A/A false alarms | minutes a job |",
      "|---|---|" + String(repeating: "---:|", count: sizes.count + 2),
    ]
    for name in order {
      let parts = name.split(separator: "\u{1F}").map(String.init)
      let bySize = cells[name]!
      let aa = bySize["0.00"]
      let judged = { (line: [String]?) -> String in
        guard let line, let count = Int(line[jobs]), count > 0 else { return "–" }
        return "\(line[detected])/\(count)"
      }
      // A row no job could judge (a read-only row has no sync to add a share of) has no cost either.
      let minuteValues = bySize.values.filter { (Int($0[jobs]) ?? 0) > 0 }.compactMap { Double($0[minutes]) }
      lines.append(
        "| \(parts[0]) | \(parts[1]) (\(parts[2])) | "
          + sizes.map { judged(bySize[$0]) }.joined(separator: " | ") + " | "
          + (aa.flatMap { line in Int(line[jobs]).flatMap { $0 > 0 ? "\(line[falseAlarms])/\($0)" : nil } } ?? "–")
          + " | "
          + (minuteValues.isEmpty
            ? "–" : String(format: "%.1f", minuteValues.reduce(0, +) / Double(minuteValues.count))) + " |")
    }
    return lines
  }
}
