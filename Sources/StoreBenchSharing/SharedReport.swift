import Foundation
import StoreBenchCore

/// What one process of the `shared` workload did, sent to the runner as one JSON line when it finishes.
public struct SharedProcessReport: Codable, Sendable {
  /// One acknowledged write: which operation (the app's index, or the extension's number), when its unit of work
  /// began and when its call returned (CLOCK_MONOTONIC, comparable across the processes of one machine) and, for a
  /// mark, the article it marked.
  public struct Ack: Codable, Sendable, Equatable {
    public var operation: Int
    /// When the write's unit of work began (its file can be replaced from then on).
    public var started: UInt64
    /// When its call returned.
    public var nanoseconds: UInt64
    public var uid: String?

    public init(operation: Int, started: UInt64, nanoseconds: UInt64, uid: String?) {
      (self.operation, self.started, self.nanoseconds, self.uid) = (operation, started, nanoseconds, uid)
    }
  }

  public var name: String
  /// Acknowledged operations.
  public var acks: [Ack] = []
  /// Each acknowledged operation's latency (ns): the app's from its start, an extension's from its arrival.
  public var latencies: [UInt64] = []
  /// Screens read (extensions).
  public var screens = 0
  /// An extension's planned operations (``SharedPlan/plannedArrivals(ofExtension:)``), and those it attempted
  /// (acknowledged, given up or failed): fewer attempted than planned means it was stopped early.
  public var planned = 0
  public var attempted = 0
  /// Attempts the library refused (``ProcessSharingStore/refusal(in:)``), retries made, and operations given up
  /// after the last retry.
  public var refusals = 0
  public var retries = 0
  public var givenUp = 0
  /// The refusals' names, each once (`SQLITE_BUSY`).
  public var refusalNames: [String] = []
  /// The app's edits left out because the save they edit was given up or failed.
  public var skipped = 0
  /// Operations that failed with another error (not retried), and the first one's message.
  public var errors = 0
  public var firstError: String?
  /// The library's lock waits (busy-handler calls and their sleep; LMDB's waiting write begins).
  public var lockWaits = LockWaits()
  /// The time slept between a refusal and its retry.
  public var backoffNanoseconds: UInt64 = 0
  /// The longest write (a unit of work) less its lock waits: the longest the process held the write lock.
  public var longestHoldNanoseconds: UInt64 = 0
  /// The barrier and the end of the process's last operation (CLOCK_MONOTONIC).
  public var start: UInt64 = 0
  public var end: UInt64 = 0
  /// The process's own counted costs over its work (``CountedCost`` raw values), when the run counts.
  public var costs: [String: Int64] = [:]

  public init(name: String) { self.name = name }

  /// Operations acknowledged per second, from the barrier to the process's last operation.
  public var throughput: Double {
    end > start ? Double(acks.count) / (Double(end - start) / 1e9) : 0
  }

  /// Time waiting for the other processes' locks: the library's waits and the back-off before retries.
  public var waitNanoseconds: UInt64 { lockWaits.nanoseconds + backoffNanoseconds }

  /// The process's own time in its acknowledged operations, each from when it began (the app's pauses and an
  /// extension's wait behind its own previous operation are not in it; a latency from arrival is).
  public var busyNanoseconds: UInt64 = 0

  /// The latencies of the operations that arrived before `end` (the app's last operation): an extension's
  /// operations that competed with the app. An operation arrived `latency` before its acknowledgement.
  public func latencies(arrivingBefore end: UInt64) -> [UInt64] {
    zip(acks, latencies).compactMap { ack, latency in
      ack.nanoseconds >= latency && ack.nanoseconds - latency < end ? latency : nil
    }
  }
}
