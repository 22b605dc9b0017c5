import Foundation
import Synchronization

/// A second thread in three phases, for `sync-while-reading`: `open` runs there at once and the initializer waits
/// for it (untimed, like any preparation); `run` starts at ``go()`` and ``result()`` waits for its value (the timed
/// part); `close` runs after that and ``finish()`` waits for it (untimed again). What `open` makes stays on the
/// thread; only the `@Sendable` closures and the `Sendable` result cross, so the compiler checks the sharing.
final class SecondThread<Value: Sendable>: Sendable {
  private let opened = DispatchSemaphore(value: 0)
  private let start = DispatchSemaphore(value: 0)
  private let cancelled = Atomic<Bool>(false)
  /// Left when `run` has a result (or will never run), and when the thread has ended.
  private let ran = DispatchGroup(), ended = DispatchGroup()
  private let openFailure = Mutex<(any Error)?>(nil)
  private let outcome = Mutex<Result<Value, any Error>?>(nil)
  private let closeFailure = Mutex<(any Error)?>(nil)

  /// Starts the thread and waits until `open` has run on it; throws what `open` threw.
  init<Context>(
    open: @escaping @Sendable () throws -> Context, run: @escaping @Sendable (Context) throws -> Value,
    close: @escaping @Sendable (Context) throws -> Void
  ) throws {
    ran.enter()
    ended.enter()
    let thread = Thread { [self] in
      defer { ended.leave() }
      let context: Context
      do {
        context = try open()
      } catch {
        openFailure.withLock { $0 = error }
        ran.leave()
        opened.signal()
        return
      }
      opened.signal()
      start.wait()
      if !cancelled.load(ordering: .acquiring) {
        let result = Result { try run(context) }
        outcome.withLock { $0 = result }
      }
      ran.leave()
      do { try close(context) } catch { closeFailure.withLock { $0 = error } }
    }
    thread.stackSize = 8 << 20
    thread.start()
    opened.wait()
    if let error = openFailure.withLock({ $0 }) {
      ended.wait()
      throw error
    }
  }

  /// Lets `run` begin.
  func go() { start.signal() }

  /// Waits for `run` and returns its value or rethrows its error.
  func result() throws -> Value {
    ran.wait()
    guard let result = outcome.withLock({ $0 }) else { throw CancellationError() }
    return try result.get()
  }

  /// Lets a thread whose `run` never started go straight to `close`, then waits for it to end; rethrows what
  /// `close` threw. Safe to call more than once, and after ``result()``.
  func finish() throws {
    cancelled.store(true, ordering: .releasing)
    start.signal()
    ended.wait()
    if let error = closeFailure.withLock({ $0 }) { throw error }
  }
}

/// A flag one thread raises and another polls.
final class DoneFlag: Sendable {
  private let value = Atomic<Bool>(false)
  func raise() { value.store(true, ordering: .releasing) }
  var isRaised: Bool { value.load(ordering: .acquiring) }
}
