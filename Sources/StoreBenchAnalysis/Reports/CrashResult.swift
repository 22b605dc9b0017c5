import StoreBenchContract

/// What `storebench crash` measured for one backend variant (`durability.csv`), and the durability class it
/// supports.
public struct CrashResult: Sendable, Equatable {
    /// The counts of one fault, summed over its images.
    public struct Counts: Sendable, Equatable {
        public var trials = 0
        public var acknowledged = 0
        public var lost = 0
        public var corrupt = 0
        public var lostSomething: Bool { lost > 0 || corrupt > 0 }

        public init(trials: Int = 0, acknowledged: Int = 0, lost: Int = 0, corrupt: Int = 0) {
            self.trials = trials
            self.acknowledged = acknowledged
            self.lost = lost
            self.corrupt = corrupt
        }

        /// "0 of 1,234 lost, 0 unreadable in 50 trials".
        public var summary: String {
            "\(lost) of \(MarkdownTable.grouped(Double(acknowledged))) lost, \(corrupt) unreadable in \(trials) trials"
        }

        mutating func add(trials: Int, acknowledged: Int, lost: Int, corrupt: Int) {
            self.trials = max(self.trials, trials)
            self.acknowledged += acknowledged
            self.lost += lost
            self.corrupt += corrupt
        }
    }

    /// The killed-app result (nil: not measured).
    public var kill: Counts?
    /// The power-cut result over the synced and prefix images (nil: not measured; see ``powerLossUnmeasured``).
    public var powerLoss: Counts?
    /// Why power loss was not measured ("not-modelled: …", "unavailable: …"), when the file says.
    public var powerLossUnmeasured: String?

    public init(kill: Counts? = nil, powerLoss: Counts? = nil, powerLossUnmeasured: String? = nil) {
        self.kill = kill
        self.powerLoss = powerLoss
        self.powerLossUnmeasured = powerLossUnmeasured
    }

    /// The class a report shows: the declared promise, lowered where a fault lost acknowledged data or left an
    /// unreadable store. A measurement never raises a declared promise (no loss in N trials is not a proof);
    /// `measured` tells whether the power-loss part of the class was measured.
    public func durability(declared: DurabilityPromise) -> (promise: DurabilityPromise, measured: Bool) {
        var promise = declared
        if let kill, kill.lostSomething { promise = max(promise, .mayLose) }
        if let powerLoss, powerLoss.lostSomething { promise = max(promise, .survivesKill) }
        return (promise, powerLoss != nil)
    }

    /// The power-loss cell of a report.
    public var powerLossSummary: String {
        powerLoss?.summary ?? powerLossUnmeasured ?? "not measured"
    }

    /// Reads `durability.csv` into results by "backend [variant]". A file without a `fault` column (before power
    /// loss was measured) holds kills.
    public static func read(csv text: String) -> [String: CrashResult] {
        guard let decoded = try? CSVFormat.decode(text) else { return [:] }
        let column = Dictionary(decoded.header.enumerated().map { ($0.element, $0.offset) }) { first, _ in first }
        var results: [String: CrashResult] = [:]
        for cells in decoded.rows where cells.count == decoded.header.count {
            func text(_ name: String) -> String? { column[name].map { cells[$0] } }
            func int(_ name: String) -> Int { text(name).flatMap { Int($0) } ?? 0 }
            guard let backend = text("backend"), let variant = text("variant") else { continue }
            let key = "\(backend) [\(variant)]"
            var result = results[key] ?? CrashResult()
            let trials = max(int("trials"), int("kills"))
            let status = text("status") ?? "measured"
            switch text("fault") ?? "kill" {
            case "kill":
                var counts = result.kill ?? Counts()
                counts.add(trials: trials, acknowledged: int("acked_batches"), lost: int("lost_batches"), corrupt: int("corrupt_opens"))
                result.kill = counts
            case "power-loss" where status == "measured":
                var counts = result.powerLoss ?? Counts()
                counts.add(trials: trials, acknowledged: int("acked_batches"), lost: int("lost_batches"), corrupt: int("corrupt_opens"))
                result.powerLoss = counts
            case "power-loss":
                result.powerLossUnmeasured = "\(status): \(text("detail") ?? "")"
            default:
                continue
            }
            results[key] = result
        }
        return results
    }
}
