import Foundation
import StoreBenchAdvice
import StoreBenchAnalysis
import StoreBenchBackends
import StoreBenchContract
import StoreBenchCore
import StoreBenchStandard
import Testing

/// A profile's loss window (`durability: {survive: power-loss, loss_window_ms: W}`): parsed strictly, judged on the
/// enumerated crash states in the app's time (``LossWindow``), and what the answer says.
@Suite("Loss window")
struct LossWindowTests {
  static let windowed = """
    name: t
    data: {records: 1000, summary_bytes: 400}
    per_day: {launch: 10, save: 2000}
    budgets: {save: {ms: 16.7}, launch: {ms: 100, percentile: p90}}
    durability: {survive: power-loss, loss_window_ms: 1000}
    """

  /// An enumerated power-loss result: `lost` of 20 batches lost in `lostStates` of 160 synced states, at most the
  /// newest `depth`, the oldest `writer` ms old on the writer's clock.
  static func enumerated(lost: Int, depth: Int?, writer: Double?, lostStates: Int = 0, corrupt: Int = 0)
    -> CrashResult
  {
    let synced = CrashResult.Counts(
      trials: 1, states: 160, acknowledged: 20, lost: lost, corrupt: corrupt,
      enumerated: .init(
        points: 80, distinctImages: 160, lostStates: lostStates, lossWindowMilliseconds: writer,
        lossDepth: depth))
    let prefix = CrashResult.Counts(
      trials: 1, states: 40, acknowledged: 20, lost: 0, enumerated: .init(points: 80, distinctImages: 40))
    return CrashResult(kill: .init(trials: 8, acknowledged: 400, lost: 0), synced: synced, prefix: prefix)
  }

