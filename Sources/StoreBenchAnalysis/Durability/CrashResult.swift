import Foundation
import StoreBenchContract

/// What `storebench crash` measured for one backend variant (`durability*.csv`), image by image, and the
/// durability class it supports (``DurabilityClass``).
public struct CrashResult: Sendable, Equatable {
  /// The counts of one fault's image, summed over trials (and over files that measured the same variant).
  public struct Counts: Sendable, Equatable {
    /// Trials (kills or power cuts).
    public var trials = 0
    /// Crash states checked: one per kill, one synced image per cut, `--prefix-images` prefix images per cut.
    public var states = 0
    public var acknowledged = 0
    public var lost = 0
    public var corrupt = 0
    /// Set when the states are every crash state of a traced run (`method` `enumerated`): then `trials` counts
    /// runs, `states` the states of this kind, `acknowledged` the run's batches once, `lost` the distinct
    /// batches lost in any state, `corrupt` the corrupt states.
    public var enumerated: Enumerated?
    /// The `losing_states` column: the stores checked that lost a save (nil: a file written before it was
    /// counted).
    public var losingStates: Int?
    public var lostSomething: Bool { lost > 0 || corrupt > 0 || (losingStates ?? 0) > 0 }

    /// The states (kills, images) that lost a save — an acknowledged batch missing, or a store unreadable or
    /// damaged, which loses every save it held — and whether the count is exact. A file written before
    /// `losing_states` tells only its least value: the larger of the states that lost a batch and the damaged ones.
    public var losing: (count: Int, exact: Bool) {
      if let losingStates { return (losingStates, true) }
      guard let lostStates = enumerated?.lostStates else {
        // Random trials counted batches, not the trials that lost them: exact only when none was lost.
        return (max(corrupt, lost > 0 ? 1 : 0), lost == 0)
      }
      // Exact when one of the two kinds is empty: then the other is every losing state.
      return (max(lostStates, corrupt), lostStates == 0 || corrupt == 0)
    }

    /// What an enumerated row adds (``DurabilityColumn/points`` …).
    public struct Enumerated: Sendable, Equatable {
      public var points = 0, sampledPoints = 0, distinctImages = 0, lostStates = 0
      /// The oldest lost acknowledgement's age at its state's cut, in ms (nil: nothing lost).
      public var lossWindowMilliseconds: Double?
      /// The same in acknowledgements: at most this many of the newest saves were lost (nil: nothing lost).
      public var lossDepth: Int?

      public init(
        points: Int = 0, sampledPoints: Int = 0, distinctImages: Int = 0, lostStates: Int = 0,
        lossWindowMilliseconds: Double? = nil, lossDepth: Int? = nil
      ) {
        (self.points, self.sampledPoints, self.distinctImages) = (points, sampledPoints, distinctImages)
        (self.lostStates, self.lossWindowMilliseconds, self.lossDepth) =
          (lostStates, lossWindowMilliseconds, lossDepth)
      }

      static func + (a: Self, b: Self) -> Self {
        Self(
          points: a.points + b.points, sampledPoints: a.sampledPoints + b.sampledPoints,
          distinctImages: a.distinctImages + b.distinctImages, lostStates: a.lostStates + b.lostStates,
          lossWindowMilliseconds: [a.lossWindowMilliseconds, b.lossWindowMilliseconds].compactMap { $0 }
            .max(),
          lossDepth: [a.lossDepth, b.lossDepth].compactMap { $0 }.max())
      }
    }

    public init(
      trials: Int = 0, states: Int? = nil, acknowledged: Int = 0, lost: Int = 0, corrupt: Int = 0,
      enumerated: Enumerated? = nil, losingStates: Int? = nil
    ) {
      self.enumerated = enumerated
      self.losingStates = losingStates
      self.trials = trials
      self.states = states ?? trials
      self.acknowledged = acknowledged
      self.lost = lost
      self.corrupt = corrupt
    }

