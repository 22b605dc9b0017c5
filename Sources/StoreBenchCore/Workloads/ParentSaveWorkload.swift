import Foundation

/// `parent-save`: with M records in P parents stored, save `count` new records one at a time, each into a parent
/// chosen by activity — a chat receiving messages, a notes app saving a new note into a folder. Each save is one app
/// operation committed as the strategy commits one (``ParentStore/save(_:)`` in a unit of work), keeping whatever
/// index the store maintains; each new record is dated after every stored one, so it leads its parent and the list.
/// With `batch` B, every B records are one app operation in one unit of work (a feed refresh storing its new
/// episodes), and the row's `ops` counts those operations.
public struct ParentSaveWorkload: Workload {
  public init() {}
  public let name = "parent-save"
  public let smokeParameters = ["stored": 300, "parents": 12, "parent_skew": 100, "count": 10, "users": 20]
  public let summary =
    "with M records in P parents stored, save N new records one at a time, each into a parent (busy ones more often)"
  public let sizeParameter = ParameterName.stored
  public let requires: StoreRoles = .parents
  public let parameters =
    [
      .count(100, "records saved, one app operation each (or `batch` each)", max: 1_000_000),
      WorkloadParameter(
        .batch, default: 1, range: 1...100_000,
        summary: "records per app operation, each its own unit of work timed with its commit", optional: true),
    ] + ParentedRecords.parameters

  public func validate(_ parameters: WorkloadParameters) throws {
    try ParentedRecords.validate(parameters)
    try OperationBatches.validate(parameters)
  }

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    let data = ParentedRecords(parameters, generator: generator)
    let stored = data.entries.count
    let users = UInt64(data.authors.count)
    let shape = generator.shape
    let saves = data.choices(parameters[.count], generator: generator, salt: 0x7361_7665).enumerated().map {
      index, parent in
      var rng = SplitMix64.forItem(seed: generator.seed ^ 0x7361_7665, stream: 12, index: index)
      return Entry(
        id: Int64(stored + index + 1), parent: parent, author: Int64(rng.next() % users) + 1,
        text: AwkwardText.paragraph(minimumBytes: shape.messageBytes, using: &rng),
        date: Date(millisecondsSince1970: ParentedRecords.epochMilliseconds + Int64(index + 1) * 1000),
        read: false)
    }
    return Case(data, saves: saves, batch: parameters.value(.batch) ?? 1)
  }

  final class Case: WorkloadCase {
    let data: ParentedRecords
    let saves: [Entry]
    /// The saves of each app operation, made before the clock.
    let operations: [ArraySlice<Entry>]
    let expected: ParentTable
    let recordBytesWritten: Int64?
    let fingerprint: String

    init(_ data: ParentedRecords, saves: [Entry], batch: Int) {
      self.data = data
      self.saves = saves
      operations = OperationBatches.ranges(count: saves.count, size: batch).map { saves[$0] }
      var table = data.reference
      for entry in saves { try! table.save(entry) }
      expected = table
      recordBytesWritten = saves.reduce(0) { $0 + Int64($1.payloadBytes) }
      var hash = FNV1a()
      hash.combine(data.fingerprint)
      hash.combine(Checksum.entries(saves))
      fingerprint = hash.hex
    }

    func prepare(_ run: Repetition) throws -> any ParentStore { try data.prepare(run) }

    func measure(_ store: any ParentStore, _ run: Repetition) throws -> Measured<Void> {
      try run.latencies.timeEach(operations) { operation in
        try store.unitOfWork { for entry in operation { try store.save(entry) } }
      }
      return Measured(ops: operations.count)
    }

    func verify(_: Void, _: any ParentStore, _ run: Repetition) throws -> String {
      try ParentedRecords.expectEntries(expected, in: run)
    }
  }
}
