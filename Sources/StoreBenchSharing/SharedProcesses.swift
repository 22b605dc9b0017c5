import Foundation
import StoreBenchCore

/// The runner's side of the `shared` workload: the app and extension processes (``SharedWorker``), started in
/// prepare and waiting at the barrier, released together in measure, and collected in verify.
///
/// Each says `ready`, then — after `go <barrier>` — `done` the moment its planned work is over, then its report as one
/// JSON line. The repetition ends when every process has done its planned operations (the last `done`), before any
/// report is read or decoded.
final class SharedProcesses {
  private let children: [ChildProcess]
  private let names: [String]
  private var collected = false
  /// How long the runner waits for a process's next line before it gives up on it.
  static let patienceMilliseconds = 30 * 60 * 1000

  init(executable: URL, plan: SharedPlan, store: ChildStore, countingOn: String?) throws {
    var children: [ChildProcess] = []
    names = (0...plan.parameters.extensions).map(plan.processName)
    for process in 0...plan.parameters.extensions {
      let job = SharedWorkerJob(
        store: store, parameters: plan.parameters, generator: plan.generator, process: process,
        countingOn: countingOn)
      let child = try ChildProcess(executable: executable, job: job, input: true)
      try child.spawn()
      children.append(child)
    }
    self.children = children
    for (child, name) in zip(children, names) {
      guard child.nextLine(waitingMilliseconds: 120_000) == "ready" else {
        let outcome = child.killAndWait()
        kill()
        throw VerificationError("the \(name) process \(outcome.how) before it was ready: \(outcome.errors)")
      }
    }
  }

  /// Timed: releases every process at one barrier and returns when the last has said `done`.
  func go() throws {
    let barrier = monotonicNanoseconds()
    for child in children { try child.send("go \(barrier)") }
    for index in children.indices { try expect("done", from: index) }
  }

  /// Untimed: every process's report, the app's first.
  func reports() throws -> [SharedProcessReport] {
    try children.indices.map { index in
      let line = try line(from: index)
      do {
        return try JSONDecoder().decode(SharedProcessReport.self, from: Data(line.utf8))
      } catch {
        throw VerificationError("the \(names[index]) process answered with an unreadable report: \(error)")
      }
    }
  }

  /// Untimed: ends every process's input (each closes its store and exits) and checks that each exited 0.
  func finish() throws {
    guard !collected else { return }
    collected = true
    for (child, name) in zip(children, names) {
      let outcome = child.wait()
      guard !outcome.killedBySignal, outcome.exitCode == 0 else {
        throw VerificationError("the \(name) process \(outcome.how): \(outcome.errors)")
      }
    }
  }

  /// Untimed, after ``finish()``: checks `reports` against the store in a fresh process (``SharedCheckAnswer``); throws
  /// the check's failure.
  static func check(
    _ reports: [SharedProcessReport], executable: URL, plan: SharedPlan, store: ChildStore
  ) throws -> SharedCheckAnswer {
    let child = try ChildProcess(
      executable: executable,
      job: SharedCheckJob(store: store, parameters: plan.parameters, generator: plan.generator), input: true)
    try child.spawn()
    do {
      try child.send(String(decoding: try JSONEncoder().encode(reports), as: UTF8.self))
    } catch {
      _ = child.killAndWait()
      throw error
    }
    let outcome = child.wait()
    guard let answer = outcome.answer(to: SharedCheckJob.self) else {
      throw VerificationError("the checking process \(outcome.how): \(outcome.errors)")
    }
    if let failure = answer.failure { throw VerificationError(failure) }
    return answer
  }

  /// Bounds every wait on the processes by the repetition's bound and its first signal (a stopped or hung process
  /// is killed then, and its row fails saying so).
  func limit(_ bound: RepetitionBound?) {
    for child in children { child.limit(bound) }
  }

  /// Kills every process not collected yet (after a failure).
  func kill() {
    guard !collected else { return }
    collected = true
    for child in children { _ = child.killAndWait() }
  }

  private func expect(_ word: String, from index: Int) throws {
    let line = try line(from: index)
    guard line == word else {
      throw VerificationError("the \(names[index]) process said \(line.prefix(200)) instead of \(word)")
    }
  }

  private func line(from index: Int) throws -> String {
    guard let line = children[index].nextLine(waitingMilliseconds: Self.patienceMilliseconds) else {
      let outcome = children[index].killAndWait()
      collected = true
      kill()
      throw VerificationError("the \(names[index]) process \(outcome.how) without answering: \(outcome.errors)")
    }
    return line
  }
}

/// One process's figures as the row's `processes` cell shows them.
enum SharedSummary {
  static func line(_ report: SharedProcessReport) -> String {
    let latency = percentiles(report.latencies)
    func percentile(_ value: KeyPath<LatencyPercentiles, Double>) -> String {
      latency.map { String(format: "%.2f", $0[keyPath: value] / 1_000) } ?? "-"
    }
    var parts = [
      "\(report.acks.count) ops", "p50 \(percentile(\.p50)) ms", "p99 \(percentile(\.p99)) ms",
      String(format: "%.0f ops/s", report.throughput),
      "lock waits \(report.lockWaits.waits)", "waited \(milliseconds(report.waitNanoseconds)) ms",
      "refusals \(report.refusals)"
        + (report.refusalNames.isEmpty ? "" : " " + report.refusalNames.joined(separator: "/")),
      "retries \(report.retries)", "given up \(report.givenUp)", "failed \(report.errors)",
      "longest hold \(milliseconds(report.longestHoldNanoseconds)) ms",
    ]
    if report.screens > 0 { parts.insert("\(report.screens) screens", at: 1) }
    if report.planned > 0 { parts.insert("\(report.attempted) of \(report.planned) planned attempted", at: 1) }
    if report.skipped > 0 { parts.insert("\(report.skipped) edits of unsaved articles skipped", at: 1) }
    for cost in [CountedCost.syncs, .writeCalls, .writtenBytes] {
      if let value = report.costs[cost.rawValue] { parts.append("\(cost.rawValue) \(value)") }
    }
    return "\(report.name): " + parts.joined(separator: ", ")
  }

  /// The percentiles of `latencies` (ns) as a row's latency columns are taken (``LatencyRecorder``, µs); nil
  /// when there are none.
  static func percentiles(_ latencies: [UInt64]) -> LatencyPercentiles? {
    let recorder = LatencyRecorder(capacity: latencies.count)
    for latency in latencies { recorder.record(nanoseconds: latency) }
    return recorder.percentiles
  }

  private static func milliseconds(_ nanoseconds: UInt64) -> String {
    String(format: "%.2f", Double(nanoseconds) / 1e6)
  }
}
