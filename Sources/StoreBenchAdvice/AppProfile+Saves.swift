import StoreBenchCore
import Yams

extension AppProfile {
  static let cadenceKeys = ["every_s", "burst", "pause_s"]

  /// `save_batch: 200`: records per `save` (one app operation, one commit: a feed refresh storing its new
  /// episodes); nil when the profile does not give it (one record a save).
  static func saveBatch(_ node: Node?, reader: NodeReader, perDay: [Operation: Double]) throws -> Int? {
    guard let batch = try reader.integer(node, at: "save_batch", range: 1...100_000) else { return nil }
    guard (perDay[.save] ?? 0) > 0 else {
      throw reader.error("save_batch", "the size of a save the profile never makes; give per_day.save a frequency")
    }
    return batch
  }

  /// `save_cadence: {every_s: 10, burst: 180, pause_s: 14400}`: when the app's saves come, for the loss window
  /// (``SaveCadence``): `every_s` apart, and with `burst` and `pause_s`, in bursts of that many saves with that
  /// much quiet after each. A cadence without a loss window would change nothing, and is refused.
  static func saveCadence(_ node: Node?, reader: NodeReader, window: Double?) throws -> SaveCadence? {
    guard let node else { return nil }
    let fields = Dictionary(uniqueKeysWithValues: try reader.mapping(node, at: "save_cadence", allowed: cadenceKeys))
    guard window != nil else {
      throw reader.error(
        "save_cadence", "the cadence times the loss window: give durability: {survive: power-loss, loss_window_ms: …}")
    }
    guard let every = try reader.decimal(fields["every_s"], at: "save_cadence.every_s", range: 0.001...86_400) else {
      throw reader.error("save_cadence.every_s", "required key is missing")
    }
    let burst = try reader.integer(fields["burst"], at: "save_cadence.burst", range: 1...10_000_000)
    let pause = try reader.decimal(fields["pause_s"], at: "save_cadence.pause_s", range: 0.001...2_592_000)
    switch (burst, pause) {
    case (let burst?, let pause?):
      return SaveCadence(everyMilliseconds: every * 1_000, burst: burst, pauseMilliseconds: pause * 1_000)
    case (nil, nil):
      return .steady(everyMilliseconds: every * 1_000)
    default:
      throw reader.error(
        burst == nil ? "save_cadence.burst" : "save_cadence.pause_s",
        "a burst and its pause go together: give both, or neither for steady saves")
    }
  }
}
