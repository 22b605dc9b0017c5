import ArgumentParser
import Foundation
import StoreBenchCore
import StoreBenchOverhead

/// `storebench overhead`'s instruction counts: after the timed rounds, the same request runs once more (one warm-up
/// round, one counted) in a child under callgrind (``CallgrindLaunch``, `overhead --instructions-child`), which counts
/// each side's instructions over exactly the span its clock covers — the C code brackets its own clock — and writes
/// them as JSON. Timed rounds never run under valgrind.
struct OverheadInstructions {
  let request: AdapterOverhead.Request
  let workdir: URL
  let interrupt: InterruptRequest

  /// The longest the child may take: the counted run is one warm-up and one counted round, about 50 times slower.
  static let deadlineSeconds = 3_600.0

  /// The child's rows (each with ``AdapterOverhead/Measurement/instructions``), or why there are none.
  func count() -> Result<[AdapterOverhead.Measurement], CounterUnavailable> {
    guard let executable = RunningExecutable.url else {
      return .failure(CounterUnavailable("the storebench executable cannot be found"))
    }
    let work: WorkDirectory
    do {
      work = try WorkDirectory(in: workdir, prefix: "storebench-counting-", removedOnSignal: interrupt)
    } catch {
      return .failure(CounterUnavailable("no scratch directory in \(workdir.path): \(error)"))
    }
    defer { work.remove() }
    let scratch = work.url
    let output = scratch.appendingPathComponent("instructions.json")
    var arguments = [
      "overhead", "--instructions-child", "--reps", "1", "--count", String(request.count), "--stored",
      String(request.stored), "--seed", String(request.seed), "--out", output.path, "--workdir", workdir.path,
    ]
    for backend in request.backends { arguments += ["--backend", backend] }
    for operation in request.operations { arguments += ["--operation", operation.rawValue] }
    let launch: CallgrindLaunch
    switch CallgrindLaunch.prepare(executable, arguments: arguments, scratch: scratch) {
    case .success(let prepared): launch = prepared
    case .failure(let reason): return .failure(reason)
    }
    printError("counting instructions: every side once more under callgrind…")
    let outcome: ChildProcess.Outcome
    do {
      let child = try ChildProcess(
        executable: launch.program, arguments: launch.arguments, environment: launch.environment)
      try child.spawn()
      child.limit(seconds: Self.deadlineSeconds) { [interrupt] in interrupt.signal != nil }
      outcome = child.wait()
    } catch {
      return .failure(CounterUnavailable("the child could not start: \(error)"))
    }
    guard outcome.gaveUp == nil, !outcome.killedBySignal, outcome.exitCode == 0 else {
      let log = (try? String(contentsOf: launch.log, encoding: .utf8)) ?? ""
      return .failure(
        CounterUnavailable(
          "storebench overhead --instructions-child \(outcome.how): "
            + String([outcome.errors, log].joined(separator: "\n").suffix(600))))
    }
    do {
      return .success(try OverheadReport(contentsOf: output).rows)
    } catch {
      return .failure(CounterUnavailable("its counts cannot be read: \(error)"))
    }
  }
}
