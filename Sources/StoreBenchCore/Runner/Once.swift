import Synchronization

/// A throwing clean-up that runs at most once, however many paths call it (verify and the runner's finish).
final class Once {
    private var body: (() throws -> Void)?

    init(_ body: @escaping () throws -> Void) { self.body = body }

    func run() throws {
        guard let body else { return }
        self.body = nil
        try body()
    }
}

/// A flag one thread raises and another polls.
final class DoneFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func raise() { value.store(true, ordering: .releasing) }
    var isRaised: Bool { value.load(ordering: .acquiring) }
}
