import Foundation
import StoreBenchAnalysis
import StoreBenchBackends
import StoreBenchCore
import StoreBenchStandard
import Testing

@testable import StoreBenchAdvice

/// A profile's save sizes and timing (`save_batch`, `save_cadence`) and the one-field update (`field_update`): parsed
/// strictly, measured by the workload each names, and the loss window judged on the cadence (``SaveCadence``).
@Suite("Save cadence, batch saves and one-field updates")
struct SaveCadenceTests {
  static let podcast = """
    name: podcast
    data: {records: 6000, parents: 30, summary_bytes: 400}
    per_day: {launch: 6, save: 8, field_update: 360}
    save_batch: 200
    save_cadence: {every_s: 10, burst: 180, pause_s: 14400}
    durability: {survive: power-loss, loss_window_ms: 60000}
    """

  static func profile(_ text: String) throws -> AppProfile {
    try AppProfile(
      data: Data(text.utf8), file: "p.yaml", operations: WorkloadRegistry.standard.adviceOperations.map(\.operation))
  }

  /// The longest any save waits for `depth` later saves, by walking the saves' times one by one: the figure
  /// ``SaveCadence/wait(forLaterSaves:)`` must give in closed form.
  static func simulatedWait(_ cadence: SaveCadence, depth: Int) -> Double {
    let burst = cadence.burst ?? 1_000
    var times: [Double] = []
    var now = 0.0
    for _ in 0..<(depth / burst + 3) {
      for index in 0..<burst {
        if index > 0 { now += cadence.everyMilliseconds }
        times.append(now)
      }
      now += cadence.burst == nil ? cadence.everyMilliseconds : cadence.pauseMilliseconds
    }
    return (0..<(times.count - depth)).map { times[$0 + depth] - times[$0] }.max() ?? 0
  }

