import StoreBenchContract

/// The durability class a report shows for one variant, with its evidence: the declared promise, lowered by any
/// loss `storebench crash` measured of that exact variant, and marked **measured** or **declared**.
///
/// - A loss (or an unreadable store) after a kill lowers it to "may lose data when the app is killed".
/// - A loss in any power-loss image (synced or prefix) lowers it to at most "survives a killed app".
/// - A measurement never raises a declared class: no loss in 50 cuts is not a proof.
/// - The class is *measured* when the fault that decides it was measured for this variant: power loss for
///   "survives power loss", kills for "survives a killed app", the measured loss for a lowered class.
public struct DurabilityClass: Sendable, Equatable {
    public let declared: DurabilityPromise
    public let promise: DurabilityPromise
    public let measured: Bool
    /// "measured: 0 of 10,590 lost in 50 cuts", "measured: power loss lost 42 of 3,389 in 50 cuts", "declared".
    public let evidence: String
    /// Set when a measurement contradicts the declaration: a warning naming both.
    public let contradiction: String?

    public init(declared: DurabilityPromise, crash: CrashResult?) {
        self.declared = declared
        var promise = declared
        var evidence = "declared"
        var measured = false
        if declared == .none {
            (self.promise, self.measured, self.evidence, self.contradiction) = (.none, true, "nothing is stored", nil)
            return
        }
        if let kill = crash?.kill, kill.lostSomething {
            promise = max(promise, .mayLose)
            (measured, evidence) = (true, "measured: a killed app, \(kill.brief("kills"))")
        } else if let power = crash?.powerLoss, power.lostSomething, promise.keeps(atLeast: .survivesKill) {
            promise = max(promise, .survivesKill)
            let images = [crash?.synced.flatMap { $0.lostSomething ? "synced image \($0.brief("cuts"))" : nil },
                          crash?.prefix.flatMap { $0.lostSomething ? "prefix images \($0.brief("images"))" : nil }]
            evidence = "measured: a power cut, " + images.compactMap { $0 }.joined(separator: "; ")
                + (crash?.kill.map { "; a killed app, \($0.brief("kills"))" } ?? "")
            measured = crash?.kill != nil
            if !measured { evidence += "; killed app declared" }
        } else {
            switch declared {
            case .durable:
                if let power = crash?.powerLoss { (measured, evidence) = (true, "measured: \(power.brief("cuts"))") }
            case .survivesKill:
                if let kill = crash?.kill { (measured, evidence) = (true, "measured: \(kill.brief("kills"))") }
            case .mayLose, .none:
                break
            }
        }
        self.promise = promise
        self.measured = measured
        self.evidence = evidence
        contradiction = promise == declared ? nil
            : "declared '\(declared.rawValue)', but storebench crash measured otherwise (\(evidence.replacingOccurrences(of: "measured: ", with: "")))"
    }

    /// "survives power loss (measured: 0 of 10,590 lost in 50 cuts)".
    public var label: String { promise == .none ? promise.rawValue : "\(promise.rawValue) (\(evidence))" }

    /// "survives power loss, measured" / "…, declared": the short form for tables and charts.
    public var short: String { promise == .none ? promise.rawValue : "\(promise.rawValue), \(measured ? "measured" : "declared")" }
}
