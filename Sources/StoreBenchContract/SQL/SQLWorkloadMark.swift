/// The mark a SQL workload leaves in its SQLite file (`PRAGMA application_id`): a store opened on a marked file
/// holds the workload file's schema and does not create its own tables.
public enum SQLWorkloadMark {
    /// "SBSQ".
    public static let applicationID: Int32 = 0x5342_5351
}
