#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// SIGINT and SIGTERM turned into a request that a long command checks at safe points (between repetitions).
///
/// The first signal only records itself: the command finishes what it is doing, publishes what it completed and
/// exits with ``exitCode``. A second SIGINT or SIGTERM runs the clean-ups added with ``addCleanup(_:)`` (e.g.
/// removing the work directory) and exits at once. Signals are taken off the default action only while the request is installed;
/// ``uninstall()`` restores them.
public final class InterruptRequest: Sendable {
    private let received = Atomic<Int32>(0)
    private let cleanups = Mutex<[@Sendable () -> Void]>([])
    /// The signal sources and the signals taken off their default action, while installed.
    private let installation = Mutex<(sources: [any DispatchSourceSignal], signals: [Int32])>(([], []))
    private static let handled = [SIGINT, SIGTERM]

    /// A request that no signal can set (tests, library callers that handle signals themselves).
    public init() {}

    /// Catches SIGINT and SIGTERM from now on. `exitAtOnce`: already the first signal runs the clean-up and exits
    /// (a short command with nothing to publish, such as `verify-store`).
    public static func install(exitAtOnce: Bool = false) -> InterruptRequest {
        let request = InterruptRequest()
        let queue = DispatchQueue(label: "storebench.signals")
        for number in handled {
            // A signal the parent set to be ignored (`nohup`, a background job of a script) stays ignored.
            guard !setAction(number, SIG_IGN) else { continue }
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [request] in
                let (exchanged, _) = request.received.compareExchange(expected: 0, desired: number, ordering: .sequentiallyConsistent)
                if !exchanged || exitAtOnce {
                    for cleanup in request.cleanups.withLock({ $0 }) { cleanup() }
                    _exit(128 + number)
                }
            }
            source.resume()
            request.installation.withLock { $0.sources.append(source); $0.signals.append(number) }
        }
        return request
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
    public var exitCode: Int32 { 128 + (signal ?? SIGINT) }

    /// "SIGINT" or "SIGTERM".
    public var signalName: String { signal == SIGTERM ? "SIGTERM" : "SIGINT" }

    /// Restores the default actions.
    public func uninstall() {
        let (sources, signals) = installation.withLock { installation -> ([any DispatchSourceSignal], [Int32]) in
            let taken = (installation.sources, installation.signals)
            installation = ([], [])
            return taken
        }
        for source in sources { source.cancel() }
        for source in [SIGINT, SIGTERM] where signals.contains(source) { Self.setAction(source, SIG_DFL) }
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
