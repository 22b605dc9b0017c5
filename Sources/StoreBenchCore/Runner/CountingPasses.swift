import Foundation

/// Runs a run's counting passes (``CountingPass``) after its timed repetitions: each pass runs in child processes of
/// its own — `storebench count-pass` under `valgrind --tool=callgrind --instr-atstart=no` (``CallgrindLaunch``) for
/// instructions, with ordo-one/malloc-interposer preloaded for allocations — that run the same scenario, seed and
/// selection once per case (after one uncounted warm-up round; no budgets, no repetition bound: the tools slow the work down), with the
/// pass's counter started and stopped exactly where the cost counters are. Each case gets one `counted` row holding
/// every pass's counts.
///
/// A workload whose work depends on timing (``Workload/workDependsOnTiming``: `shared`, how far the extension got;
/// `sync-while-reading`, how often the UI thread reloaded) is not counted: its counts would differ run to run and no
/// gate could judge them (and callgrind, running one thread at a time, took minutes over one such case). Nor is a
/// backend variant whose work depends on timing (``BackendDescriptor/workDependsOnTiming``: sqlite's `txn=batch`
/// commits by the clock; under callgrind its insert rows' instructions moved 5–11% between identical runs).
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

  /// One child: a pass over some of the plan's cases.
  private struct Job {
    let pass: CountingPass
    /// The plan's indices of its cases.
    let cases: [Int]
    /// The longest it may take.
    let seconds: Double
    let scratch: URL
    let output: String
    var launch: CallgrindLaunch?
    var process: ChildProcess?
    var failure: String?
  }

  /// Runs every pass over `plan`'s cases; `costs`: each case's mean seconds a timed repetition took (the
  /// children's deadlines come from them).
  func run(plan: RunPlan, costs: [Double]) -> Outcome {
    var outcome = Outcome()
    // The children's outputs, in the run's work directory's parent: removed when done or at a signal.
    let work: WorkDirectory
    do {
      work = try WorkDirectory(in: workdir, prefix: "storebench-counting-", removedOnSignal: interrupt)
    } catch {
      for pass in passes { outcome.missing[pass] = .some("no scratch directory in \(workdir.path): \(error)") }
      return outcome
    }
    defer { work.remove() }
    let scratch = work.url
    progress(
      "counting passes: \(passes.map(\.rawValue).joined(separator: ", ")), once per case (\(plan.cases.count) cases)…")
    let countable = plan.cases.indices.filter { !plan.cases[$0].workDependsOnTiming }
    var jobs: [Job] = []
    for pass in passes {
      let shares = pass == .instructions ? Self.deal(countable, into: shards) : [countable]
      for (number, share) in shares.enumerated() where !share.isEmpty {
        let directory = scratch.appendingPathComponent("\(pass.rawValue)-\(number)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var job = Job(
          pass: pass, cases: share,
          seconds: Self.deadline(forOneRepetitionOfEach: share.reduce(0) { $0 + costs[$1] }, cases: share.count),
          scratch: directory, output: directory.appendingPathComponent("run").path)
        start(&job)
        jobs.append(job)
      }
    }
    var tables: [CountingPass: [SampleTable]] = [:]
    for index in jobs.indices {
      let result = finish(&jobs[index])
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

  /// How long a child may take, from the timed repetitions of its cases: under callgrind a repetition runs 10 to 50
  /// times slower, and each region costs about a second more (callgrind translates the code again when it switches
  /// instrumentation); a child gets 100 times its cases' repetitions, 10 seconds a case and 10 minutes more.
  static func deadline(forOneRepetitionOfEach seconds: Double, cases: Int) -> Double {
    600 + 100 * seconds + 10 * Double(cases)
  }

  /// `cases` dealt into `count` shares in plan order, as cards (the i-th case to share i mod count): the same
  /// scenario gives every share the same cases in the same order, run after run. What ran before a region in its
  /// process moves its count (the allocator's state), so the shares must not depend on anything measured.
  static func deal(_ cases: [Int], into count: Int) -> [[Int]] {
    var shares = [[Int]](repeating: [], count: max(count, 1))
    for (position, index) in cases.enumerated() { shares[position % shares.count].append(index) }
    return shares
  }

  private func merge(_ pass: CountingPass, _ table: SampleTable, plan: RunPlan, into counted: inout [RowKey: Sample]) {
    let dataset = Dictionary(plan.cases.map { ($0.key, $0.data.fingerprint) }) { first, _ in first }
    let noteColumn = table.header.firstIndex(of: SampleColumn.note.rawValue)
    // A case the backend does not play has nothing to count: no counted row (its timed rows say unsupported).
    for (row, cells) in zip(table.rows, table.cells) where dataset[row.key] != nil && row.status != .unsupported {
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
      } else if row.values[SampleColumn.counted(pass.costs[0]).total] == nil {
        // The child said why it did not count (a region whose work ran in a launched process).
        let said = noteColumn.map { cells[$0] }.flatMap { $0.isEmpty ? nil : $0 }
        note(said ?? "\(pass.rawValue) not counted")
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
    // Its keys sorted: the same request is the same bytes, so the child's parse allocates the same way run after run.
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    guard let requestJSON = try? String(decoding: encoder.encode(request), as: UTF8.self) else {
      job.failure = "the request cannot be encoded"
      return
    }
    let arguments = [
      "count-pass", "--pass", job.pass.rawValue, "--cases", job.cases.map(String.init).joined(separator: ","),
      "--request", requestJSON,
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
  private func finish(_ job: inout Job) -> Result<SampleTable, CounterUnavailable> {
    guard let process = job.process else { return .failure(CounterUnavailable(job.failure ?? "not started")) }
    process.limit(seconds: job.seconds) { [interrupt] in interrupt.signal != nil }
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
