import Foundation
import StoreBenchCore

/// The one crash-trial orchestration, used by `storebench crash` and `storebench advise`: for each target variant and
/// each fault, ``CrashTrials`` until the trials are counted; a signal stops it before the next trial (never mid-way
/// through a variant's row, which would be incomplete), with the variants finished so far.
public struct CrashCampaign {
  /// One variant to test.
  public struct Target {
    public let descriptor: BackendDescriptor
    public let variant: Variant

    public init(descriptor: BackendDescriptor, variant: Variant) {
      self.descriptor = descriptor
      self.variant = variant
    }
  }

  /// What the campaign ended with.
  public enum Outcome {
    case finished([DurabilityRow])
    /// A signal stopped it: the rows of the variants that finished, and how many did.
    case interrupted([DurabilityRow], finishedTargets: Int)
  }

  public let executable: URL
  public let workRoot: URL
  public let seed: UInt64
  /// The faults per target; power loss only on persistent backends (a kill tests every variant).
  public var faults: [CrashFault] = [.kill, .powerLoss]
  public var trials = 50
  public var batchSize = CrashTrials.defaultBatchSize
  public var shape = RecordShape()
  public var maxDelayMilliseconds = CrashTrials.defaultMaxDelayMilliseconds
  public var prefixImages = CrashTrials.defaultPrefixImages
  /// Power cuts: enumerated crash states of a traced run (the default) or random moments.
  public var cuts = DurabilityRow.Method.enumerated
  public var enumeratedBatches = CrashTrials.defaultEnumeratedBatches
  public var statesPerPoint = CrashStatePlan.defaultBound
  public var tornWrites = false
  /// A test seam (``CrashTrials/droppedSync``); nil in real runs.
  public var droppedSync: Int?
  /// A test seam (``CrashTrials/delayedSync``); nil in real runs.
  public var delayedSync: Int?
  /// Checked before every trial.
  public let interrupt: InterruptRequest

  public init(executable: URL, workRoot: URL, seed: UInt64, interrupt: InterruptRequest) {
    self.executable = executable
    self.workRoot = workRoot
    self.seed = seed
    self.interrupt = interrupt
  }

  /// Runs every target. `row` sees each row as it is found; `finishedTarget` gets all rows so far after each
  /// target (to write them). A trial that fails throws a ``HarnessError`` naming the variant.
  public func run(
    _ targets: [Target], row: (DurabilityRow) -> Void = { _ in },
    finishedTarget: ([DurabilityRow], Int) throws -> Void = { _, _ in }
  ) throws -> Outcome {
    var rows: [DurabilityRow] = []
    var finished: [DurabilityRow] = []
    for (index, target) in targets.enumerated() {
      for fault in faults where fault == .kill || target.descriptor.persistent {
        var trials = CrashTrials(
          executable: executable, backend: target.descriptor, variant: target.variant,
          workRoot: workRoot, seed: seed)
        trials.fault = fault
        trials.batchSize = batchSize
        trials.shape = shape
        trials.maxDelayMilliseconds = maxDelayMilliseconds
        trials.prefixImages = prefixImages
        trials.cuts = cuts
        trials.enumeratedBatches = enumeratedBatches
        trials.statesPerPoint = statesPerPoint
        trials.tornWrites = tornWrites
        trials.droppedSync = droppedSync
        trials.delayedSync = delayedSync
        let interrupt = interrupt
        trials.shouldStop = { interrupt.signal != nil }
        do {
          let found = try trials.run(trials: self.trials)
          found.forEach(row)
          rows += found
        } catch is CrashTrials.Stopped {
          return .interrupted(finished, finishedTargets: index)
        }
      }
      finished = rows
      try finishedTarget(rows, index + 1)
    }
    return .finished(rows)
  }
}