  @Test("the wait for d later saves, in closed form, is the longest one in a walk over the saves' times")
  func waits() {
    let cadences = [
      SaveCadence.steady(everyMilliseconds: 43_200),
      SaveCadence(everyMilliseconds: 10_000, burst: 180, pauseMilliseconds: 14_400_000),
      SaveCadence(everyMilliseconds: 10_000, burst: 3, pauseMilliseconds: 100_000),
      SaveCadence(everyMilliseconds: 250, burst: 1, pauseMilliseconds: 60_000),
    ]
    for cadence in cadences {
      for depth in [1, 2, 3, 4, 5, 7, 12] {
        #expect(
          cadence.wait(forLaterSaves: depth) == Self.simulatedWait(cadence, depth: depth), "\(cadence) depth \(depth)")
      }
      #expect(cadence.wait(forLaterSaves: 0) == 0)
    }
    // Known values: the last save before a 100 s pause waits it, then 10 s for each later save of the next burst.
    #expect(cadences[2].wait(forLaterSaves: 1) == 100_000)
    #expect(cadences[2].wait(forLaterSaves: 5) == 230_000)
  }

  @Test(
    "the loss-window verdict follows the cadence: the same strategy meets a 60 s window with steady saves and fails it when saves come in bursts with pauses"
  )
  func verdictFollowsCadence() throws {
    // A strategy whose power cuts lose the newest save (depth 1), 27.3 ms old on the writer's clock.
    let crash = LossWindowTests.enumerated(lost: 19, depth: 1, writer: 27.3, lostStates: 58)
    let bursty = try Self.profile(Self.podcast)
    #expect(bursty.cadence == SaveCadence(everyMilliseconds: 10_000, burst: 180, pauseMilliseconds: 14_400_000))
    #expect(bursty.savesPerDay == 368)
    let steady = try Self.profile(Self.podcast.replacingOccurrences(of: "burst: 180, pause_s: 14400", with: ""))
    #expect(steady.cadence == .steady(everyMilliseconds: 10_000))
    let unstated = try Self.profile(
      Self.podcast.replacingOccurrences(of: "save_cadence: {every_s: 10, burst: 180, pause_s: 14400}\n", with: ""))
    #expect(unstated.cadence == .steady(savesPerDay: 368))

    let steadyWindow = LossWindow(crash: crash, cadence: steady.cadence)
    let burstyWindow = LossWindow(crash: crash, cadence: bursty.cadence)
    #expect(steadyWindow.meets(60_000) && !burstyWindow.meets(60_000))
    guard case .bounded(let milliseconds, 1, 27.3, 58, 200) = burstyWindow.outcome else {
      Issue.record("\(burstyWindow.outcome)")
      return
    }
    #expect(milliseconds == 14_400_000)
    #expect(burstyWindow.phrase.contains("up to 4.0 h old"), "\(burstyWindow.phrase)")
    #expect(burstyWindow.phrase.contains("the last save before a pause waits for the next save"))
    #expect(burstyWindow.phrase.contains("saves 10.0 s apart in bursts of 180, 4.0 h of quiet after each"))
    #expect(burstyWindow.record.savesPerBurst == 180 && burstyWindow.record.pauseMilliseconds == 14_400_000)
    #expect(steadyWindow.record.savesPerBurst == nil)
    // A durable strategy meets the window on either cadence.
    let none = LossWindowTests.enumerated(lost: 0, depth: nil, writer: nil)
    #expect(LossWindow(crash: none, cadence: bursty.cadence).meets(60_000))
  }

  @Test("save_batch and save_cadence are parsed strictly, naming the key")
  func parsing() throws {
    let refusals: [(String, String, String)] = [
      ("save_batch: 200", "save_batch: 0", "save_batch: 0 is out of range; expected a whole number in 1...100000"),
      ("save: 8, ", "", "save_batch: the size of a save the profile never makes"),
      ("burst: 180, pause_s: 14400", "burst: 180", "save_cadence.pause_s: a burst and its pause go together"),
      ("burst: 180, pause_s: 14400", "pause_s: 14400", "save_cadence.burst: a burst and its pause go together"),
      ("every_s: 10, ", "", "save_cadence.every_s: required key is missing"),
      ("every_s: 10", "every_s: 0", "save_cadence.every_s"),
      ("pause_s: 14400", "pause_s: 14400, jitter: 3", "save_cadence.jitter: unknown key"),
      (
        "{survive: power-loss, loss_window_ms: 60000}", "power-loss",
        "save_cadence: the cadence times the loss window"
      ),
    ]
    for (old, new, message) in refusals {
      let text = Self.podcast.replacingOccurrences(of: old, with: new)
      #expect(text != Self.podcast, "\(old)")
      do {
        _ = try Self.profile(text)
        Issue.record("parsed: \(new)")
      } catch { #expect("\(error)".contains(message), "\(error)") }
    }
    // Without the workloads' declared operations, field_update is not an operation the profile may name.
    do {
      _ = try AdviceTests.profile(Self.podcast)
      Issue.record("field_update parsed without its workload")
    } catch { #expect("\(error)".contains("per_day.field_update"), "\(error)") }
  }

  @Test(
    "a batch save is one app operation of the batch (parent-save into parents, insert without); field_update is its own workload"
  )
  func measures() throws {
    let plan = AdvicePlan(try Self.profile(Self.podcast), backends: .standard(), workloads: .standard)
    let save = try #require(plan.measures.first { $0.operation == .save })
    #expect(save.workload == "parent-save")
    #expect(save.parameters["batch"] == 200 && save.parameters["count"] == 200 * 50)
    #expect(save.parameters["stored"] == 6_000 && save.parameters["parents"] == 30)
    #expect(save.unit.hasPrefix("1 save of 200 records into parents"), "\(save.unit)")
    let update = try #require(plan.measures.first { $0.operation.rawValue == "field_update" })
    #expect(update.workload == "field-update")
    #expect(update.parameters["count"] == 100 && update.parameters["stored"] == 6_000)
    // The scenario it writes is accepted by the workloads (batch divides count) and holds both rows.
    let scenario = try plan.scenario()
    #expect(scenario.workloads.map(\.workload).contains("field-update"))
    // The probe cuts a row to 10 operations: 10 whole batches.
    let probe = try AdviceProbe.scenario(plan)
    let probed = try #require(probe.workloads.first { $0.workload == "parent-save" })
    #expect(probed.cases.first?[.count] == 10 * 200 && probed.cases.first?[.batch] == 200)
    // Without parents a batch save is insert's.
    let flat = AdvicePlan(
      try Self.profile(Self.podcast.replacingOccurrences(of: "parents: 30, ", with: "")), backends: .standard(),
      workloads: .standard)
    let insert = try #require(flat.measures.first { $0.operation == .save })
    #expect(insert.workload == "insert" && insert.parameters["batch"] == 200 && insert.parameters["count"] == 10_000)
    #expect(insert.unit.hasPrefix("1 save of 200 records, inserted and committed as one app operation"))
    _ = try flat.scenario()
    // One record a save without save_batch, as before.
    let single = AdvicePlan(
      try Self.profile(Self.podcast.replacingOccurrences(of: "save_batch: 200\n", with: "")), backends: .standard(),
      workloads: .standard)
    #expect(single.measures.first { $0.operation == .save }?.parameters["batch"] == nil)
    #expect(AdvicePlan.batchSaves(1) == 100 && AdvicePlan.batchSaves(200) == 50 && AdvicePlan.batchSaves(5_000) == 5)
  }

  @Test(
    "parent-save with a batch: every backend commits one app operation per batch and stores what one save at a time stores",
    arguments: BackendCase.contract)
  func batchedParentSave(_ backend: BackendCase) throws {
    let single = try WorkloadContractTests.sample(
      ParentSaveWorkload(), ParentSaveWorkload().smokeParameters, on: backend, registry: BackendCase.contractRegistry)
    guard single.status == .ok else {
      #expect(single.status == .unsupported, "\(single.error)")
      return
    }
    var batched = ParentSaveWorkload().smokeParameters
    batched["batch"] = 5
    let sample = try WorkloadContractTests.sample(
      ParentSaveWorkload(), batched, on: backend, registry: BackendCase.contractRegistry)
    try #require(sample.status == .ok, "\(sample.error)")
    #expect(single.ops == 10 && sample.ops == 2)
    #expect(sample.checksum == single.checksum)
    // A batch that does not divide the saves is refused before anything runs.
    var uneven = ParentSaveWorkload().defaultParameters
    uneven[.count] = 10
    uneven[.batch] = 3
    #expect(throws: ParameterError.self) { try ParentSaveWorkload().validate(uneven) }
  }
}
