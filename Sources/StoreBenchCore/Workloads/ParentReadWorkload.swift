/// `parent-read`: with M records in P parents stored (`unread_percent` of them unread), mark `count` parents read, one
/// app operation each — opening a conversation marks it read, "mark folder as read" in a mail or reader app: every
/// record of the parent gets `read`, committed as the strategy commits an operation (``ParentStore/markParentRead(_:)``
/// in a unit of work). The parents are distinct, chosen by activity (busy ones more often).
public struct ParentReadWorkload: Workload {
  public init() {}
  public let name = "parent-read"
  public let smokeParameters = ["stored": 300, "parents": 12, "parent_skew": 100, "count": 4, "users": 20]
  public let summary = "with M records in P parents stored, mark N distinct parents read, one app operation each"
  public let sizeParameter = ParameterName.stored
  public let requires: StoreRoles = .parents
  public let parameters =
    [.count(10, "parents marked read, one app operation each", max: 1_000_000)] + ParentedRecords.parameters

  public func validate(_ parameters: WorkloadParameters) throws {
    try ParentedRecords.validate(parameters)
    guard parameters[.count] <= parameters[.parents] else {
      throw ParameterError("count (\(parameters[.count])) must not exceed parents (\(parameters[.parents]))")
    }
  }

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    let data = ParentedRecords(parameters, generator: generator)
    // Distinct parents by activity: draws until `count` different ones came up (then the rest in id order, when
    // every active parent is already chosen).
    var chosen: [Int64] = []
    var seen = Set<Int64>()
    let wanted = parameters[.count]
    for parent in data.choices(wanted * 20, generator: generator, salt: 0x7265_6164)
    where chosen.count < wanted && seen.insert(parent).inserted {
      chosen.append(parent)
    }
    for parent in data.parents.map(\.id) where chosen.count < wanted && seen.insert(parent).inserted {
      chosen.append(parent)
    }
    return Case(data, marked: chosen)
  }

  final class Case: WorkloadCase {
    let data: ParentedRecords
    let marked: [Int64]
    let expected: ParentTable
    let recordBytesWritten: Int64?
    let fingerprint: String

    init(_ data: ParentedRecords, marked: [Int64]) {
      self.data = data
      self.marked = marked
      var table = data.reference
      var bytes: Int64 = 0
      for parent in marked {
        bytes += Int64((table.entries[parent] ?? []).filter { !$0.read }.reduce(0) { $0 + $1.payloadBytes })
        table.markRead(parent: parent)
      }
      expected = table
      recordBytesWritten = bytes
      var hash = FNV1a()
      hash.combine(data.fingerprint)
      for parent in marked { hash.combine(parent) }
      fingerprint = hash.hex
    }

    func prepare(_ run: Repetition) throws -> any ParentStore { try data.prepare(run) }

    func measure(_ store: any ParentStore, _ run: Repetition) throws -> Measured<Void> {
      try run.latencies.timeEach(marked) { parent in try store.unitOfWork { try store.markParentRead(parent) } }
      return Measured(ops: marked.count)
    }

    func verify(_: Void, _: any ParentStore, _ run: Repetition) throws -> String {
      try ParentedRecords.expectEntries(expected, in: run)
    }
  }
}
