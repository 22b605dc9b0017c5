/// `open-parent`: open a parent `count` times — a chat opening a conversation, a notes app a folder: the newest
/// `limit` records of one parent with each of their authors (``ParentStore/openParent(_:limit:)``). Which parent is a
/// seeded choice weighted by activity (busy parents are opened more often). One open is one app operation; the
/// row's `query_plan` says how the store answered.
public struct OpenParentWorkload: Workload {
  public init() {}
  public let name = "open-parent"
  public let smokeParameters = ["stored": 300, "parents": 12, "parent_skew": 100, "count": 10, "users": 20]
  public let summary =
    "open a parent N times (busy ones more often): its newest L records with their authors, over M records in P parents"
  public let sizeParameter = ParameterName.stored
  public let requires: StoreRoles = .parents
  public let leavesStoreUnchanged = true
  public let parameters =
    [
      .count(100, "parents opened, one app operation each", max: 1_000_000),
      WorkloadParameter(.limit, default: 50, range: 1...10_000, summary: "records shown when a parent opens"),
    ] + ParentedRecords.parameters

  public func validate(_ parameters: WorkloadParameters) throws {
    try ParentedRecords.validate(parameters)
    guard parameters[.stored] > 0 else {
      throw ParameterError("stored must be above 0: a parent is opened for its records")
    }
  }

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    let data = ParentedRecords(parameters, generator: generator)
    return Case(
      data, opened: data.choices(parameters[.count], generator: generator, salt: 0x6f70_656e),
      limit: parameters[.limit])
  }

  final class Case: WorkloadCase {
    let data: ParentedRecords
    let opened: [Int64]
    let limit: Int
    let expected: [Int64: String]
    let fingerprint: String

    init(_ data: ParentedRecords, opened: [Int64], limit: Int) {
      self.data = data
      self.opened = opened
      self.limit = limit
      expected = Dictionary(
        uniqueKeysWithValues: Set(opened).map {
          ($0, Checksum.parentScreen(try! data.reference.screen(parent: $0, limit: limit)))
        })
      var hash = FNV1a()
      hash.combine(data.fingerprint)
      for parent in opened { hash.combine(parent) }
      hash.combine(Int64(limit))
      fingerprint = hash.hex
    }

    func prepare(_ run: Repetition) throws -> any ParentStore { try data.prepare(run) }

    func measure(_ store: any ParentStore, _ run: Repetition) throws -> Measured<[ParentScreen]> {
      let limit = limit
      var screens: [ParentScreen] = []
      screens.reserveCapacity(opened.count)
      try run.latencies.timeEach(opened) { parent in screens.append(try store.openParent(parent, limit: limit)) }
      return Measured(ops: opened.count, screens)
    }

    func verify(_ screens: [ParentScreen], _: any ParentStore, _ run: Repetition) throws -> String {
      var hash = FNV1a()
      for (index, screen) in screens.enumerated() {
        let checksum = Checksum.parentScreen(screen)
        guard screen.parent == opened[index], checksum == expected[screen.parent] else {
          throw VerificationError(
            "open \(index) of parent \(opened[index]) showed \(screen.entries.count) records and "
              + "\(screen.authors.count) authors, not the newest \(limit) with their authors")
        }
        hash.combine(checksum)
      }
      return hash.hex
    }
  }
}
