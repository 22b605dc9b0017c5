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
        public var lostSomething: Bool { lost > 0 || corrupt > 0 }

        public init(trials: Int = 0, states: Int? = nil, acknowledged: Int = 0, lost: Int = 0, corrupt: Int = 0) {
            self.trials = trials
            self.states = states ?? trials
            self.acknowledged = acknowledged
            self.lost = lost
            self.corrupt = corrupt
        }

        /// "0 of 1,234 lost in 50 cuts" (unreadable stores named only when there were some).
        public func brief(_ noun: String) -> String {
            "\(MarkdownTable.grouped(Double(lost))) of \(MarkdownTable.grouped(Double(acknowledged))) lost"
                + (corrupt > 0 ? ", \(corrupt) unreadable" : "") + " in \(trials) \(noun)"
        }

        static func + (a: Counts, b: Counts) -> Counts {
            Counts(
                trials: a.trials + b.trials, states: a.states + b.states, acknowledged: a.acknowledged + b.acknowledged,
                lost: a.lost + b.lost,
                corrupt: a.corrupt + b.corrupt)
        }
    }

    /// The killed-app result (image `live`; nil: not measured).
    public var kill: Counts?
    /// The power cut's `synced` image: only what was synced survives (nil: not measured).
    public var synced: Counts?
    /// The power cut's `prefix` images: the synced state plus an in-order part of the rest (nil: not measured).
    public var prefix: Counts?
    /// Why power loss was not measured ("not-modelled: …", "unavailable: …"), when the file says.
    public var powerLossUnmeasured: String?

    public init(kill: Counts? = nil, synced: Counts? = nil, prefix: Counts? = nil, powerLossUnmeasured: String? = nil) {
        self.kill = kill
        self.synced = synced
        self.prefix = prefix
        self.powerLossUnmeasured = powerLossUnmeasured
    }

    /// Whether a power cut lost anything in either image kind (nil: not measured).
    public var powerLossLostSomething: Bool? {
        guard synced != nil || prefix != nil else { return nil }
        return synced?.lostSomething == true || prefix?.lostSomething == true
    }

    /// The class a report shows: ``DurabilityClass/init(declared:crash:)``.
    public func durability(declared: DurabilityPromise) -> DurabilityClass {
        DurabilityClass(declared: declared, crash: self)
    }

    /// The killed-app cell of a report (``CrashEvidence/kill(_:)``).
    public var killSummary: String { kill.map(CrashEvidence.kill) ?? "not measured" }

    /// The power-loss cell of a report, cut by cut (``CrashEvidence/powerCut(synced:prefix:)``).
    public var powerLossSummary: String {
        guard synced != nil || prefix != nil else { return powerLossUnmeasured ?? "not measured" }
        return CrashEvidence.powerCut(synced: synced, prefix: prefix)
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
            let counts = Counts(
                trials: trials, states: text(.images).flatMap { Int($0) } ?? trials, acknowledged: int(.ackedBatches),
                lost: int(.lostBatches), corrupt: int(.corruptOpens))
            let status = text(.status) ?? "measured"
            switch (text(.fault) ?? "kill", text(.image) ?? "live") {
            case ("kill", _):
                result.kill = result.kill.map { $0 + counts } ?? counts
            case ("power-loss", "synced") where status == "measured":
                result.synced = result.synced.map { $0 + counts } ?? counts
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
            powerLossUnmeasured: powerLossUnmeasured ?? other.powerLossUnmeasured)
    }

    /// The crash result files of a run folder: every `durability*.csv` in it, sorted by name.
    public static func files(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix("durability") && $0.hasSuffix(".csv") }.sorted()
            .map { directory.appendingPathComponent($0) }
    }
}
