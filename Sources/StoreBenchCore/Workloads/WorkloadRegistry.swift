/// The workloads a runner may use, by name; built by the caller and passed in (no global registry).
public struct WorkloadRegistry: Sendable {
    public private(set) var workloads: [any Workload] = []

    public init(_ workloads: [any Workload] = []) {
        for workload in workloads { register(workload) }
    }

    /// Adds a workload; names are unique.
    public mutating func register(_ workload: any Workload) {
        precondition(self[workload.name] == nil, "workload \(workload.name) registered twice")
        workloads.append(workload)
    }

    /// This registry with the workloads `scenario` read from sql workload files.
    public func including(_ scenario: Scenario) -> WorkloadRegistry { including(scenario.sqlWorkloads) }

    /// This registry with `workloads` added (a name it already holds is kept as it is).
    public func including(_ workloads: [any Workload]) -> WorkloadRegistry {
        var registry = self
        for workload in workloads where registry[workload.name] == nil { registry.register(workload) }
        return registry
    }

    public subscript(name: String) -> (any Workload)? { workloads.first { $0.name == name } }

    public var names: [String] { workloads.map(\.name) }

    /// Every shipped workload.
    public static var standard: WorkloadRegistry {
        WorkloadRegistry([
            InsertWorkload(), MarkReadWorkload(), TimelineWorkload(), LookupWorkload(), UIDSetWorkload(),
            DeleteWorkload(), QueryWorkload(), SearchWorkload(), SyncWhileReadingWorkload(), SharedWorkload(),
            SettingsWorkload(), CacheWorkload(),
            LaunchTimelineWorkload(cold: true), LaunchTimelineWorkload(cold: false), ProcessSpawnWorkload(),
            EditWorkload(), LaunchListWorkload(cold: true), LaunchListWorkload(cold: false), AgingWorkload(),
            MigrateWorkload(), TagQueryWorkload(), TagEditWorkload(),
            OpenParentWorkload(), ParentListWorkload(cold: true), ParentListWorkload(cold: false),
            ParentSaveWorkload(), ParentReadWorkload(),
        ])
    }
}
