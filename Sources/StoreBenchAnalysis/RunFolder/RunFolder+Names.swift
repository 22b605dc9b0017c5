import Foundation

extension RunFolder {
  /// Files and directories a storebench run, report, chart or crash run writes (a run folder from before manifests):
  /// its own, and the workloads' tables of that time (`aging`'s `rounds.csv`).
  public static let reportNames = ownNames + ["rounds.csv"]
  /// The files a run, report, chart or crash run writes itself: no workload's table may take one of these names.
  public static let ownNames = [
    "samples.csv", "summary.csv", "summary.json", "environment.json", "report.md", "charts",
    "durability.csv", "durability.environment.json", "classes.csv",
    "samples.csv.partial", "summary.csv.partial",
    "environment.json.partial",
  ]
}
