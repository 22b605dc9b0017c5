/// `cache`: the Kache use case — `count` operations on an ``ExpiringCache`` of `capacity` entries over `keys`
/// URL-like keys (80% of the operations on the hottest 20% of keys), `get_percent` of them gets and the rest puts
/// of `value_bytes`-byte values with a time-to-live of 1…`ttl` ticks. Time is logical (the operation number), so
/// every run has the same hits, evictions and final content; the row's `hit_ratio` and latency columns report it.
public struct CacheWorkload: Workload {
  public init() {}
  public let name = "cache"

  public func missingNotes(_ notes: [SampleColumn: String]) -> String? {
    notes[.hitRatio].flatMap(Double.init).map { $0 > 0 && $0 < 1 } == true
      ? nil : "the cache's hit ratio is \(notes[.hitRatio] ?? "missing"), not between 0 and 1"
  }
  public let smokeParameters = ["count": 500, "capacity": 40, "keys": 120, "value_bytes": 64, "ttl": 200]
  public let summary = "expiring cache with a capacity (evict earliest-expiring): N puts/gets, hit ratio and latency"
  public let sizeParameter = ParameterName.count
  public let requires: StoreRoles = .cache
  public let parameters = [
    .count(20_000, "cache operations"),
    WorkloadParameter(.capacity, default: 1_000, range: 1...1_000_000, summary: "entries kept at most"),
    WorkloadParameter(.keys, default: 4_000, range: 1...10_000_000, summary: "distinct keys used"),
    .percent(.getPercent, 80, "share of operations that are gets"),
    WorkloadParameter(.valueBytes, default: 512, range: 0...10_000_000, summary: "bytes per cached value"),
    WorkloadParameter(
      .ttl, default: 5_000, range: 1...1_000_000_000, summary: "longest time-to-live, in operations"),
  ]

  enum Operation {
    case get(key: Int)
    case put(key: Int, value: Int, expires: Int64)
  }

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    var rng = generator.stream(salt: 0x6361_6368)
    let keyCount = parameters[.keys]
    let hot = max(1, keyCount / 5)
    let keys = (0..<keyCount).map { "https://cdn.example.com/img/\($0 * 7919 % 100_003).jpg?size=2x&v=\($0 % 7)" }
    var values: [[UInt8]] = []
    var operations: [Operation] = []
    operations.reserveCapacity(parameters[.count])
    for tick in 0..<parameters[.count] {
      let key = rng.next() % 10 < 8 ? Int(rng.next() % UInt64(hot)) : Int(rng.next() % UInt64(keyCount))
      if Int(rng.next() % 100) < parameters[.getPercent] {
        operations.append(.get(key: key))
      } else {
        var value = [UInt8](repeating: 0, count: parameters[.valueBytes])
        for index in value.indices { value[index] = UInt8(truncatingIfNeeded: rng.next()) }
        values.append(value)
        let ttl = 1 + Int64(rng.next() % UInt64(parameters[.ttl]))
        operations.append(.put(key: key, value: values.count - 1, expires: Int64(tick) + ttl))
      }
    }
    return Case(keys: keys, values: values, operations: operations, capacity: parameters[.capacity])
  }

  /// The checksum of cache entries, sorted by key.
  static func checksum(_ entries: [CacheEntry]) -> String {
    var hash = FNV1a()
    for entry in entries.sorted(by: { $0.key.precedesInUTF8($1.key) }) {
      hash.combine(entry.key)
      hash.combine(entry.expires)
      hash.combine(bytes: entry.value)
    }
    return hash.hex
  }

  final class Case: WorkloadCase {
    let keys: [String]
    let values: [[UInt8]]
    let operations: [Operation]
    let capacity: Int
    let expectedHits: Int
    let expectedGets: String
    let expectedFinal: (count: Int, hex: String)
    let fingerprint: String

    /// Every put's entry (key, value, expiry).
    lazy var recordBytesWritten: Int64? = operations.reduce(0) { total, operation in
      guard case .put(let key, let value, _) = operation else { return total }
      return total + Int64(CacheEntry(key: keys[key], value: values[value], expires: 0).payloadBytes)
    }

    init(keys: [String], values: [[UInt8]], operations: [Operation], capacity: Int) {
      self.keys = keys
      self.values = values
      self.operations = operations
      self.capacity = capacity
      // The expected outcome: the same policy over a plain dictionary (which cannot fail).
      let reference = DictionaryCacheStorage()
      let cache = try! ExpiringCache(storage: reference, capacity: capacity)
      let results = try! Self.run(operations, on: cache, keys: keys, values: values, recorder: nil)
      expectedHits = results.compactMap { $0 }.count
      expectedGets = Self.digest(results)
      expectedFinal = (reference.entries.count, CacheWorkload.checksum(Array(reference.entries.values)))
      var hash = FNV1a()
      hash.combine(expectedGets)
      hash.combine(expectedFinal.hex)
      hash.combine(Int64(operations.count))
      fingerprint = hash.hex
    }

    /// Runs the operations; returns each get's value (nil for a miss), in order.
    static func run(
      _ operations: [Operation], on cache: ExpiringCache, keys: [String], values: [[UInt8]],
      recorder: LatencyRecorder?
    ) throws -> [[UInt8]?] {
      var results: [[UInt8]?] = []
      results.reserveCapacity(operations.count)
      func apply(_ tick: Int, _ operation: Operation) throws {
        switch operation {
        case .get(let key): results.append(try cache.get(key: keys[key], now: Int64(tick)))
        case .put(let key, let value, let expires):
          try cache.put(key: keys[key], value: values[value], expires: expires)
        }
      }
      if let recorder {
        try recorder.timeEach(operations.enumerated()) { try apply($0.offset, $0.element) }
      } else {
        for (tick, operation) in operations.enumerated() { try apply(tick, operation) }
      }
      return results
    }

    static func digest(_ results: [[UInt8]?]) -> String {
      var hash = FNV1a()
      for result in results {
        if let result { hash.combine(bytes: result) } else { hash.combine("miss") }
      }
      return hash.hex
    }

    func prepare(_ run: Repetition) throws -> ExpiringCache {
      try ExpiringCache(storage: try run.cache, capacity: capacity)
    }

    func measure(_ cache: ExpiringCache, _ run: Repetition) throws -> Measured<[[UInt8]?]> {
      Measured(
        ops: operations.count,
        try Self.run(operations, on: cache, keys: keys, values: values, recorder: run.latencies))
    }

    func verify(_ results: [[UInt8]?], _: ExpiringCache, _ run: Repetition) throws -> String {
      let hits = results.compactMap { $0 }.count
      let gets = results.count
      run.note(.hitRatio, gets == 0 ? "" : CSVFormat.decimal(Double(hits) / Double(gets)))
      guard hits == expectedHits, Self.digest(results) == expectedGets else {
        throw VerificationError(
          "\(hits) hits of \(gets) gets (expected \(expectedHits)), or different values returned")
      }
      let entries = try run.reopen(as: (any CacheStore).self).cacheEntries()
      try run.closeStore()
      let checksum = CacheWorkload.checksum(entries)
      guard entries.count == expectedFinal.count, checksum == expectedFinal.hex else {
        throw VerificationError(
          "after reopening, the cache holds \(entries.count) entries (checksum \(checksum)), "
            + "expected \(expectedFinal.count) (\(expectedFinal.hex))")
      }
      return checksum
    }
  }
}
