import Foundation

/// `unsynced.csv` read back (written by `storebench crash` from the enumerated run's layer log): per strategy, what
/// was still only in the page cache after an acknowledgement, and the one renderer of it — the sentences report.md
/// and advice.md quote beside a strategy that can lose data on a power cut (docs/POWER-LOSS.md, "What was not yet
/// durable").
public struct UnsyncedEvidence: Sendable, Equatable {
  /// One file's pending change of one kind, in one strategy's traced run.
  public struct Item: Sendable, Equatable {
    /// The path in the store directory ("x.sqlite-wal"; a rename's "a → b").
    public var path: String
    /// "written", "truncated", "created", "removed", "renamed".
    public var change: String
    /// After how many of `of` acknowledgements some of it was still pending.
    public var acknowledgements: Int
    public var of: Int
    /// The most bytes written and pending after one acknowledgement (writes only).
    public var maxBytes: Int
    /// The longest time from an acknowledgement until a sync made it durable.
    public var longestDelayMilliseconds: Double
    /// After at least one acknowledgement, nothing later in the run made it durable.
    public var neverDurable: Bool

    public init(
      path: String, change: String, acknowledgements: Int, of: Int, maxBytes: Int,
      longestDelayMilliseconds: Double, neverDurable: Bool
    ) {
      (self.path, self.change, self.acknowledgements, self.of) = (path, change, acknowledgements, of)
      (self.maxBytes, self.longestDelayMilliseconds, self.neverDurable) =
        (maxBytes, longestDelayMilliseconds, neverDurable)
    }

    /// "`x.sqlite-journal` removed: not durable after 20 of 20 acknowledgements; durable at most 3.2 ms later where
    /// a later sync came, never made durable in the run after the last acknowledgement".
    public var sentence: String {
      let amount = change == "written" ? " (up to \(Self.bytes(maxBytes)) after one)" : ""
      let durable = String(format: "durable at most %.1f ms later", longestDelayMilliseconds)
      // Made durable by a later sync after some acknowledgements and by none after the last (an operation never
      // made durable stays pending to the end).
      let when =
        !neverDurable
        ? durable
        : longestDelayMilliseconds > 0
          ? "\(durable) where a later sync came, never made durable in the run after the last "
            + "acknowledgement"
          : "never made durable in the run"
      return
        "`\(path)` \(change)\(amount): not durable after \(acknowledgements) of \(of) acknowledgements; \(when)"
    }

    /// The item's line of `unsynced.csv` (``UnsyncedEvidence/header``), as ``UnsyncedEvidence/init(csv:source:)``
    /// reads it back.
    public func cells(backend: String, variant: String) -> [String] {
      [
        backend, variant, path, change, String(acknowledgements), String(of), String(maxBytes),
        String(format: "%.3f", longestDelayMilliseconds), neverDurable ? "yes" : "no",
      ]
    }

    static func bytes(_ count: Int) -> String {
      count < 1024 ? "\(count) B" : String(format: "%.1f KiB", Double(count) / 1024)
    }
  }

  public static let fileName = "unsynced.csv"
  /// The columns of `unsynced.csv`.
  public static let header = [
    "backend", "variant", "path", "change", "acknowledgements", "of_acknowledgements", "max_bytes",
    "longest_delay_ms", "never_durable",
  ]

  /// The items by "backend [variant]", in the file's order.
  public var items: [String: [Item]]

  public init(items: [String: [Item]]) { self.items = items }

  /// Reads `unsynced.csv` strictly (``StrictCSV``): storebench's columns, counts that are counts.
  public init(csv data: Data, source: String) throws {
    let (header, rows) = try StrictCSV.decode(data, source: source)
    guard header == Self.header else {
      throw RunFolderError(.notARun, "\(source): not storebench's unsynced.csv (its columns differ)")
    }
    items = [:]
    for (line, cells) in rows.enumerated() {
      func count(_ index: Int) throws -> Int {
        guard let value = Int(cells[index]), value >= 0 else {
          throw RunFolderError(
            .badValue,
            "\(source): line \(line + 2): \(header[index]) is '\(cells[index].prefix(40))', not a count")
        }
        return value
      }
      guard let delay = Double(cells[7]), delay.isFinite, delay >= 0, ["yes", "no"].contains(cells[8]) else {
        throw RunFolderError(.badValue, "\(source): line \(line + 2): a delay or never_durable that is not one")
      }
      items["\(cells[0]) [\(cells[1])]", default: []].append(
        Item(
          path: cells[2], change: cells[3], acknowledgements: try count(4), of: try count(5),
          maxBytes: try count(6), longestDelayMilliseconds: delay, neverDurable: cells[8] == "yes"))
    }
  }

  /// "## What a power cut can take": for every strategy whose power-cut states lost something, its evidence and
  /// what was still unsynced after an acknowledgement; nothing when none lost anything. `label` names a
  /// "backend [variant]" for people.
  public func section(crashes: [String: CrashResult], label: (String) -> String) -> [String] {
    let lossy = crashes.filter { $0.value.powerLossLostSomething == true && items[$0.key] != nil }
      .map { (label: label($0.key), key: $0.key, crash: $0.value) }.sorted { $0.label < $1.label }
    guard !lossy.isEmpty else { return [] }
    var lines = [
      "## What a power cut can take", "",
      "Each strategy that lost acknowledged saves in a crash state of its traced run, and what was still only "
        + "in the page cache after the app was told \"saved\" (`unsynced.csv`; docs/POWER-LOSS.md):", "",
    ]
    for entry in lossy {
      let shown = items[entry.key]!.prefix(4)
      let more = items[entry.key]!.count - shown.count
      lines.append(
        "- **\(MarkdownTable.escape(entry.label))**: \(MarkdownTable.escape(entry.crash.powerLossSummary)). "
          + "Not yet durable: " + shown.map(\.sentence).joined(separator: "; ")
          + (more > 0 ? "; and \(more) more in `unsynced.csv`" : "") + ".")
    }
    return lines + [""]
  }
}
