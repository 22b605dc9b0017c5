import Foundation
import StoreBenchContract
import StoreBenchMeasure

/// `report.md`: one file that tells a run's story — the summary table, the charts, the environment.
public enum RunReport {
  /// PNG charts in `directory`, sorted by name (empty when there is none).
  public static func charts(in directory: URL) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".png") }.sorted()
  }

  public static func markdown(
    summary: String, environment: [String: Any]?, charts: [String],
    decision: DecisionReport? = nil, crashFiles: [String] = [], powerCut: [String] = []
  ) -> String {
    var lines = [ClaimSyntax.renderedMarker("report"), "# storebench run", ""]
    if let environment {
      let scenario = environment["scenario_name"] ?? "?"
      lines.append(
        "Scenario `\(scenario)`, seed \(environment["seed"] ?? "?"), \(environment["build_configuration"] ?? "?") build, "
          + "started \(environment["started_at"] ?? "?").")
      if let interrupted = environment["interrupted"] {
        lines.append("**Interrupted** (\(interrupted)): the rows are incomplete.")
      }
      lines.append("")
    }
    if let decision {
      lines += [decision.answer]
      lines += [
        crashFiles.isEmpty
          ? "_Durability: declared classes only (no `storebench crash` results in this folder; see `storebench report --help`)._"
          : "_Durability measured by `storebench crash`: \(crashFiles.map { "`\($0)`" }.joined(separator: ", "))._",
        "",
      ]
    }
    lines += powerCut
    if charts.contains("overview.png") { lines += ["![overview](charts/overview.png)", ""] }
    lines += ["## Summary", "", summary]
    if let decision {
      lines += [decision.rankings]
      lines += [decision.costs(notCounted: notCountedReason(environment))]
      let figures = decision.figures
      if !figures.isEmpty { lines.append(figures) }
    }
    if charts.isEmpty {
      lines += ["_No charts: run `scripts/plot` on this directory to draw them._", ""]
    } else {
      lines += ["## Charts", ""]
      for chart in charts where chart != "overview.png" {
        let title = chart.replacingOccurrences(of: ".png", with: "").replacingOccurrences(of: "-", with: " ")
        lines += ["![\(title)](charts/\(chart))", ""]
      }
    }
    if let environment {
      lines += ["## Environment", "", "| | |", "|---|---|"]
      for key in [
        "host", "cpu_model", "cores", "memory_bytes", "kernel", "workdir_filesystem", "swift_version",
        "build_configuration", "storebench_version", "git_commit", "scenario_file", "scenario_hash",
      ] {
        lines.append("| \(key) | \(environment[key].map { "\($0)" } ?? "–") |")
      }
      if let libraries = environment["libraries"] as? [String: String] {
        for (name, version) in libraries.sorted(by: { $0.key < $1.key })
        where !name.hasSuffix("compile_options") {
          lines.append("| \(name) | \(version) |")
        }
      }
      if let warnings = environment["warnings"] as? [String], !warnings.isEmpty {
        lines += ["", "**Warnings:** " + warnings.joined(separator: "; ")]
      }
      lines.append("")
    }
    return lines.joined(separator: "\n")
  }

  /// Why the run counted no syncs (environment.json's reason), nil when it did.
  static func notCountedReason(_ environment: [String: Any]?) -> String? {
    guard let counters = CostCounters.Availability(environment: environment) else {
      return "a run from before counting"
    }
    if counters.counted.contains(.syncs) { return nil }
    return counters.missing[CountedCost.syncs.rawValue] ?? "syncs were not counted"
  }
}
