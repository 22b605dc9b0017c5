import Foundation
import StoreBenchCore

/// The `shared` workload's child jobs: each app or extension process, and the check in a fresh process.

/// Process `process` of the `shared` workload (0: the app, 1…: extensions) on the plan of `parameters` and
/// `generator` (``SharedWorker``); its own costs counted on `countingOn` (nil: the run does not count).
public struct SharedWorkerJob: ChildJob {
  public static let name = "shared-worker"
  public var store: ChildStore
  public var parameters: SharedPlan.Parameters
  public var generator: DatasetGenerator
  public var process: Int
  public var countingOn: String?

  public func perform(backends: BackendRegistry) throws -> ChildDone {
    let (descriptor, location) = try store.resolve(in: backends)
    let plan = SharedPlan(parameters: parameters, generator: generator)
    try SharedWorker(plan: plan, index: process, descriptor: descriptor, location: location).run(
      countingOn: countingOn)
    return ChildDone()
  }
}

/// The `shared` workload's check, in a fresh process (nothing of the store cached, as the next launch finds it):
/// reads the processes' reports (a JSON array, one line of standard input) and checks them against the store
/// (``SharedVerification``).
public struct SharedCheckJob: ChildJob {
  public static let name = "shared-check"
  public var store: ChildStore
  public var parameters: SharedPlan.Parameters
  public var generator: DatasetGenerator

  public func perform(backends: BackendRegistry) throws -> SharedCheckAnswer {
    let (descriptor, location) = try store.resolve(in: backends)
    let plan = SharedPlan(parameters: parameters, generator: generator)
    return try SharedCheckAnswer.check(plan: plan, descriptor: descriptor, location: location)
  }
}
