import Foundation

/// What a scenario's data will cost before any of it is made: memory for the generated data sets, disk for the
/// largest store, and time to generate them — measured on a sample of the same generator on this machine, so the
/// bound moves with it. A scenario (or an app profile, which becomes one) that would need more than
/// ``share`` of the memory available or of the work directory's free space, or whose data generation plus a floor of
/// one repetition per row already exceeds its budget, is refused with the numbers before anything runs.
public struct ResourceBound: Sendable {
  /// Generated records over every distinct data set, weighted by record size (``RunPlan``'s count).
  public var records: Int
  /// The largest single data set (weighted records): what one store holds.
  public var largestDataset: Int
  /// The weighted records of each row (case): what each row's store is filled with.
  public var rowRecords: [Int]
  /// Bytes one default-sized record takes in memory once generated, measured.
  public var memoryBytesPerRecord: Double
  /// Seconds to generate one default-sized record here, measured.
  public var generationSecondsPerRecord: Double

  public init(
    records: Int, largestDataset: Int, rowRecords: [Int], memoryBytesPerRecord: Double,
    generationSecondsPerRecord: Double
  ) {
    self.records = records
    self.largestDataset = largestDataset
    self.rowRecords = rowRecords
    self.memoryBytesPerRecord = memoryBytesPerRecord
    self.generationSecondsPerRecord = generationSecondsPerRecord
  }

  /// How much of the memory available or the free disk a run may plan to use.
  public static let share = 0.8
  /// A store on disk takes its records' bytes several times over (indexes, journals, a retired store waiting to be
  /// deleted beside the next): the disk estimate's factor over the data's own bytes.
  static let diskFactor = 4.0
  /// Records generated to measure the rates.
  static let sampleRecords = 4_000

  /// Measures the rates on a sample and sums the cases' data sets.
  public static func estimate(
    _ cases: [RunPlan.PlannedCase],
    seed: UInt64
  ) -> ResourceBound {
    var datasets: [String: Int] = [:]
    for item in cases { datasets["\(item.workload) \(item.parameters)"] = item.records }
    let generator = DatasetGenerator(seed: seed)
    let start = monotonicNanoseconds()
    let sample = generator.articles(count: sampleRecords)
    let seconds = Double(monotonicNanoseconds() - start) / 1e9
    // Text as UTF-8 plus Swift's per-record cost: the struct, three string headers and their allocations.
    let textBytes = sample.reduce(0) { $0 + $1.uid.utf8.count + $1.title.utf8.count + $1.summary.utf8.count }
    return ResourceBound(
      records: datasets.values.reduce(0, +), largestDataset: datasets.values.max() ?? 0,
      rowRecords: cases.map(\.records),
      memoryBytesPerRecord: Double(textBytes) / Double(sampleRecords) + 160,
      generationSecondsPerRecord: seconds / Double(sampleRecords))
  }

  /// Memory the generated data sets need at once (each case's data is made once and kept for its rows), with room
  /// for one copy while a store is filled.
  public var memoryBytes: Double { Double(records) * memoryBytesPerRecord * 2 }
  /// A kept store (a case's template, or the filled store of a workload that leaves it unchanged) over its data's
  /// own bytes: rows run interleaved, so every row's kept store is on disk at once.
  static let keptFactor = 2.0
  /// Disk the largest store needs while a run keeps it and its predecessor, plus every row's kept store.
  public var diskBytes: Double {
    Double(largestDataset) * memoryBytesPerRecord * Self.diskFactor
      + Double(rowRecords.reduce(0, +)) * memoryBytesPerRecord * Self.keptFactor
  }
  /// Time to generate every data set.
  public var generationSeconds: Double { Double(records) * generationSecondsPerRecord }
  /// A floor on one repetition of every row: each row's repetition fills its own store with the row's records and
  /// reads every one back to verify them, at least twice the work of generating them.
  public var repetitionFloorSeconds: Double { Double(rowRecords.reduce(0, +)) * generationSecondsPerRecord * 2 }

  /// Throws a ``ScenarioError`` with the numbers when the scenario cannot fit (see the type).
  public func check(file: String, memoryAvailable: Double?, diskFree: Double?, budgetSeconds: Double?) throws {
    func size(_ bytes: Double) -> String {
      ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .binary)
    }
    // A need above the share of what the machine has: refused with both numbers, what they come from and a way out.
    func refuse(
      _ need: String, _ bytes: Double, _ basis: String, of available: Double, _ what: String, _ fix: String
    )
      -> ScenarioError
    {
      ScenarioError(
        file: file, path: "workloads",
        message: "\(need) would need about \(size(bytes)) \(basis); \(Int(Self.share * 100))% of \(what) "
          + "\(size(available)) is \(size(available * Self.share)). \(fix)")
    }
    if let memoryAvailable, memoryBytes > memoryAvailable * Self.share {
      throw refuse(
        "the data sets", memoryBytes,
        "of memory (\(records) records at \(Int(memoryBytesPerRecord)) bytes each, twice over while a store is filled)",
        of: memoryAvailable, "the available", "Lower the sizes")
    }
    if let diskFree, diskBytes > diskFree * Self.share {
      throw refuse(
        "the stores", diskBytes,
        "on the work directory's disk (the largest \(largestDataset) records, and every row's kept store)",
        of: diskFree, "its free", "Lower the sizes or choose another --workdir")
    }
    if let budgetSeconds, generationSeconds + repetitionFloorSeconds > budgetSeconds {
      throw ScenarioError(
        file: file, path: "budget",
        message: "generating the data takes about "
          + "\(MarkdownTable.clock(generationSeconds)) here and one repetition of every row at least "
          + "\(MarkdownTable.clock(repetitionFloorSeconds)) more, over the run's budget of \(MarkdownTable.clock(budgetSeconds)); "
          + "lower the sizes or raise the budget")
    }
  }

  /// The dry run's line: what the data costs before the first repetition.
  public var description: String {
    func size(_ bytes: Double) -> String {
      ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .binary)
    }
    return
      "data: \(records) generated records (weighted by size), about \(size(memoryBytes)) of memory, the stores "
      + "(the largest, and every row's kept filled store) about \(size(diskBytes)) on disk; generating it about "
      + "\(MarkdownTable.clock(generationSeconds)) here"
  }
}