    /// "0 of 1,234 lost in 50 cuts" (unreadable stores named only when there were some).
    /// Enumerated counts say their states instead: "0 of 20 lost in 137 synced states".
    public func brief(_ noun: String, states statesNoun: String = "states") -> String {
      "\(MarkdownTable.grouped(Double(lost))) of \(MarkdownTable.grouped(Double(acknowledged))) lost"
        + (corrupt > 0 ? ", \(corrupt) unreadable" : "")
        + (enumerated == nil
          ? " in \(trials) \(noun)" : " in \(MarkdownTable.grouped(Double(states))) \(statesNoun)")
    }

    static func + (a: Counts, b: Counts) -> Counts {
      Counts(
        trials: a.trials + b.trials, states: a.states + b.states, acknowledged: a.acknowledged + b.acknowledged,
        lost: a.lost + b.lost,
        corrupt: a.corrupt + b.corrupt,
        // Two enumerated runs add up; an enumerated and a random count are neither.
        enumerated: a.enumerated.flatMap { a in b.enumerated.map { a + $0 } },
        losingStates: a.losingStates.flatMap { a in b.losingStates.map { a + $0 } })
    }
  }

  /// The killed-app result (image `live`; nil: not measured).
  public var kill: Counts?
  /// The power cut's `synced` image: only what was synced survives (nil: not measured).
  public var synced: Counts?
  /// The power cut's `prefix` images: the synced state plus an in-order part of the rest (nil: not measured).
  public var prefix: Counts?
  /// Enumerated `torn` states: a prefix state whose next write reached the disk in part (nil: not modelled).
  public var torn: Counts?
  /// Why power loss was not measured ("not-modelled: …", "unavailable: …"), when the file says.
  public var powerLossUnmeasured: String?

  public init(
    kill: Counts? = nil, synced: Counts? = nil, prefix: Counts? = nil, torn: Counts? = nil,
    powerLossUnmeasured: String? = nil
  ) {
    self.kill = kill
    self.synced = synced
    self.prefix = prefix
    self.torn = torn
    self.powerLossUnmeasured = powerLossUnmeasured
  }

  /// Whether a power cut lost anything in either image kind (nil: not measured).
  public var powerLossLostSomething: Bool? {
    guard synced != nil || prefix != nil else { return nil }
    return [synced, prefix, torn].contains { $0?.lostSomething == true }
  }

  /// The class a report shows: ``DurabilityClass/init(declared:crash:)``.
  public func durability(declared: DurabilityPromise) -> DurabilityClass {
    DurabilityClass(declared: declared, crash: self)
  }

  /// The killed-app cell of a report (``CrashEvidence/kill(_:)``).
  public var killSummary: String { kill.map(CrashEvidence.kill) ?? "not measured" }

  /// The power-loss cell of a report, cut by cut (``CrashEvidence/powerCut(synced:prefix:torn:)``).
  public var powerLossSummary: String {
    guard synced != nil || prefix != nil else { return powerLossUnmeasured ?? "not measured" }
    return CrashEvidence.powerCut(synced: synced, prefix: prefix, torn: torn)
  }

  /// Reads one `durability.csv` into results by "backend [variant]". A file without a `fault` column (before power
  /// loss was measured) holds kills.
  public static func read(csv text: String, source: String = "durability.csv") throws -> [String: CrashResult] {
    let (header, rows) = try StrictCSV.decode(Data(text.utf8), source: source)
    return try read(header: header, rows: rows, source: source)
  }

