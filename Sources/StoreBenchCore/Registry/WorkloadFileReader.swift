/// A workload file a scenario names (`workloads: - sql: file.yaml`), read into the workloads it declares.
public struct WorkloadFile: Sendable {
  /// The path the scenario gave, resolved beside the scenario.
  public var path: String
  /// The FNV-1a hash of its bytes: it joins the scenario's hash, so `--resume` refuses a changed file.
  public var fileHash: String
  /// Its workloads, each named `<key>:…` (the reader's key): names no registered workload may take.
  public var workloads: [any Workload]

  /// The scenario key its reader reads it under (`sql`): the part of its workloads' names before the `:`.
  public var key: String { String(workloads.first?.name.prefix { $0 != ":" } ?? "") }

  public init(path: String, fileHash: String, workloads: [any Workload]) {
    self.path = path
    self.fileHash = fileHash
    self.workloads = workloads
  }
}

/// Reads one kind of workload file: a feature target implements it (the `sql` files, StoreBenchSQLWorkloads) and
/// the caller lists it in the ``WorkloadRegistry`` it passes in, so the scenario parser knows the key.
///
/// Contract: ``read(file:)`` checks the whole file before it returns (a bad file throws a ``ScenarioError`` naming
/// the file and the path inside it, and no store opens); every workload it returns is named `<key>:…`.
public protocol WorkloadFileReader: Sendable {
  /// The scenario key of a workload entry that names such a file (`sql`).
  var key: String { get }
  /// Reads, parses and checks the file at `path`.
  func read(file path: String) throws -> WorkloadFile
}
