import ArgumentParser
import Foundation
import StoreBenchCore

/// `storebench count-pass` (hidden): a counting pass's child (``CountingPass``). The parent run starts it under
/// callgrind or with the allocation interposer preloaded; it runs the parent's recorded request on its cases: one
/// uncounted warm-up round, then one repetition each with the pass's counter in its region (no budgets), into
/// `--out`, which the parent reads and removes.
struct CountPassCommand: ParsableCommand {
  static let configuration = CommandConfiguration.internal(
    "count-pass", abstract: "Internal: run a request once per case with a counting pass's counter (a run's child).")

  @Option(help: "instructions or allocations.") var pass: String
  @Option(help: "The parent run's recorded request, as JSON.") var request: String
  @Option(help: "The plan's cases to run, by index (comma-separated).") var cases: String
  @Option(help: "The output directory (must not exist).") var out: String
  @Option(help: "Parent of the work directory.") var workdir: String
  @Option(name: .customLong("max-cases")) var maxCases: Int
  @Option(name: .customLong("max-records")) var maxRecords: Int

  func run() throws {
    guard let pass = CountingPass(rawValue: pass) else {
      throw ValidationError("--pass: expected instructions or allocations")
    }
    let indices = cases.split(separator: ",").compactMap { Int($0) }
    guard !indices.isEmpty, indices.count == cases.split(separator: ",").count else {
      throw ValidationError("--cases: expected case indices, comma-separated")
    }
    var request = try failing(.badInput) { try JSONDecoder().decode(RunRequest.self, from: Data(self.request.utf8)) }
    request.output = out
    request.workdir = workdir
    request.limits.cases = maxCases
    request.limits.records = maxRecords
    request.counters = false
    request.countingPasses = []
    // One warm-up round, uncounted (``Runner``), then the counted repetition.
    request.policy.warmup = 1
    request.policy.repetitions = 1
    request.policy.budgetSeconds = nil
    request.policy.caseSeconds = nil
    var invocation = RunInvocation(request)
    invocation.countingChild = pass
    invocation.countingCases = indices
    invocation.childExecutable = RunningExecutable.url
    invocation.interrupt = InterruptRequest.install()
    defer { invocation.interrupt.uninstall() }
    let outcome: RunInvocation.Outcome
    do {
      outcome = try invocation.execute(
        backendRegistry: CommandEnvironment.current.registry(),
        workloadRegistry: CommandEnvironment.current.workloads(), progress: { _ in })
    } catch {
      throw CommandFailure(exit: .failure, message: "count-pass: \(error)")
    }
    if case .finished(let result, _) = outcome, result.interrupted { throw ExitCode(Exit.interrupted) }
  }
}
