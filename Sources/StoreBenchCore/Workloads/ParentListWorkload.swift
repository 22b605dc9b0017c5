import Foundation

/// `parent-list-cold` / `parent-list-warm`: the launch of an app whose first screen is its list of parents — a chat's
/// conversation list, a mail client's inbox: each parent with its newest record, newest first, the first `screen` of
/// them (``ParentStore/parentList(limit:)``). As for `list-cold`, the store is prepared and closed (for the cold one
/// its pages evicted), then a fresh `storebench child` opens it and loads the list; `wall_s` is spawn → list in memory.
public struct ParentListWorkload: Workload {
  public let cold: Bool

  public init(cold: Bool) { self.cold = cold }

  public var name: String { cold ? "parent-list-cold" : "parent-list-warm" }
  public var childJobs: [any ChildJob.Type] { [LaunchParentsJob.self] }
  public let smokeParameters = ["stored": 300, "parents": 12, "parent_skew": 100, "screen": 10, "users": 20]
  public var summary: String {
    cold
      ? "launch a fresh process with the store's pages evicted and load the first S parents with their newest record"
      : "launch a fresh process (store pages still cached) and load the first S parents with their newest record"
  }
  public let sizeParameter = ParameterName.stored
  public let requires: StoreRoles = [.parents, .persistence]
  public let leavesStoreUnchanged = true
  public var startsCold: Bool { cold }
  public let parameters = [.screen("parents on the first screen")] + ParentedRecords.parameters

  public func validate(_ parameters: WorkloadParameters) throws { try ParentedRecords.validate(parameters) }

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    Case(ParentedRecords(parameters, generator: generator), screen: parameters[.screen], cold: cold)
  }

  final class Case: WorkloadCase {
    let data: ParentedRecords
    let screen: Int
    let cold: Bool
    let expected: String
    let fingerprint: String

    init(_ data: ParentedRecords, screen: Int, cold: Bool) {
      self.data = data
      self.screen = screen
      self.cold = cold
      expected = Checksum.parentList(data.reference.list(limit: screen))
      var hash = FNV1a()
      hash.combine(data.fingerprint)
      hash.combine(Int64(screen))
      fingerprint = hash.hex
    }

    func prepare(_ run: Repetition) throws -> LaunchChild {
      _ = try data.prepare(run)
      try run.closeStore()
      try LaunchPageCache.prepare(run, cold: cold)
      return try LaunchChild(LaunchParentsJob(store: run.launch.store, screen: screen), for: run)
    }

    func measure(_ child: LaunchChild, _ run: Repetition) throws -> Measured<Void> { try child.spawn() }

    func verify(_: Void, _ child: LaunchChild, _ run: Repetition) throws -> String {
      try child.expect(expected, "the launched process loaded a parent list", in: run)
    }
  }
}