  /// The crash results of a decoded table (checked as ``StrictCSV`` checks it): storebench's columns, counts that
  /// are counts.
  public static func read(header: [String], rows: [[String]], source: String) throws -> [String: CrashResult] {
    let column = Dictionary(header.enumerated().map { ($0.element, $0.offset) }) { first, _ in first }
    if let missing = DurabilityColumn.required.first(where: { column[$0.rawValue] == nil }) {
      throw RunFolderError(
        .notARun, "\(source): not a storebench crash result file (no \(missing.rawValue) column)")
    }
    var results: [String: CrashResult] = [:]
    for (line, cells) in rows.enumerated() {
      func text(_ name: String) -> String? { column[name].map { cells[$0] } }
      func text(_ name: DurabilityColumn) -> String? { text(name.rawValue) }
      for name in DurabilityColumn.counts.map(\.rawValue) + ["kills"] {
        guard let cell = text(name), !cell.isEmpty else { continue }
        guard let count = Int(cell), count >= 0 else {
          throw RunFolderError(
            .badValue, "\(source): line \(line + 2): \(name) is '\(cell.prefix(40))', not a count")
        }
      }
      func int(_ name: String) -> Int { text(name).flatMap { Int($0) } ?? 0 }
      func int(_ name: DurabilityColumn) -> Int { int(name.rawValue) }
      guard let backend = text(.backend), let variant = text(.variant) else { continue }
      let key = "\(backend) [\(variant)]"
      var result = results[key] ?? CrashResult()
      let trials = max(int(.trials), int("kills"))
      var counts = Counts(
        trials: trials, states: text(.images).flatMap { Int($0) } ?? trials, acknowledged: int(.ackedBatches),
        lost: int(.lostBatches), corrupt: int(.corruptOpens),
        losingStates: text(.losingStates).flatMap { Int($0) })
      if text(.method) == DurabilityMethod.enumerated.rawValue {
        let window = text(.lossWindowMilliseconds) ?? ""
        guard window.isEmpty || Double(window).map({ $0 >= 0 }) == true else {
          throw RunFolderError(
            .badValue, "\(source): line \(line + 2): loss_window_ms is '\(window.prefix(40))', not a time")
        }
        counts.enumerated = Counts.Enumerated(
          points: int(.points), sampledPoints: int(.sampledPoints), distinctImages: int(.distinctImages),
          lostStates: int(.lostStates), lossWindowMilliseconds: Double(window),
          lossDepth: text(.lossDepth).flatMap { Int($0) })
      }
      let status = text(.status) ?? "measured"
      switch (text(.fault) ?? "kill", text(.image) ?? "live") {
      case ("kill", _):
        result.kill = result.kill.map { $0 + counts } ?? counts
      case ("power-loss", "synced") where status == "measured":
        result.synced = result.synced.map { $0 + counts } ?? counts
      case ("power-loss", "torn") where status == "measured":
        result.torn = result.torn.map { $0 + counts } ?? counts
      case ("power-loss", _) where status == "measured":
        result.prefix = result.prefix.map { $0 + counts } ?? counts
      case ("power-loss", _):
        result.powerLossUnmeasured = "\(status): \(text(.detail) ?? "")"
      default:
        continue
      }
      results[key] = result
    }
    return results
  }

  /// Reads several crash files and merges what they measured of the same variant (counts add up).
  public static func read(files: [URL]) throws -> [String: CrashResult] {
    var merged: [String: CrashResult] = [:]
    for file in files {
      guard let text = try? String(contentsOf: file, encoding: .utf8) else {
        throw CompareError("\(file.path): cannot read this crash result file")
      }
      for (key, result) in try read(csv: text, source: file.path) {
        merged[key] = merged[key].map { $0.merging(result) } ?? result
      }
    }
    return merged
  }

  func merging(_ other: CrashResult) -> CrashResult {
    func add(_ a: Counts?, _ b: Counts?) -> Counts? { a.map { a in b.map { a + $0 } ?? a } ?? b }
    return CrashResult(
      kill: add(kill, other.kill), synced: add(synced, other.synced), prefix: add(prefix, other.prefix),
      torn: add(torn, other.torn), powerLossUnmeasured: powerLossUnmeasured ?? other.powerLossUnmeasured)
  }

  /// The crash result files of a run folder: every `durability*.csv` in it, sorted by name.
  public static func files(in directory: URL) -> [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasPrefix("durability") && $0.hasSuffix(".csv") }.sorted()
      .map { directory.appendingPathComponent($0) }
  }
}
