import Foundation
import StoreBenchCore

/// What was still only in the page cache after each acknowledgement (LazyFS's unsynced-data report), from the layer's
/// log of one traced run: per file and kind of change, after how many acknowledgements some of it was pending, the
/// most bytes pending after one, and how long until a sync made it durable (or that nothing in the run did).
public struct UnsyncedReport: Sendable, Equatable {
  /// One file's pending change of one kind.
  public struct Item: Sendable, Equatable {
    /// The path in the store directory ("x.sqlite-wal"; a rename's "a → b").
    public var path: String
    /// "written", "truncated", "created", "removed", "renamed".
    public var change: String
    /// Acknowledgements after which some of it was still pending.
    public var acknowledgements = 0
    /// The most bytes written and pending after one acknowledgement (writes only).
    public var bytes = 0
    /// The longest time from an acknowledgement until the change became durable (nanoseconds).
    public var longestDelay: UInt64 = 0
    /// After at least one acknowledgement, nothing later in the run made it durable.
    public var neverDurable = false
  }

  /// Acknowledgements examined (the settled batch 0 not counted).
  public var acknowledgements = 0
  /// By path and change, in the order first seen.
  public var items: [Item] = []

  public init(log: LayerLog, acknowledgements: [CrashAcknowledgement]) {
    let counted = acknowledgements.filter { $0.batch > 0 }
    self.acknowledgements = counted.count
    let paths = log.paths()
    var index: [String: Int] = [:]
    for acknowledgement in counted {
      let end = CrashStatePlan.firstOperation(after: acknowledgement.time, in: log.operations)
      var bytes: [Int: Int] = [:]
      var seen: Set<Int> = []
      for position in log.pending(atCut: end) {
        let operation = log.operations[position]
        let change =
          switch operation.kind {
          case .write: "written"
          case .truncate: "truncated"
          case .create, .createDirectory: "created"
          case .remove: "removed"
          case .rename: "renamed"
          case .syncFile, .syncDirectory: ""
          }
        let key = paths[position] + "\u{0}" + change
        let item: Int
        if let known = index[key] {
          item = known
        } else {
          item = items.count
          items.append(Item(path: paths[position], change: change))
          index[key] = item
        }
        if seen.insert(item).inserted { items[item].acknowledgements += 1 }
        bytes[item, default: 0] += operation.length
        if let durable = operation.durableAt {
          let delay = log.operations[durable].time - min(log.operations[durable].time, acknowledgement.time)
          items[item].longestDelay = max(items[item].longestDelay, delay)
        } else {
          items[item].neverDurable = true
        }
      }
      for (item, count) in bytes { items[item].bytes = max(items[item].bytes, count) }
    }
  }

  /// One line per item, as report.md and advice.md quote it (``UnsyncedEvidence/Item/sentence``).
  public var lines: [String] { evidence.map(\.sentence) }

  /// The items as ``UnsyncedEvidence`` reads them back from `unsynced.csv`.
  public var evidence: [UnsyncedEvidence.Item] {
    items.map { item in
      UnsyncedEvidence.Item(
        path: item.path, change: item.change, acknowledgements: item.acknowledgements, of: acknowledgements,
        maxBytes: item.bytes, longestDelayMilliseconds: Double(item.longestDelay) / 1e6,
        neverDurable: item.neverDurable)
    }
  }
}

extension UnsyncedReport {
  /// `unsynced.csv`: one line per file and change of every row that carries a report.
  public static func csv(_ rows: [DurabilityRow]) throws -> Data {
    var lines = [UnsyncedEvidence.header]
    for row in rows {
      lines += (row.unsynced?.evidence ?? []).map { $0.cells(backend: row.backend, variant: row.variant) }
    }
    return try CSVFormat.encode(lines)
  }
}
