import Foundation

/// `settings`: the defaults use case — `count` small app settings (bool, int, double, string) written one app
/// operation each, persisted (the store is closed), then read back by key in a fresh `storebench child` process
/// (the next launch of the app). `wall_s` covers all three; the latency columns are the individual writes;
/// `child_ready_s` is the child's own open → every setting read.
public struct SettingsWorkload: Workload {
  public init() {}
  public let name = "settings"
  public var childJobs: [any ChildJob.Type] { [ReadSettingsJob.self] }
  public let smokeParameters = ["count": 20]
  public let summary = "write N small settings one by one, persist, read them back in a fresh process"
  public let sizeParameter = ParameterName.count
  public let requires: StoreRoles = [.settings, .persistence]
  public let parameters: [WorkloadParameter] = [.count(100, "settings written", max: 100_000)]

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    Case(seed: generator.seed, settings: generator.settings(count: parameters[.count]))
  }

  /// The checksum of settings read back, in order (a missing one hashes as such).
  public static func checksum(_ read: [(key: String, value: SettingValue?)]) -> String {
    var hash = FNV1a()
    for (key, value) in read {
      hash.combine(key)
      hash.combine(value?.encoded ?? "missing")
    }
    return hash.hex
  }

  final class Case: WorkloadCase {
    let seed: UInt64
    let settings: [(key: String, value: SettingValue)]
    let expected: String
    var fingerprint: String { expected }
    /// Every setting's key and value.
    lazy var recordBytesWritten: Int64? = settings.reduce(0) {
      $0 + Int64($1.key.utf8.count + $1.value.payloadBytes)
    }

    init(seed: UInt64, settings: [(key: String, value: SettingValue)]) {
      self.seed = seed
      self.settings = settings
      expected = SettingsWorkload.checksum(settings.map { ($0.key, $0.value) })
    }

    func prepare(_ run: Repetition) throws -> (store: any SettingsStore, child: LaunchChild) {
      let child = try LaunchChild(
        ReadSettingsJob(store: run.launch.store, seed: seed, count: settings.count), for: run)
      return (try run.settings, child)
    }

    func measure(_ prepared: (store: any SettingsStore, child: LaunchChild), _ run: Repetition) throws -> Measured<
      Void
    > {
      let store = prepared.store
      try run.latencies.timeEach(settings) { key, value in
        try store.unitOfWork { try store.setSetting(value, forKey: key) }
      }
      try run.closeStore()
      _ = try prepared.child.spawn()
      return Measured(ops: settings.count)
    }

    func verify(_: Void, _ prepared: (store: any SettingsStore, child: LaunchChild), _ run: Repetition) throws
      -> String
    {
      try prepared.child.expect(expected, "the fresh process read settings", in: run)
    }
  }
}

extension LaunchReport {
  /// Runs in the child: opens the store and reads the `count` settings of `seed` back, by key and kind.
  static func readSettings(
    descriptor: BackendDescriptor, location: StoreLocation, seed: UInt64,
    count: Int
  ) throws -> LaunchReport {
    let wanted = DatasetGenerator(seed: seed).settings(count: count)
    return try measure(
      descriptor: descriptor, location: location, as: (any SettingsStore).self,
      { store in
        try wanted.map { (key: $0.key, value: try store.setting(forKey: $0.key, kind: $0.value.kind)) }
      }, checksum: SettingsWorkload.checksum)
  }
}
