import StoreBenchCore
import StoreBenchSQLWorkloads
import StoreBenchSharing

extension WorkloadRegistry {
  /// Every shipped workload: Core's, the sharing feature's (`shared`), and the `sql` workload files' reader.
  public static var standard: WorkloadRegistry {
    WorkloadRegistry(
      [
        InsertWorkload(), MarkReadWorkload(), TimelineWorkload(), LookupWorkload(), UIDSetWorkload(),
        DeleteWorkload(), QueryWorkload(), SearchWorkload(), SyncWhileReadingWorkload(), SharedWorkload(),
        SettingsWorkload(), CacheWorkload(),
        LaunchTimelineWorkload(cold: true), LaunchTimelineWorkload(cold: false), ProcessSpawnWorkload(),
        EditWorkload(), LaunchListWorkload(cold: true), LaunchListWorkload(cold: false), AgingWorkload(),
        MigrateWorkload(), TagQueryWorkload(), TagEditWorkload(),
        OpenParentWorkload(), ParentListWorkload(cold: true), ParentListWorkload(cold: false),
        ParentSaveWorkload(), ParentReadWorkload(), FieldUpdateWorkload(),
      ], fileReaders: [SQLWorkloadFileReader()])
  }
}
