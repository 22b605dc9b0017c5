import Foundation

extension RunOutput {
  /// What writes the folder.
  public enum Kind: String, CaseIterable, Sendable {
    case run, crash, advise, page

    var what: String {
      switch self {
      case .run: "storebench run"
      case .crash: "storebench crash run"
      case .advise: "storebench advise folder"
      case .page: "storebench trend page folder"
      }
    }

    /// The names this kind writes, by which a folder from before manifests is cleaned.
    public var legacyNames: [String] {
      switch self {
      case .run: RunFolder.reportNames
      case .crash: ["durability.csv", "durability.environment.json"]
      case .advise: ["profile.yaml", "scenario.yaml", "run", "durability.csv", "advice.md", "advice.json"]
      case .page: ["index.html"]
      }
    }

    /// What else a folder of this kind from before manifests may hold (written by scripts beside it: kept).
    var legacyCompanions: [String] { self == .page ? ["screenshot.png", "check.txt", "history.sqlite.gz"] : [] }

    /// Whether `folder`, which has no manifest, is an output of this kind written before manifests: recognised by
    /// content storebench writes (an environment file with its schema fields; a trend page's generator mark).
    func recognisesLegacy(_ folder: URL) -> Bool {
      func data(_ name: String) -> Data {
        FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) ?? Data()
      }
      switch self {
      case .run: return RunEnvironment.isStoreBenchRun(data("environment.json"))
      case .crash: return RunEnvironment.isStoreBenchRun(data("durability.environment.json"), crash: true)
      case .advise:
        let present = Set(RunOutput.contents(of: folder))
        return present.contains("profile.yaml") && present.contains("scenario.yaml")
          && RunEnvironment.isStoreBenchRun(data("run/environment.json"))
      case .page:
        let present = Set(RunOutput.contents(of: folder))
        let page = String(decoding: data("index.html"), as: UTF8.self)
        return present.isSubset(of: legacyNames + legacyCompanions)
          && (page.contains(OutputMarks.pageGenerator) || page.contains(OutputMarks.legacyPageHead))
      }
    }

    /// Kinds whose folders this kind may add to (`.adopt`): crash results belong beside a run (a previous crash
    /// folder needs `--force`); advise and page folders only to their own kind.
    var adopts: Set<String> { self == .crash ? ["run"] : [rawValue] }
  }
}
