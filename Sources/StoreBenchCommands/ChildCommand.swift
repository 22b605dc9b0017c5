import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore
import StoreBenchCrash

/// The child side of every parent–child exchange (hidden): a workload's child job (a launch, the `shared` processes)
/// or the harness's (the crash writer and checkers, verify-store). Its one argument is a ``ChildRequest`` as JSON;
/// the job is looked up by name among the harness's and the invocation's workloads' (``ChildJobRegistry``), with the
/// invocation's backends, and answers with one JSON line.
struct ChildCommand: ParsableCommand {
  static let configuration = CommandConfiguration.internal(
    "child", abstract: "Internal: do one child request (JSON) and answer with one JSON line.")

  @Argument(help: "The request, as JSON.") var request: String

  func run() throws {
    let environment = CommandEnvironment.current
    let jobs = ChildJobRegistry.standard(workloads: environment.workloads())
    let line = try jobs.perform(try ChildRequest(argument: request), backends: environment.registry())
    writeStandardOutput(Data((line + "\n").utf8))
  }
}