  @Test(
    "the durability mapping parses; a window needs survive: power-loss and saves; unknown keys and bad values are refused"
  )
  func parsing() throws {
    let profile = try AdviceTests.profile(Self.windowed)
    #expect(profile.need == .powerLoss && profile.lossWindowMilliseconds == 1_000)
    #expect(profile.savesPerDay == 2_000)
    #expect(profile.needPhrase == "survives a killed app, and a power cut loses no save older than 1.0 s")
    let plain = try AdviceTests.profile(
      Self.windowed.replacingOccurrences(
        of: "{survive: power-loss, loss_window_ms: 1000}", with: "{survive: kill}"))
    #expect(plain.need == .kill && plain.lossWindowMilliseconds == nil)
    let refusals: [(String, String)] = [
      (
        "{survive: kill, loss_window_ms: 1000}",
        "durability.loss_window_ms: a loss window bounds what a power cut"
      ),
      ("{survive: power-loss, window: 1000}", "durability.window: unknown key"),
      ("{loss_window_ms: 1000}", "durability.survive: required key is missing"),
      ("{survive: power-loss, loss_window_ms: 0}", "durability.loss_window_ms"),
      ("{survive: flood}", "durability.survive: 'flood'; allowed: kill"),
      ("[power-loss]", "durability: expected a single value"),
    ]
    for (value, message) in refusals {
      let text = Self.windowed.replacingOccurrences(
        of: "{survive: power-loss, loss_window_ms: 1000}", with: value)
      #expect(throws: ScenarioError.self, "\(value)") { try AdviceTests.profile(text) }
      do { _ = try AdviceTests.profile(text) } catch { #expect("\(error)".contains(message), "\(error)") }
    }
    // Without saves there is nothing a window could bound.
    let noSaves = Self.windowed.replacingOccurrences(of: "save: 2000", with: "search: 5")
      .replacingOccurrences(of: "budgets: {save: {ms: 16.7}, ", with: "budgets: {")
    do {
      _ = try AdviceTests.profile(noSaves)
      Issue.record("a window without saves parsed")
    } catch { #expect("\(error)".contains("a loss window is about saves"), "\(error)") }
  }

  @Test(
    "the window in the app's time: no loss meets any window, depth × the save interval bounds a loss, a state that lost every save has no bound, random cuts none measured"
  )
  func judgement() {
    // 2,000 saves a day: one every 43.2 s.
    let none = LossWindow(crash: Self.enumerated(lost: 0, depth: nil, writer: nil), savesPerDay: 2_000)
    #expect(none.outcome == .noLoss(states: 200) && none.meets(1))
    let newest = LossWindow(
      crash: Self.enumerated(lost: 19, depth: 1, writer: 27.3, lostStates: 58), savesPerDay: 2_000)
    guard case .bounded(let window, 1, 27.3, 58, 200) = newest.outcome else {
      Issue.record("\(newest.outcome)")
      return
    }
    #expect(abs(window - 43_200) < 1e-6)
    #expect(!newest.meets(1_000) && newest.meets(60_000))
    #expect(newest.phrase.contains("up to 43.2 s old") && newest.phrase.contains("58 of 200 crash states"))
    // The writer's own figure wins when it is the larger (a save that waited on a timer, not on later saves).
    let slow = LossWindow(
      crash: Self.enumerated(lost: 3, depth: 3, writer: 90_000, lostStates: 5), savesPerDay: 100_000)
    #expect(slow.meets(90_000) && !slow.meets(89_999))
    let all = LossWindow(crash: Self.enumerated(lost: 20, depth: 20, writer: 12, lostStates: 80), savesPerDay: 1)
    #expect(!all.meets(86_400_000))
    #expect(all.phrase.contains("lost all 20 saves the run acknowledged"), "\(all.phrase)")
    let unreadable = LossWindow(
      crash: Self.enumerated(lost: 0, depth: nil, writer: nil, corrupt: 2), savesPerDay: 2_000)
    #expect(!unreadable.meets(86_400_000) && unreadable.phrase.contains("2 crash states were unreadable"))
    let random = CrashResult(
      kill: .init(trials: 8, acknowledged: 400, lost: 0), synced: .init(trials: 8, acknowledged: 400, lost: 0))
    #expect(LossWindow(crash: random, savesPerDay: 2_000).outcome == .unmeasured)
    #expect(LossWindow(crash: nil, savesPerDay: 2_000).outcome == .unmeasured)
  }

  @Test(
    "a strategy that loses only recent saves meets a wide enough window and fails a narrow one; a durable one meets both"
  )
  func advice() throws {
    let table = try AdviceTests.table([
      (
        "fast", "v", [0.001, 0.0011, 0.0009, 0.001, 0.001, 0.001, 0.001, 0.001],
        Array(repeating: 0.05, count: 8)
      ),
      (
        "safe", "v", [0.004, 0.0041, 0.0039, 0.004, 0.004, 0.004, 0.004, 0.004],
        Array(repeating: 0.05, count: 8)
      ),
    ])
    let crashes = [
      "fast [v]": Self.enumerated(lost: 19, depth: 1, writer: 27.3, lostStates: 58),
      "safe [v]": Self.enumerated(lost: 0, depth: nil, writer: nil),
    ]
    let promise: (String, String) -> DurabilityPromise? = { _, _ in .durable }
    let narrow = Advice(
      plan: AdvicePlan(try AdviceTests.profile(Self.windowed), backends: .standard(), workloads: .standard),
      table: table,
      crashes: crashes, promise: promise, resamples: 300)
    #expect(narrow.recommendation?.backend == "safe")
    let fast = try #require(narrow.strategies.first { $0.backend == "fast" })
    #expect(fast.verdict == .failsNeed)
    #expect(
      narrow.reason(fast)
        == "fails the need (survives a killed app, and a power cut loses no save older than 1.0 s)")
    let markdown = narrow.markdown(
      .init(
        host: "h", cpu: "c", cores: 2, kernel: "k", fileSystem: "ext4", date: "d", commit: "abc",
        runDirectory: "run/", crashTrials: "t"), chart: nil)
    #expect(markdown.contains("loses saves up to 43.2 s old on a power cut"), "\(markdown)")
    #expect(markdown.contains("loses no save in 200 crash states"))
    let wide = Advice(
      plan: AdvicePlan(
        try AdviceTests.profile(Self.windowed.replacingOccurrences(of: "1000}", with: "60000}")),
        backends: .standard(), workloads: .standard),
      table: table, crashes: crashes, promise: promise, resamples: 300)
    #expect(wide.recommendation?.backend == "fast")
    // Without a window, power-loss needs no loss at all.
    let strict = Advice(
      plan: AdvicePlan(
        try AdviceTests.profile(
          Self.windowed.replacingOccurrences(
            of: "{survive: power-loss, loss_window_ms: 1000}", with: "power-loss")),
        backends: .standard(), workloads: .standard),
      table: table, crashes: crashes, promise: promise, resamples: 300)
    #expect(strict.recommendation?.backend == "safe")
    #expect(strict.strategies.allSatisfy { $0.lossWindow == nil })
  }
}
