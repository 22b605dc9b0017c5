import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A test-only seam: `STOREBENCH_TEST_DELAYED_SYNC_MS=D` (read by `crash`; ``CrashTrials/delayedSync`` in tests)
/// makes the traced crash writer a group-commit writer with a known delay. It acknowledges each batch without waiting
/// for a sync, paces its batches D/4 ms apart, and syncs every file of its store and the store's directory once its
/// oldest unsynced acknowledgement is D ms old. A power cut can then lose saves between D and about 1.25 D old (plus
/// one batch's write), which the loss-window tests check. Use it with a strategy that never syncs on its own (sqlite
/// `sync=off`). `crash` prints a warning and records it in durability.environment.json; no real run sets it.
public enum TestDelayedSync {
  public static let variable = "STOREBENCH_TEST_DELAYED_SYNC_MS"

  /// The delay in ms; nil when the variable is unset or empty; throws on anything but a count from 1 to 10,000.
  public static func milliseconds(environment: [String: String] = ProcessInfo.processInfo.environment) throws
    -> Int?
  {
    guard let text = environment[variable], !text.isEmpty else { return nil }
    guard let milliseconds = Int(text), (1...10_000).contains(milliseconds) else {
      throw TestSeamError(description: "\(variable)='\(text)': expected a delay in ms from 1 to 10000")
    }
    return milliseconds
  }

  public static func warning(_ milliseconds: Int) -> String {
    "TEST SEAM \(variable) is set: the crash writer syncs its store only \(milliseconds) ms after an acknowledgement"
  }

  /// The writer's side: after acknowledging at `acknowledged` (monotonic ns), wait a quarter of the delay, then
  /// sync the store once the oldest unsynced acknowledgement (`oldest`, kept between calls) is `milliseconds` old.
  public static func pace(
    _ milliseconds: Int, acknowledged: UInt64, oldest: inout UInt64?, directory: URL
  ) throws {
    let first = oldest ?? acknowledged
    oldest = first
    usleep(UInt32(milliseconds) * 250)
    guard monotonicNanoseconds() - first >= UInt64(milliseconds) * 1_000_000 else { return }
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    for name in names + ["."] {
      let path = directory.appendingPathComponent(name).path
      let descriptor = try SystemError.check("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
      defer { close(descriptor) }
      _ = try SystemError.check("fsync", path: path) { fsync(descriptor) }
    }
    oldest = nil
  }
}
