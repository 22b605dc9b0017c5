import Foundation
import StoreBenchMeasure
import Synchronization

/// How long one repetition's library work may run, and the request that stops it sooner: a statement that never
/// ends (an unbounded recursive query in an app's SQL) is stopped once the repetition has run for `seconds`, or at
/// the first SIGINT or SIGTERM, instead of holding the command until it is killed.
///
/// The bound is the run's own: its `budget_seconds` (a repetition longer than the whole run's budget cannot be a
/// result), or, with no budget, ``defaultSeconds``.
public struct RepetitionBound: Sendable {
  /// A repetition's bound when the run has no budget.
  public static let defaultSeconds = 3_600.0
  public let seconds: Double
  /// What the bound comes from, for the error (`budget_seconds: 10`).
  public let source: String
  public let interrupt: InterruptRequest

  public init(seconds: Double, source: String, interrupt: InterruptRequest) {
    (self.seconds, self.source, self.interrupt) = (seconds, source, interrupt)
  }

  /// A repetition stopped by its bound or by a signal: what the row's error says.
  public struct Stopped: Error, CustomStringConvertible {
    public let description: String
  }

  /// Runs `body`, calling `stop` (thread-safe: it interrupts the library's running statement) from a watchdog once
  /// `started` is `seconds` behind or a signal arrived; an error `body` throws after that is the watchdog's, named.
  public func watch<T>(
    started: UInt64, stop: @escaping @Sendable () -> Void, _ body: () throws -> T
  ) throws -> T {
    let deadline = started &+ UInt64(seconds * 1e9)
    let state = WatchState()
    let interrupt = self.interrupt
    let watchdog = Thread {
      while !state.done.withLock({ $0 }) {
        if state.fired.load(ordering: .acquiring) == 0 {
          if let signal = interrupt.signal {
            state.fired.store(signal, ordering: .releasing)
          } else if monotonicNanoseconds() >= deadline {
            state.fired.store(-1, ordering: .releasing)
          }
        }
        // Again on every poll: a statement started after an interrupt is stopped too. Never once `body` has
        // returned (under the lock that ends it): the store may be closed by then.
        if state.fired.load(ordering: .acquiring) != 0 { state.done.withLock { if !$0 { stop() } } }
        usleep(100_000)
      }
    }
    watchdog.start()
    defer { state.done.withLock { $0 = true } }
    do {
      return try body()
    } catch {
      switch state.fired.load(ordering: .acquiring) {
      case 0: throw error
      case -1:
        throw Stopped(
          description: "stopped after \(MarkdownTable.clock(seconds)), the bound of one repetition "
            + "(\(source)): \(error)")
      default:
        throw Stopped(description: "stopped by \(interrupt.signalName): \(error)")
      }
    }
  }
}

/// What a watchdog and its repetition share.
private final class WatchState: Sendable {
  /// `body` returned: set, and read before each call of `stop`, under the one lock.
  let done = Mutex<Bool>(false)
  /// 0: not fired; -1: the deadline; else the signal's number.
  let fired = Atomic<Int32>(0)
}

extension ChildProcess {
  /// Bounds every wait on this child by the repetition's bound from now, and by the first signal
  /// (``ChildProcess/limit(seconds:stop:)``); nothing without a bound. A workload's own child takes the
  /// repetition's (`child.limit(run.bound)`), as the standard workloads' do.
  public func limit(_ bound: RepetitionBound?) {
    guard let bound else { return }
    let interrupt = bound.interrupt
    limit(seconds: bound.seconds) { interrupt.signal != nil }
  }
}
