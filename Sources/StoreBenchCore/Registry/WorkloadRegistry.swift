/// The workloads a runner may use, by name; built by the caller and passed in (no global registry).
public struct WorkloadRegistry: Sendable {
  public private(set) var workloads: [any Workload] = []
  /// The columns of the files its runs write: the standard ones and every workload's own (``Workload/columns``).
  public private(set) var columns = ColumnSet.standard
  /// The kinds of workload file a scenario may name (`sql`), by their key.
  public private(set) var fileReaders: [any WorkloadFileReader] = []

  public init(_ workloads: [any Workload] = [], fileReaders: [any WorkloadFileReader] = []) {
    self.fileReaders = fileReaders
    for workload in workloads { register(workload) }
  }

  /// Adds a workload. Names are unique; registering a name twice is a programming error.
  public mutating func register(_ workload: any Workload) {
    do {
      try add(workload)
    } catch {
      preconditionFailure("\(error)")
    }
  }

  /// Adds a workload; throws when its name is taken or reserved (a name with `:` is a workload file's, as
  /// `sql:…`), or a column it declares cannot be one (``ColumnSet/init(declaring:)``).
  public mutating func add(_ workload: any Workload) throws { try add(workload, fromFile: false) }

  private mutating func add(_ workload: any Workload, fromFile: Bool) throws {
    guard self[workload.name] == nil else {
      throw RegistrationError(
        description: "a workload named '\(workload.name)' is already registered; give yours a name of its own")
    }
    guard !workload.name.isEmpty, !workload.name.contains(":") || fromFile else {
      throw RegistrationError(
        description: "the workload name '\(workload.name)' is reserved (a name with ':' is a workload file's, as sql:…)"
      )
    }
    if !workload.columns.isEmpty {
      do {
        columns = try ColumnSet(declaring: columns.declared + workload.columns)
      } catch {
        throw RegistrationError(description: "the workload '\(workload.name)': \(error)")
      }
    }
    workloads.append(workload)
  }

  /// The figures each workload declares for the decision report (``Workload/figures``), by name.
  public var figures: [String: WorkloadFigures] {
    Dictionary(workloads.compactMap { workload in workload.figures.map { (workload.name, $0) } }) { first, _ in
      first
    }
  }

  /// This registry with `workloads` added (a name it already holds is kept as it is).
  public func including(_ workloads: [any Workload]) -> WorkloadRegistry {
    var registry = self
    for workload in workloads where registry[workload.name] == nil { registry.register(workload) }
    return registry
  }

  /// This registry with the workloads of `files` (a name it already holds is kept as it is).
  public func including(files: [WorkloadFile]) -> WorkloadRegistry {
    var registry = self
    for workload in files.flatMap(\.workloads) where registry[workload.name] == nil {
      do {
        try registry.add(workload, fromFile: true)
      } catch {
        preconditionFailure("\(error)")
      }
    }
    return registry
  }

  public subscript(name: String) -> (any Workload)? { workloads.first { $0.name == name } }

  public var names: [String] { workloads.map(\.name) }
}
