/// The mark a SQL workload leaves in its SQLite file (`PRAGMA application_id`): a store opened on a marked file
/// holds the workload file's schema and does not create its own tables.
public enum SQLWorkloadMark {
  /// "SBSQ".
  public static let applicationID: Int32 = 0x5342_5351

  /// The tables a store's own schema made, for ``SQLStore/createSchema(_:)`` to drop: every table but SQLite's own,
  /// virtual ones first (dropping an FTS5 table drops its shadow tables and the triggers that feed it).
  public static let ownTables = """
    SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
    ORDER BY sql LIKE 'CREATE VIRTUAL%' DESC
    """
}
