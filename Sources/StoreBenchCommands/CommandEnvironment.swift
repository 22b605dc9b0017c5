import StoreBenchBackends
import StoreBenchCore

/// What every command of one invocation works with: the backends it can run, list, crash, compare and advise.
///
/// Set once by the entry point (``StoreBench/main(registering:)``) for the whole invocation as a task-local value, so
/// there is no global mutable state; a command asks ``registry()`` for the backends instead of building the standard
/// registry itself. Without an entry point (tests that run a command in process) it is the standard backends alone.
public struct CommandEnvironment: Sendable {
    /// The backends registered beside the standard ones, in the order given.
    public let extraBackends: [BackendDescriptor]

    /// The current invocation's environment.
    @TaskLocal public static var current = CommandEnvironment()

    /// The standard backends alone.
    public init() { extraBackends = [] }

    /// The standard backends and `extraBackends`; throws when a name is registered twice (a standard backend's
    /// name, or two of the extra backends).
    public init(registering extraBackends: [BackendDescriptor]) throws {
        var registry = BackendRegistry.standard()
        for backend in extraBackends { try registry.add(backend) }
        self.extraBackends = extraBackends
    }

    /// A fresh registry: the standard backends (memory stores owned by it) and the extra ones (their names were
    /// checked when the environment was made).
    public func registry() -> BackendRegistry {
        var registry = BackendRegistry.standard()
        for backend in extraBackends { registry.register(backend) }
        return registry
    }
}
