import Foundation
import StoreBenchCore

/// One row of `durability.csv`: what a backend variant lost under one fault, over `trials` counted trials.
///
/// A `kill` trial checks the store as the killed process left it (`image` `live`: the page cache survives). A
/// `power-loss` trial checks images the page-cache model computed at the cut: `synced` (only what was made
/// durable by fsync) and `prefix` (that plus a random in-order prefix of the rest, several per trial).
public struct DurabilityRow: Sendable, Equatable {
  public var backend: String
  public var variant: String
  public var settings: String
  public var fault: CrashFault
  public var image: Image
  public var trials = 0
  /// Stores checked: one per kill, one `synced` or several `prefix` images per power cut.
  public var images = 0
  /// Batches acknowledged (committed, by the backend's own account) before the fault, summed over the images.
  public var ackedBatches = 0
  /// Acknowledged batches that were not complete after reopening (all of a damaged or unreadable store's).
  public var lostBatches = 0
  /// Stores checked (kills, images, states) that lost a save: an acknowledged batch missing, or the store unreadable
  /// or damaged, which loses every save it held (the settled batch 0 too, before any acknowledgement).
  public var losingStates = 0
  /// Batches present only in part (acknowledged or not).
  public var partialBatches = 0
  /// Reopens whose integrity check failed, or that found articles the writer never wrote.
  public var corruptOpens = 0
  /// Stores that could not be opened or read at all.
  public var unrecoverable = 0
  /// Attempts that tested nothing (cut before the first acknowledgement, or finished first) and were retried.
  public var retries = 0
  /// How a power cut's states were chosen (nil for kills).
  public var method: Method?
  /// Enumerated rows (``CrashStatePlan``): persistence points of the traced run, those whose prefix states were a
  /// sample, distinct images checked, states that lost an acknowledged batch (`images` counts the states), and the
  /// loss window in milliseconds (nil: nothing lost). For these rows `acked_batches` counts the run's acknowledged
  /// batches once and `lost_batches` the distinct batches lost in any state of the row's kind.
  public var points = 0, sampledPoints = 0, distinctImages = 0, lostStates = 0
  public var lossWindowMilliseconds: Double?
  /// The loss window in acknowledgements (``CrashStateVerdicts/Tally/lossDepth``; nil: nothing lost).
  public var lossDepth: Int?
  /// Enumerated `synced` rows: what was still only in the page cache after each acknowledgement (not a CSV
  /// column: `crash` writes it to `unsynced.csv`).
  public var unsynced: UnsyncedReport?
  public var status: Status = .measured
  /// Why the row is not measured; notes on how it was.
  public var detail = ""

  /// The post-fault state a row's stores were checked in.
  public enum Image: String, Sendable, CaseIterable {
    /// `torn`: a prefix state whose next pending write reached the disk in part (`--tear page`).
    case live, synced, prefix, torn
  }

  /// How a power cut's crash states were chosen.
  public typealias Method = DurabilityMethod

  public enum Status: String, Sendable {
    /// The counts are measurements.
    case measured
    /// The page-cache model cannot represent this variant faithfully (`detail` says why): no counts.
    case notModelled = "not-modelled"
    /// The fault cannot be produced on this machine (`detail` says why): no counts.
    case unavailable
  }

  public init(
    backend: String, variant: String, settings: String = "", fault: CrashFault, image: Image,
    status: Status = .measured, detail: String = ""
  ) {
    (self.backend, self.variant, self.settings, self.fault) = (backend, variant, settings, fault)
    (self.image, self.status, self.detail) = (image, status, detail)
  }

  /// The columns, from the table the readers use too (``DurabilityColumn``).
  public static var header: [String] { DurabilityColumn.header }

  /// `durability.csv`: the header and these rows (what `crash` and `advise` write, and `CrashResult` reads).
  public static func csv(_ rows: [DurabilityRow]) throws -> Data {
    try CSVFormat.encode([header] + rows.map(\.fields))
  }

  public var fields: [String] {
    let counts = [trials, images, ackedBatches, lostBatches, partialBatches, corruptOpens, unrecoverable, retries]
    let enumerated: [String] =
      method == .enumerated
      ? [points, sampledPoints, distinctImages, lostStates].map(String.init) + [
        lossWindowMilliseconds.map { String(format: "%.3f", $0) } ?? "", lossDepth.map(String.init) ?? "",
      ]
      : ["", "", "", "", "", ""]
    let losing = status == .measured ? String(losingStates) : ""
    return [backend, variant, settings, fault.rawValue, image.rawValue] + counts.map(String.init)
      + [status.rawValue, detail, method?.rawValue ?? ""] + enumerated + [losing]
  }

  /// Adds one checked store: `acked` were acknowledged before the fault, `report` is what the checker found.
  mutating func count(acked: [Int], report: CrashBatches.Report) {
    images += 1
    ackedBatches += acked.count
    let kept = report.keptBatches
    let lost = acked.filter { !kept.contains($0) }.count
    lostBatches += lost
    partialBatches += report.partialBatches.count
    if !report.opened { unrecoverable += 1 }
    if settings.isEmpty { settings = report.settings }
    if report.isCorrupt { corruptOpens += 1 }
    if report.isCorrupt || lost > 0 { losingStates += 1 }
  }

  /// "3 kills, 120 acknowledged, 0 lost, …" for progress lines.
  public var summary: String {
    guard status == .measured else { return "\(status.rawValue): \(detail)" }
    if method == .enumerated {
      let sampled = sampledPoints > 0 ? ", \(sampledPoints) sampled" : ""
      let window = lossWindowMilliseconds.map { String(format: ", losses up to %.1f ms old", $0) } ?? ""
      return
        "\(images) \(image.rawValue) states at \(points) persistence points\(sampled) (\(distinctImages) distinct "
        + "images), \(ackedBatches) batches acknowledged: \(lostStates) states lost \(lostBatches) of them\(window), "
        + "\(corruptOpens) corrupt, \(unrecoverable) unreadable"
    }
    return "\(trials) trials, \(images) images, \(ackedBatches) acknowledged, \(lostBatches) lost, "
      + "\(partialBatches) partial, \(corruptOpens) corrupt, \(unrecoverable) unreadable"
  }
}

/// What `storebench crash` does to the writing process.
public enum CrashFault: String, Sendable, CaseIterable {
  /// SIGKILL: the process dies, the kernel's page cache keeps everything it wrote.
  case kill
  /// A power cut, through the page-cache model: only what was synced survives (and, in `prefix` images, a
  /// random in-order part of the rest).
  case powerLoss = "power-loss"
}
