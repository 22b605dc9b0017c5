/// The backends a runner may use, by name. Built by the caller and passed to the runner: there is no global
/// registry, so tests can register test doubles (e.g. a deliberately broken backend) beside the real ones.
public struct BackendRegistry: Sendable {
    public private(set) var descriptors: [BackendDescriptor] = []

    public init(_ descriptors: [BackendDescriptor] = []) {
        for descriptor in descriptors { register(descriptor) }
    }

    /// Adds a backend. Names are unique; registering a name twice is a programming error.
    public mutating func register(_ descriptor: BackendDescriptor) {
        precondition(self[descriptor.name] == nil, "backend \(descriptor.name) registered twice")
        descriptors.append(descriptor)
    }

    public subscript(name: String) -> BackendDescriptor? { descriptors.first { $0.name == name } }

    public var names: [String] { descriptors.map(\.name) }
}
