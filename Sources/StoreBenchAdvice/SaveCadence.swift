/// How an app's saves come in time, for its loss window (``LossWindow``): `every` ms apart, either steadily or in
/// bursts of `burst` saves with a pause of `pause` ms after each (`save_cadence: {every_s, burst, pause_s}` in a
/// profile; a podcast player saving the playback position every 10 s while it plays, then nothing for hours).
///
/// A save a power cut can take waits for later saves to become durable (the crash writer's model: a sync made for
/// it or for a later save, never a timer). With bursts, the save at risk is the last before a pause: it waits the
/// whole pause for the next one.
public struct SaveCadence: Sendable, Equatable {
  /// The time between two saves of a burst (or of a steady app), in ms.
  public var everyMilliseconds: Double
  /// Saves per burst; nil: steady, no pause.
  public var burst: Int?
  /// The quiet after a burst, from its last save to the next burst's first, in ms (0 when steady).
  public var pauseMilliseconds: Double

  /// Saves `every` ms apart, steadily.
  public static func steady(everyMilliseconds: Double) -> SaveCadence {
    SaveCadence(everyMilliseconds: everyMilliseconds, burst: nil, pauseMilliseconds: 0)
  }

  /// A steady app's cadence from its saves a day (86,400,000 / saves a day ms apart; none: infinitely far).
  public static func steady(savesPerDay: Double) -> SaveCadence {
    steady(everyMilliseconds: savesPerDay > 0 ? 86_400_000 / savesPerDay : .infinity)
  }

  public init(everyMilliseconds: Double, burst: Int?, pauseMilliseconds: Double) {
    (self.everyMilliseconds, self.burst, self.pauseMilliseconds) = (everyMilliseconds, burst, pauseMilliseconds)
  }

  /// The longest a save waits until `depth` later saves have been made: `depth` steps, each `every` ms, except that
  /// the worst-placed save (the last of a burst) crosses a pause on the first step and one more every `burst` steps,
  /// ⌈depth / burst⌉ pauses in all. 0 for depth 0.
  public func wait(forLaterSaves depth: Int) -> Double {
    guard depth > 0 else { return 0 }
    guard let burst, burst > 0 else { return Double(depth) * everyMilliseconds }
    let pauses = (depth + burst - 1) / burst
    return Double(depth - pauses) * everyMilliseconds + Double(pauses) * pauseMilliseconds
  }

  /// "saves 10.0 s apart in bursts of 180, 4.0 h of quiet after each", or "saves 43.2 s apart".
  public var phrase: String {
    guard let burst else { return "saves \(LossWindow.age(everyMilliseconds)) apart" }
    return "saves \(LossWindow.age(everyMilliseconds)) apart in bursts of \(burst), "
      + "\(LossWindow.age(pauseMilliseconds)) of quiet after each"
  }
}
