/// The store after one round of the `aging` workload: a row of `rounds.csv` (one per round of every measured
/// repetition), so growth and slowdown can be followed round by round and drawn.
public struct AgingRound: Sendable, Equatable {
  /// 0 after the load, 1…R after each round of churn, R + 1 after compaction.
  public var round: Int
  /// `loaded`, `churned` or `compacted`.
  public var phase: String
  /// The records the store holds.
  public var records: Int
  /// The store directory's file lengths and allocated blocks.
  public var storeBytes: Int64
  public var allocatedBytes: Int64
  /// What the library says is free inside its files (nil where it cannot say), and its own figures.
  public var freeBytes: Int64?
  public var freeDetail: String
  /// One read of the launch list (the newest S records) on the open store, in seconds.
  public var listSeconds: Double

  public init(
    round: Int, phase: String, records: Int, storeBytes: Int64, allocatedBytes: Int64, freeBytes: Int64?,
    freeDetail: String, listSeconds: Double
  ) {
    (self.round, self.phase, self.records) = (round, phase, records)
    (self.storeBytes, self.allocatedBytes, self.freeBytes) = (storeBytes, allocatedBytes, freeBytes)
    (self.freeDetail, self.listSeconds) = (freeDetail, listSeconds)
  }

  /// The round's own columns of `rounds.csv` (after the row's key, ``WorkloadTableKey``).
  public static let columns = [
    "round", "phase", "records", SampleColumn.storeBytes.rawValue, SampleColumn.storeAllocatedBytes.rawValue,
    "free_bytes", "free_detail", "list_s",
  ]

  /// This round's cells, in ``columns``' order.
  public var cells: [String] {
    [
      String(round), phase, String(records), String(storeBytes), String(allocatedBytes),
      freeBytes.map(String.init) ?? "", freeDetail, CSVFormat.seconds(listSeconds),
    ]
  }
}

/// The columns every row of a workload's own table starts with (``Sample/tableRows``): the row and repetition it
/// belongs to, then the workload's own columns (`rounds.csv`: `workload,backend,variant,parameters,repetition,round,…`).
public enum WorkloadTableKey {
  public static let columns = ["workload", "backend", "variant", "parameters", "repetition"]

  public static func cells(_ key: RowKey, repetition: Int) -> [String] {
    [key.workload, key.backend, key.variant, key.parameters, String(repetition)]
  }
}
