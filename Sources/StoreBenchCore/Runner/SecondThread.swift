import Foundation
import Synchronization

/// Runs one closure on a second thread, started by ``start()`` and joined by ``join()`` (which rethrows its
/// error). Used by `sync-while-reading`, which needs exactly two threads.
final class SecondThread: @unchecked Sendable {
    // @unchecked: `body` runs on the thread alone; `failure` is written there before `done` is signalled and
    // read here only after `join()` has waited for that signal.
    private let body: () throws -> Void
    private var failure: (any Error)?
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping () throws -> Void) { self.body = body }

    func start() {
        let thread = Thread { [self] in
            do { try body() } catch { failure = error }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    func join() throws {
        done.wait()
        if let failure { throw failure }
    }
}

/// A flag one thread raises and another polls.
final class DoneFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func raise() { value.store(true, ordering: .releasing) }
    var isRaised: Bool { value.load(ordering: .acquiring) }
}
