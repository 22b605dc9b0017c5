import Foundation

/// Runs a run's counting passes (``CountingPass``) after its timed repetitions: each pass runs in child processes of
/// its own — `storebench count-pass` under `valgrind --tool=callgrind --instr-atstart=no` (``CallgrindLaunch``) for
/// instructions, with ordo-one/malloc-interposer preloaded for allocations — that run the same scenario, seed and
/// selection once per case (no warm-up, no budgets, no repetition bound: the tools slow the work down), with the
/// pass's counter started and stopped exactly where the cost counters are. Each case gets one `counted` row holding
/// every pass's counts.
///
/// A workload whose work depends on timing (``Workload/resultDependsOnTiming``: `shared`, how far the extension got)
/// is not counted: its counts would differ run to run and no gate could judge them.
///
/// A timed repetition never runs under either tool: they are other processes, started once every timed repetition
/// is done. The instructions pass, the slow one, is split into one shard per core (every n-th case), run side by side
/// with the allocations pass: counts do not depend on what else runs. Every wait has a deadline
/// (``deadline(forOneRepetitionOfEachCase:)``) and ends at the run's signal.
struct CountingPasses {
  let passes: [CountingPass]
  /// The request the run answers (each child runs it again, once per case of its shard).
  let request: RunRequest
  /// The storebench executable the children run.
  let executable: URL
  let workdir: URL
  let interrupt: InterruptRequest
  let progress: (String) -> Void
  /// Shards of the instructions pass run side by side.
  var shards = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))

  /// What the passes produced: one row per case that any pass counted, and per pass nil (counted) or why not.
  struct Outcome {
    var samples: [Sample] = []
    var missing: [CountingPass: String?] = [:]
  }

  /// One child: a pass over every `count`-th case from `shard`.
  private struct Job {
    let pass: CountingPass
    let shard: Int
    let count: Int
    let scratch: URL
    let output: String
    var launch: CallgrindLaunch?
    var process: ChildProcess?
    var failure: String?
  }

  /// Runs every pass over `plan`'s cases; `seconds`: the longest a pass may take.
  func run(plan: RunPlan, seconds: Double) -> Outcome {
    var outcome = Outcome()
    let scratch: URL
    do {
      scratch = try FileManager.default.url(
        for: .itemReplacementDirectory, in: .userDomainMask, appropriateFor: workdir, create: true)
    } catch {
      for pass in passes { outcome.missing[pass] = .some("no scratch directory in \(workdir.path): \(error)") }
      return outcome
    }
    defer { try? FileManager.default.removeItem(at: scratch) }
    progress(
      "counting passes: \(passes.map(\.rawValue).joined(separator: ", ")), once per case (\(plan.cases.count) cases)…")
    var jobs: [Job] = []
    for pass in passes {
      let count = pass == .instructions ? min(shards, plan.cases.count) : 1
      for shard in 0..<max(count, 1) {
        let directory = scratch.appendingPathComponent("\(pass.rawValue)-\(shard)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var job = Job(
          pass: pass, shard: shard, count: max(count, 1), scratch: directory,
          output: directory.appendingPathComponent("run").path)
        start(&job)
        jobs.append(job)
      }
    }
    var tables: [CountingPass: [SampleTable]] = [:]
    for index in jobs.indices {
      let result = finish(&jobs[index], seconds: seconds)
      switch result {
      case .success(let table): tables[jobs[index].pass, default: []].append(table)
      case .failure(let reason):
        let pass = jobs[index].pass
        if outcome.missing[pass] == nil {
          progress("counting pass \(pass.rawValue) not counted: \(reason)")
          outcome.missing[pass] = .some("the \(pass.rawValue) pass failed: \(reason)")
        }
      }
    }
    var counted: [RowKey: Sample] = [:]
    for pass in passes where outcome.missing[pass] == nil {
      outcome.missing[pass] = .some(nil)
      for table in tables[pass] ?? [] { merge(pass, table, plan: plan, into: &counted) }
    }
    outcome.samples = plan.cases.compactMap { counted[$0.key] }
    return outcome
  }

  /// How long a pass may take, from the timed repetitions: callgrind runs a region about 50 times slower and the
  /// rest of a repetition about 5 times; a pass gets 100 times one repetition of every case, and 10 minutes more.
  static func deadline(forOneRepetitionOfEachCase seconds: Double) -> Double { 600 + 100 * seconds }

  private func merge(_ pass: CountingPass, _ table: SampleTable, plan: RunPlan, into counted: inout [RowKey: Sample]) {
    let dataset = Dictionary(plan.cases.map { ($0.key, $0.data.fingerprint) }) { first, _ in first }
    // A case the backend does not play has nothing to count: no counted row (its timed rows say unsupported).
    for row in table.rows where dataset[row.key] != nil && row.status != .unsupported {
      var sample =
        counted[row.key]
        ?? {
          var fresh = Sample(key: row.key, repetition: 0, dataset: dataset[row.key]!)
          fresh.status = .counted
          return fresh
        }()
      func note(_ text: String) { sample.error += (sample.error.isEmpty ? "" : "; ") + text }
      let ops = Int(row.values[.ops] ?? 0)
      if row.status != .ok {
        note("\(pass.rawValue) pass: \(row.status.rawValue)\(row.error.isEmpty ? "" : ": " + row.error)")
      } else if sample.ops != 0 && sample.ops != ops {
        // Per-operation counts need one count of operations: a pass that did other work is not a count of it.
        note("\(pass.rawValue) pass did \(ops) operations, an earlier pass \(sample.ops): not counted")
      } else {
        sample.ops = ops
        for cost in pass.costs {
          if let value = row.values[SampleColumn.counted(cost).total] { sample.costs[cost] = Int64(value) }
        }
      }
      counted[row.key] = sample
    }
  }

  /// Starts one job's child (or records why it cannot start).
  private func start(_ job: inout Job) {
    // The recorded input (the scenario, selection, seed and parameters); the child sets its own policy and output.
    guard let requestJSON = try? String(decoding: JSONEncoder().encode(request), as: UTF8.self) else {
      job.failure = "the request cannot be encoded"
      return
    }
    let arguments = [
      "count-pass", "--pass", job.pass.rawValue, "--shard", "\(job.shard)/\(job.count)", "--request", requestJSON,
      "--out", job.output, "--workdir", workdir.path, "--max-cases", String(request.limits.cases),
      "--max-records", String(request.limits.records),
    ]
    var environment = ["SWIFT_DETERMINISTIC_HASHING": "1"]
    switch job.pass {
    case .instructions:
      switch CallgrindLaunch.prepare(executable, arguments: arguments, scratch: job.scratch) {
      case .success(let prepared):
        job.launch = prepared
        environment = prepared.environment
      case .failure(let reason):
        job.failure = reason.description
        return
      }
    case .allocations:
      let library = executable.deletingLastPathComponent().appendingPathComponent(AllocationCounter.libraryName)
      guard FileManager.default.fileExists(atPath: library.path) else {
        job.failure = "\(library.path) is not built (swift build -c release --product MallocInterposerSwift)"
        return
      }
      environment["LD_PRELOAD"] = library.path
    }
    do {
      let process = try ChildProcess(
        executable: job.launch?.program ?? executable, arguments: job.launch?.arguments ?? arguments,
        environment: environment)
      try process.spawn()
      job.process = process
    } catch {
      job.failure = "the child could not start: \(error)"
    }
  }

  /// Waits for one job's child and reads its samples.
  private func finish(_ job: inout Job, seconds: Double) -> Result<SampleTable, CounterUnavailable> {
    guard let process = job.process else { return .failure(CounterUnavailable(job.failure ?? "not started")) }
    process.limit(seconds: seconds) { [interrupt] in interrupt.signal != nil }
    let outcome = process.wait()
    guard outcome.gaveUp == nil, !outcome.killedBySignal, outcome.exitCode == 0 else {
      let log = job.launch.flatMap { try? String(contentsOf: $0.log, encoding: .utf8) } ?? ""
      let said = [outcome.errors, log].filter { !$0.isEmpty }.joined(separator: "\n")
      return .failure(
        CounterUnavailable(
          "storebench count-pass \(outcome.how)" + (said.isEmpty ? "" : ": " + String(said.suffix(600)))))
    }
    do {
      return .success(try SampleTable(path: job.output))
    } catch {
      return .failure(CounterUnavailable("its samples cannot be read: \(error)"))
    }
  }
}
