import Foundation
import StoreBenchAnalysis
import StoreBenchContract

/// A finished run directory read whole for the history: its identity (commit, machine, scenario, datasets, library
/// versions, repetition policy), every summary and sample row with its own column table, and the crash results
/// beside it. Nothing is dropped, so any statistic can be recomputed from the history later.
public struct RunRecord: Sendable {
  /// Who and where: what decides which runs may be compared.
  public struct Identity: Sendable, Equatable {
    /// The commit without the `+dirty` mark.
    public var commit: String
    public var dirty: Bool
    public var branch: String?
    /// When the commit was made (seconds since 1970), when git knows the commit; nil otherwise.
    public var commitTime: Double?
    public var startedAt: String
    public var finishedAt: String?
    public var host: String
    public var cpuModel: String
    public var cores: Int
    public var memoryBytes: Int64
    public var kernel: String
    public var fileSystem: String
    public var scenarioName: String
    public var scenarioHash: String
    /// JSON objects as the run wrote them.
    public var libraries: String
    public var repetitionPolicy: String

    /// The name the user gave the machine (`history add --machine`), when one was given.
    public var machineName: String?

    /// The machine key: runs are compared only on the same host, CPU, core count, memory, kernel and file system,
    /// or — when the user named the machine — on the same name (`name:` and the name), whatever the host.
    public var machine: String {
      if let machineName { return HistoryRun.namedMachinePrefix + machineName }
      var hash = FNV1a()
      for part in [host, cpuModel, String(cores), String(memoryBytes), kernel, fileSystem] { hash.combine(part) }
      return hash.hex
    }

    /// Throws unless `name` can name a machine: 1–100 characters, no control characters.
    public static func validateMachineName(_ name: String) throws {
      guard !name.trimmingCharacters(in: .whitespaces).isEmpty, name.count <= 100,
        !name.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
      else {
        throw HistoryError(
          .badArgument,
          "machine name \(name.debugDescription): give 1 to 100 characters, no control characters")
      }
    }
  }

  /// One CSV row: its cells by column name (the run's own column table).
  public typealias Cells = [String: String]

  public var identity: Identity
  /// A fingerprint of the run's files: the same run added twice has the same one.
  public var fingerprint: String
  public var source: String
  public var environmentJSON: String
  public var summaryColumns: [String]
  public var summary: [Cells]
  public var sampleColumns: [String]
  public var samples: [Cells]
  /// durability.csv beside the run, when a crash step wrote one.
  public var durability: [Cells]
  /// classes.csv beside the run (the report's durability classes), when present.
  public var classes: [Cells]
  /// Why the run is partial (interrupted, failed rows), or nil when it is complete.
  public var partialReason: String?

  /// Reads `directory`. `commitTime` answers when a commit was made (git, when the repository has it); `machineName`
  /// names the machine (the series key) in place of its host, CPU, cores, memory, kernel and file system; `columns`
  /// are the invocation's (a workload's declared columns are checked by unit as the standard ones are).
  public init(
    directory: String, machineName: String? = nil, commitTime: (String) -> Double? = { _ in nil },
    branch: (String) -> String? = { _ in nil }, columns: ColumnSet = .standard
  ) throws {
    if let machineName { try Identity.validateMachineName(machineName) }
    let folder: RunFolder
    do {
      folder = try RunFolder(directory, columns: columns)
    } catch let error as RunFolderError {
      throw HistoryError(.notARun, error.message)
    }
    guard let environment = (try? JSONSerialization.jsonObject(with: folder.environmentData)) as? [String: Any]
    else {
      throw HistoryError(.notARun, "\(directory)/environment.json: not a JSON object")
    }
    func json(_ key: String) -> String {
      guard let value = environment[key], JSONSerialization.isValidJSONObject(value),
        let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
      else { return "{}" }
      return String(decoding: data, as: UTF8.self)
    }
    let typed = folder.environment
    let commitText = typed.gitCommit ?? "unknown"
    let commit = commitText.hasSuffix("+dirty") ? String(commitText.dropLast(6)) : commitText
    identity = Identity(
      commit: commit, dirty: commitText.hasSuffix("+dirty"), branch: branch(commit),
      commitTime: commitTime(commit), startedAt: typed.startedAt ?? "unknown", finishedAt: typed.finishedAt,
      host: typed.host ?? "unknown", cpuModel: typed.cpuModel ?? "unknown", cores: typed.cores ?? 0,
      memoryBytes: typed.memoryBytes ?? 0, kernel: typed.kernel ?? "unknown",
      fileSystem: typed.workdirFileSystem ?? "unknown", scenarioName: typed.scenarioName ?? "unknown",
      scenarioHash: typed.scenarioHash ?? "unknown", libraries: json("libraries"),
      repetitionPolicy: json("repetition_policy_values"), machineName: machineName)
    self.source = folder.url.path
    environmentJSON = String(decoding: folder.environmentData, as: UTF8.self)
    summaryColumns = folder.summary.header
    summary = folder.summary.cells
    sampleColumns = folder.samples.header
    samples = folder.samples.cells
    durability = folder.durability?.cells ?? []
    classes = folder.classes?.cells ?? []

    var fingerprint = FNV1a()
    for name in ["environment.json", "summary.csv", "samples.csv"] {
      fingerprint.combine(
        bytes: FileManager.default.contents(atPath: folder.url.appendingPathComponent(name).path) ?? Data())
      fingerprint.combine(name)
    }
    self.fingerprint = fingerprint.hex
    partialReason = folder.partialReason
  }

  /// The dataset fingerprint of each summary row (its samples' `dataset` cell, the same for every repetition), by
  /// ``RowKey/joinKey``.
  public var datasets: [String: String] {
    var result: [String: String] = [:]
    for sample in samples {
      let key = RowKey(cells: sample).joinKey
      if result[key] == nil { result[key] = sample[.dataset] ?? "" }
    }
    return result
  }
}
