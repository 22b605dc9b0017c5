import Foundation
import StoreBenchKit

/// `handoff`: a test-only workload that proves a workload is the unit of extension. Everything it needs is declared
/// here and in ``HandoffReadJob`` — its child job, two columns of its own, a figure in the decision report and an
/// advise operation — and it is registered by one line (main.swift); no file of storebench names it.
///
/// With M records stored, the app saves N more, each its own unit of work (the timed part); then, untimed, a fresh
/// process of this binary (the share extension the app hands its data to) reopens the store and reads every record:
/// `handoff_found` is how many it found, `handoff_child_s` its own open-to-read time. Verified twice: the store holds
/// exactly the M + N records, and the fresh process found exactly them.
public struct HandoffWorkload: Workload {
  public init() {}
  public let name = "handoff"
  public let summary = "save N records one unit of work at a time, then a fresh process reads them all (untimed)"
  public let sizeParameter = ParameterName.count
  public let smokeParameters = ["count": 10, "stored": 100]
  public let requires: StoreRoles = .articles
  public let parameters: [WorkloadParameter] = [
    .count(50, "records saved, each its own unit of work"),
    .stored(1_000, "records already in the store"),
  ]

  public static let found = SampleColumn(declaring: "handoff_found")
  public static let childSeconds = SampleColumn(declaring: "handoff_child_s")

  public var childJobs: [any ChildJob.Type] { [HandoffReadJob.self] }

  public var columns: [ReportColumn] {
    [
      .declared(
        Self.found, .count, .neither,
        "handoff: records the fresh process found after the app's saves (empty: the store does not outlive "
          + "its process, so nobody read it)"),
      .declared(
        Self.childSeconds, .seconds, .lowerIsBetter, aggregation: .median,
        "handoff: the fresh process's own time from opening the store to having read every record"),
    ]
  }

  public var figures: WorkloadFigures? {
    WorkloadFigures(
      [.init(Self.found, "records the fresh process found"), .init(Self.childSeconds, "its open and read")],
      introduction: "`handoff`: what a fresh process found after the app's saves, and its own time to open the "
        + "store and read every record (\"not exercised\": the store does not outlive its process).",
      exercisedBy: Self.found)
  }

  public var adviceOperations: [AdviceOperation] {
    [
      AdviceOperation(
        key: "handoff", phrase: "a save handed to a fresh process", needs: ["records"],
        parameters: { data in ["count": 20, "stored": data["records"]] },
        unit: { _ in "1 record saved and committed as its own app operation (handoff); 20 per repetition" })
    ]
  }

  public func missingNotes(_ notes: [SampleColumn: String]) -> String? {
    Int(notes[Self.found] ?? "") != nil || notes[.note]?.contains("handoff: ") == true
      ? nil : "the row records neither what the fresh process found nor why nobody read the store"
  }

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    let stored = parameters[.stored]
    let generated = generator.articles(count: stored + parameters[.count])
    return Case(stored: Array(generated[..<stored]), saved: Array(generated[stored...]))
  }

  final class Case: WorkloadCase {
    let stored: [Article]
    let saved: [Article]
    let expected: ArticleSnapshot
    let recordBytesWritten: Int64?

    init(stored: [Article], saved: [Article]) {
      (self.stored, self.saved) = (stored, saved)
      expected = ArticleSnapshot(stored + saved)
      recordBytesWritten = saved.payloadBytes
    }

    var fingerprint: String { expected.hex }

    func prepare(_ run: Repetition) throws -> any ArticleStore {
      try run.storeLoaded(with: stored, as: (any ArticleStore).self)
    }

    func measure(_ store: any ArticleStore, _ run: Repetition) throws -> Measured<Void> {
      try run.latencies.timeEach(saved) { article in try store.unitOfWork { try store.insert(article) } }
      return Measured(ops: saved.count)
    }

    func verify(_: Void, _: any ArticleStore, _ run: Repetition) throws -> String {
      let checksum = try run.expectArticles(expected)
      guard run.launch.persistent, run.launch.executable != nil else {
        run.appendNote("handoff: the store does not outlive its process; no fresh process read it")
        return checksum
      }
      try run.closeStore()
      let read = try run.answer(of: HandoffReadJob(store: run.launch.store), what: "the handoff process")
      guard read.count == expected.count, read.hex == expected.hex else {
        throw VerificationError(
          "the fresh process found \(read.count) records (\(read.hex)), expected \(expected.count) "
            + "(\(expected.hex))")
      }
      run.note(HandoffWorkload.found, String(read.count))
      run.note(HandoffWorkload.childSeconds, String(format: "%.9f", read.seconds))
      return checksum
    }
  }
}
