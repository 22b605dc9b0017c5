import StoreBenchContract

/// The durability class a report shows for one variant, with its evidence: the declared promise, lowered by any
/// loss `storebench crash` measured of that exact variant, and marked **measured** or **declared**.
///
/// - A loss (or an unreadable store) after a kill lowers it to "may lose data when the app is killed".
/// - A loss in any power-loss image (synced or prefix) lowers it to at most "survives a killed app".
/// - A measurement never raises a declared class: no loss in 50 cuts bounds the loss rate (≤ 5.8% per cut), it
///   does not prove it zero.
/// - A declared class shows every measurement of the variant beside it; what was survived comes before what was not.
/// - The class is *measured* when the fault that decides it was measured for this variant: power loss for
///   "survives power loss", kills for "survives a killed app", the measured loss for a lowered class.
public struct DurabilityClass: Sendable, Equatable {
  public let declared: DurabilityPromise
  public let promise: DurabilityPromise
  public let measured: Bool
  /// "measured: power cut: no loss in 50 cuts (…); killed app: no loss in 50 kills (…)", "declared; measured:
  /// killed app: …" (a declared class shows every measurement beside it); ``CrashEvidence`` renders each part.
  public let evidence: String
  /// The short form's evidence (``short``).
  let briefEvidence: String
  /// Set when a measurement contradicts the declaration: a warning naming both.
  public let contradiction: String?

  public init(declared: DurabilityPromise, crash: CrashResult?) {
    self.declared = declared
    if declared == .none {
      (promise, measured, evidence, briefEvidence, contradiction) = (.none, true, "nothing is stored", "", nil)
      return
    }
    // Each measurement in its own unit, what was survived before what was not.
    let kill = crash?.kill
    let killText = kill.map { "killed app: " + CrashEvidence.kill($0) }
    let powerText = crash.flatMap {
      $0.synced != nil || $0.prefix != nil ? "power cut: " + $0.powerLossSummary : nil
    }
    let killLost = kill?.lostSomething == true
    let powerLost = crash?.powerLossLostSomething == true
    var promise = declared
    var measured = false
    var texts: [String?] = [killText, powerText]
    if killLost {
      promise = max(promise, .mayLose)
      measured = true
    } else if powerLost && promise.keeps(atLeast: .survivesKill) {
      promise = max(promise, .survivesKill)
      measured = kill != nil
    } else if declared == .durable, crash?.powerLossLostSomething == false {
      measured = true
      texts = [powerText, killText]
    } else if declared == .survivesKill, kill != nil {
      measured = true
    }
    let shown = texts.compactMap { $0 }.joined(separator: "; ")
    // The short form's states name their fault ("kills", "cuts").
    let briefKill = kill.map(CrashEvidence.briefKill)
    let briefPower = crash.flatMap {
      $0.synced != nil || $0.prefix != nil
        ? CrashEvidence.briefPowerCut(synced: $0.synced, prefix: $0.prefix, torn: $0.torn) : nil
    }
    // The short form: a measured class with the measurement that decides it (and, lowered by a power cut, that
    // loss after what was survived); a declared class with every measurement beside it.
    let deciding: [String?] =
      if killLost { [briefKill] } else if powerLost && measured {
        [briefKill, briefPower]
      } else if measured && declared == .durable { [briefPower] } else if measured { [briefKill] } else {
        [briefKill, briefPower]
      }
    let briefShown = deciding.compactMap { $0 }.joined(separator: "; ")
    briefEvidence =
      measured
      ? "measured: " + briefShown : (briefShown.isEmpty ? "declared" : "declared; measured: " + briefShown)
    if measured {
      evidence = "measured: " + shown
    } else if promise != declared {
      evidence = "killed app declared; measured: " + shown
    } else {
      evidence = "declared" + (shown.isEmpty ? "" : "; measured: " + shown)
    }
    self.promise = promise
    self.measured = measured
    contradiction =
      promise == declared
      ? nil
      : "declared '\(declared.rawValue)', but storebench crash measured otherwise (\(shown))"
  }

  /// "survives power loss (measured: 0 of 10,590 lost in 50 cuts)".
  public var label: String { promise == .none ? promise.rawValue : "\(promise.rawValue) (\(evidence))" }

  /// "survives power loss, measured: power cut: no loss in 50 cuts (≤ 5.8% per cut); killed app: …" / "…,
  /// declared; measured: killed app: …": the short form for tables, with the count of crash states and the bound.
  public var short: String { promise == .none ? promise.rawValue : "\(promise.rawValue), \(briefEvidence)" }
}
