import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore
import StoreBenchOverhead

struct OverheadCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "overhead",
    abstract:
      "Compare the sqlite, lmdb and gdbm backends with the same work in C, and the workload path with the backend.",
    discussion: """
      For each backend: --count inserts in one transaction into a fresh store, and --count point lookups by \
      uid among --stored articles, on three sides in a rotating order each round: C, the Swift backend in a \
      plain loop (the adapter), and one repetition of the insert or lookup workload as `storebench run` times \
      it (the workload path: per-operation clock, commit, cost counters). Same data, schema and settings (no \
      fsync: it would hide the CPU cost in disk noise); every round proves the work equal by checksums. Prints \
      the medians and the paired ratios with their 95% intervals; --out also writes them as JSON. Exits 1 when \
      the work differs, 2 when the upper end of a ratio's interval exceeds its goal (adapter/C: inserts \
      \(AdapterOverhead.Operation.insert.goal)×, lookups \(AdapterOverhead.Operation.lookup.goal)×; \
      workload/adapter: \(AdapterOverhead.workloadGoal)×).
      """
  )

  @Option(help: "Articles per insert, and lookups per round.") var count = 10_000
  @Option(help: "Articles stored for the lookups.") var stored = 20_000
  @Option(help: "Measured rounds (each runs every side once; one more warms up).") var reps = 21
  @OptionGroup var seed: SeedOption
  @Option(name: .customLong("backend"), help: "Only this backend (repeatable): sqlite, lmdb, gdbm.")
  var backends: [String] = []
  @Option(name: .customLong("operation"), help: "Only this operation (repeatable): insert, lookup.")
  var operations: [String] = []
  @Flag(name: .customLong("no-counters"), help: "Time the workload path without the cost counters.")
  var noCounters = false
  @Flag(
    name: .customLong("no-instructions"),
    help: "Do not count each side's instructions (one more round of every side, under callgrind, after the timed ones)."
  )
  var noInstructions = false
  @Flag(name: .customLong("instructions-child"), help: .hidden) var instructionsChild = false
  @Option(help: "Also write the measurement as JSON to this file (a regular file, replaced whole).")
  var out: String?
  @OptionGroup var workdir: WorkDirectoryOption

  func validate() throws {
    guard (1...10_000_000).contains(count) else { throw ValidationError("--count must be in 1...10000000") }
    guard (1...10_000_000).contains(stored) else { throw ValidationError("--stored must be in 1...10000000") }
    guard count <= stored else { throw ValidationError("--count (\(count)) must not exceed --stored (\(stored))") }
    guard instructionsChild || (6...1000).contains(reps) else {
      throw ValidationError("--reps must be in 6...1000 (a 95% interval of a paired ratio needs 6 rounds)")
    }
    let known = AdapterOverhead.backends.map(\.name)
    for name in backends where !known.contains(name) {
      throw ValidationError("--backend \(name): no C baseline; there are \(known.joined(separator: ", "))")
    }
    for name in operations where AdapterOverhead.Operation(rawValue: name) == nil {
      throw ValidationError("--operation \(name): there are insert, lookup")
    }
  }

  func run() throws {
    let workURL = try failing(.badInput) { try OutputLocations.workdir(workdir.workdir) }
    if let out {
      try failing(.badInput) {
        try RunOutput.checkPath(out)
        try StandaloneOutput.check(URL(fileURLWithPath: out))
      }
    }
    if MachineFacts.buildConfiguration == "debug" {
      printError("WARNING: DEBUG BUILD: the Swift side is not optimized; build with -c release")
    }
    var request = AdapterOverhead.Request()
    if !backends.isEmpty { request.backends = backends }
    if !operations.isEmpty { request.operations = operations.compactMap(AdapterOverhead.Operation.init) }
    (request.count, request.stored, request.repetitions) = (count, stored, reps)
    request.seed = seed.seed ?? 42
    request.counters = !noCounters && !instructionsChild
    request.countInstructions = instructionsChild
    let interrupt = InterruptRequest.install()
    defer { interrupt.uninstall() }
    var results: [AdapterOverhead.Measurement]
    do {
      results = try AdapterOverhead.measure(request, workdir: workURL) { interrupt.signal != nil }
    } catch is AdapterOverhead.Stopped {
      printError("interrupted by \(interrupt.signalName): nothing was measured to the end")
      throw ExitCode(interrupt.exit)
    }
    if !instructionsChild && !noInstructions {
      switch OverheadInstructions(request: request, workdir: workURL, interrupt: interrupt).count() {
      case .success(let counted):
        for index in results.indices {
          results[index].instructions =
            counted.first {
              $0.backend == results[index].backend && $0.operation == results[index].operation
            }?.instructions
        }
      case .failure(let reason): printError("WARNING: instructions not counted: \(reason)")
      }
    }
    let command = (["storebench"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
    let report = OverheadReport(request: request, command: command, rows: results)
    if let out {
      try failing(.failure) { try StandaloneOutput.write(try report.encoded(), to: URL(fileURLWithPath: out)) }
    }
    print(report.markdownTable)
    if let unequal = results.first(where: { !$0.equalWork.holds }) {
      throw CommandFailure(
        exit: .failure,
        message: "storebench overhead: \(unequal.backend) \(unequal.operation.rawValue): "
          + "the sides did not do the same work (\(unequal.equalWork))")
    }
    // The child's one round has no intervals: its parent judges the goals on the timed rounds.
    if !report.unmet.isEmpty && !instructionsChild {
      printError("over the goal (upper end of the 95% interval): " + report.unmet.joined(separator: "; "))
      throw ExitCode(.regression)
    }
  }
}
