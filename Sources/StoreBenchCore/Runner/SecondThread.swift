import Foundation
import Synchronization

/// Runs one closure on a second thread, started by ``start()`` and joined by ``join()`` (which returns its result
/// or rethrows its error). Used by `sync-while-reading`, which needs exactly two threads. The closure is `@Sendable`
/// and its result `Sendable`: the compiler checks what crosses between the threads.
final class SecondThread<Value: Sendable>: Sendable {
    private let body: @Sendable () throws -> Value
    private let outcome = Mutex<Result<Value, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () throws -> Value) { self.body = body }

    func start() {
        let thread = Thread { [self] in
            let result = Result { try body() }
            outcome.withLock { $0 = result }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    func join() throws -> Value {
        done.wait()
        guard let result = outcome.withLock({ $0 }) else { preconditionFailure("the second thread signalled without a result") }
        return try result.get()
    }
}

/// A flag one thread raises and another polls.
final class DoneFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func raise() { value.store(true, ordering: .releasing) }
    var isRaised: Bool { value.load(ordering: .acquiring) }
}
