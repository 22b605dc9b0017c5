import Dispatch
import StoreBenchContract
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT and SIGTERM turned into a request that a long command checks at safe points (between repetitions, before
/// the next crash trial).
///
/// The first signal only records itself: the command finishes what it is doing, publishes what it completed and
/// exits with ``exit``. A second SIGINT or SIGTERM runs the clean-ups added with ``addCleanup(_:)`` (e.g.
/// removing the work directory), kills the children still running (``LiveChildren``) and exits at once. While no request is installed, a signal exits at once with
/// 128 + its number, as the default action would.
///
/// The signals are caught by one process-wide pair of Dispatch sources, made on the first ``install(exitAtOnce:)``
/// and never cancelled: on Linux a signal source made after another for the same signal was cancelled never fires,
/// so a command that installed a request twice (advise: its run, then its crash trials) ignored Ctrl-C the second
/// time. Requests come and go; the sources stay.
public final class InterruptRequest: Sendable {
  private let received = Atomic<Int32>(0)
  private let cleanups = Mutex<[@Sendable () -> Void]>([])
  private let exitAtOnce: Bool
  private static let handled = [SIGINT, SIGTERM]

  /// The process-wide sources and the request they serve (the newest installed, if any).
  private static let hub = Mutex<(sources: [any DispatchSourceSignal], active: [InterruptRequest], made: Bool)>(
    ([], [], false))

  /// Held from the moment a signal decides to exit at once until `_exit`: the command's own exit path waits on it
  /// (``awaitExitInProgress()``), so a main thread that fails because the clean-up removed its files neither
  /// exits with its own code nor cuts the clean-up short.
  private static let exiting = Mutex<Void>(())

  /// A request that no signal can set (tests, library callers that handle signals themselves).
  public init() { exitAtOnce = false }

  private init(exitAtOnce: Bool) { self.exitAtOnce = exitAtOnce }

  /// Catches SIGINT and SIGTERM from now on, until ``uninstall()``. `exitAtOnce`: already the first signal runs the
  /// clean-up and exits (a short command with nothing to publish, such as `verify-store`).
  public static func install(exitAtOnce: Bool = false) -> InterruptRequest {
    let request = InterruptRequest(exitAtOnce: exitAtOnce)
    hub.withLock { hub in
      if !hub.made {
        hub.made = true
        let queue = DispatchQueue(label: "storebench.signals")
        for number in handled where !setAction(number, SIG_IGN) {
          let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
          source.setEventHandler { InterruptRequest.deliver(number) }
          // The source is armed asynchronously; until then an ignored signal is lost (verify-store's
          // Ctrl-C test caught one in five). Return once it is armed (at most 5 s: never hang on a platform
          // whose sources do not report it).
          let armed = DispatchSemaphore(value: 0)
          source.setRegistrationHandler { armed.signal() }
          source.resume()
          _ = armed.wait(timeout: .now() + 5)
          hub.sources.append(source)
        }
      }
      hub.active.append(request)
    }
    return request
  }

  /// A signal arrived: the newest installed request takes it; with none installed, exit as the default action would.
  private static func deliver(_ number: Int32) {
    guard let request = hub.withLock({ $0.active.last }) else {
      LiveChildren.killAll()
      _exit(StoreBenchExit.code(forSignal: number))
    }
    let (exchanged, _) = request.received.compareExchange(
      expected: 0, desired: number, ordering: .sequentiallyConsistent)
    if !exchanged || request.exitAtOnce {
      exiting.withLock { _ in
        for cleanup in request.cleanups.withLock({ $0 }) { cleanup() }
        LiveChildren.killAll()
        _exit(StoreBenchExit.code(forSignal: number))
      }
    }
  }

  /// Returns at once unless a signal is running its clean-ups before exiting; then never returns (the signal's
  /// exit code wins). The process's one exit path calls it before it prints an error or exits.
  public static func awaitExitInProgress() {
    exiting.withLock { _ in }
  }

  /// Adds to what a second signal runs before exiting at once (e.g. removing the work directory and the
  /// staging directory), in the order added.
  public func addCleanup(_ body: @escaping @Sendable () -> Void) {
    cleanups.withLock { $0.append(body) }
  }

  /// Asks the command to stop as if `number` had arrived (tests).
  public func request(_ number: Int32) {
    _ = received.compareExchange(expected: 0, desired: number, ordering: .sequentiallyConsistent)
  }

  /// The first signal received, or nil.
  public var signal: Int32? {
    let number = received.load(ordering: .sequentiallyConsistent)
    return number == 0 ? nil : number
  }

  /// The conventional exit code after the signal: 130 for SIGINT, 143 for SIGTERM.
  public var exit: StoreBenchExit { signal == SIGTERM ? .terminated : .interrupted }

  /// "SIGINT" or "SIGTERM".
  public var signalName: String { signal == SIGTERM ? "SIGTERM" : "SIGINT" }

  /// Stops serving this request; a signal that arrived while it was installed and was not yet acted on is handed
  /// to the request installed before it, if any (an outer command stops too).
  public func uninstall() {
    InterruptRequest.hub.withLock { hub in
      hub.active.removeAll { $0 === self }
      if let number = signal, let outer = hub.active.last { outer.request(number) }
    }
  }

  /// Sets the action; returns whether the signal was ignored before.
  @discardableResult
  private static func setAction(_ number: Int32, _ action: sighandler_t?) -> Bool {
    #if canImport(Glibc)
      let previous = Glibc.signal(number, action)
    #else
      let previous = Darwin.signal(number, action)
    #endif
    return unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
  }
}
