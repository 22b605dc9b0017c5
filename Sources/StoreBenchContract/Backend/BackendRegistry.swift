/// The backends a runner may use, by name. Built by the caller and passed to the runner: there is no global
/// registry, so tests can register test doubles (e.g. a deliberately broken backend) beside the real ones.
public struct BackendRegistry: Sendable {
  public private(set) var descriptors: [BackendDescriptor] = []

  public init(_ descriptors: [BackendDescriptor] = []) {
    for descriptor in descriptors { register(descriptor) }
  }

  /// Adds a backend. Names are unique; registering a name twice is a programming error.
  public mutating func register(_ descriptor: BackendDescriptor) {
    do {
      try add(descriptor)
    } catch {
      preconditionFailure("\(error)")
    }
  }

  /// Adds a backend given at run time (a team's, `StoreBench.main(registering:)`): a name already registered throws
  /// a ``RegistrationError`` naming it and the names taken.
  public mutating func add(_ descriptor: BackendDescriptor) throws {
    guard self[descriptor.name] == nil else {
      throw RegistrationError(
        description: "a backend named '\(descriptor.name)' is already registered; give yours a name of its "
          + "own (registered: \(names.sorted().joined(separator: ", ")))")
    }
    descriptors.append(descriptor)
  }

  public subscript(name: String) -> BackendDescriptor? { descriptors.first { $0.name == name } }

  public var names: [String] { descriptors.map(\.name) }
}

/// A backend that cannot be registered: its name is taken.
public struct RegistrationError: Error, CustomStringConvertible {
  public let description: String

  public init(description: String) { self.description = description }
}

extension BackendRegistry {
  /// `variant` of `backend` as this registry spells it: settings the text leaves out at their defaults, in the
  /// axes' order. A run recorded before a setting existed names its variants without it; at its default the new
  /// setting reproduces what ran then, so the upgraded text matches today's rows. Text this registry cannot
  /// resolve (an unknown backend, a removed setting) is returned unchanged and matches nothing new.
  public func currentVariantText(backend: String, variant: String) -> String {
    (try? resolve(backend: backend, settings: variant).1.description) ?? variant
  }

  /// The declared durability of a variant as a recorded run names it; nil when this binary cannot resolve it.
  public func declaredPromise(backend: String, variant: String) -> DurabilityPromise? {
    (try? resolve(backend: backend, settings: variant)).map { $0.0.promise($0.1) }
  }

  /// A variant for people (its deciding settings and those off their defaults, ``BackendDescriptor/label(_:)``), or
  /// `backend [variant]` when this binary cannot resolve it.
  public func label(backend: String, variant: String) -> String {
    (try? resolve(backend: backend, settings: variant)).map { $0.0.label($0.1) } ?? "\(backend) [\(variant)]"
  }

  /// The backend and variant of a strategy written `backend [variant]` (as reports and crash results key them).
  public static func parts(ofStrategy strategy: String) -> (backend: String, variant: String) {
    let backend = String(strategy.prefix { $0 != " " })
    return (backend, String(strategy.dropFirst(backend.count + 2).dropLast()))
  }

  /// The backend named `backend` and its variant from `settings`: a variant's canonical text
  /// (`txn=single journal=wal`) or `default`. Throws a message naming what is wrong and what is known.
  public func resolve(backend: String, settings: String) throws -> (BackendDescriptor, Variant) {
    guard let descriptor = self[backend] else {
      throw VariantError(message: "unknown backend '\(backend)'; known: \(names.joined(separator: ", "))")
    }
    var requested: [String: String] = [:]
    for pair in settings.split(separator: " ") where pair != "default" {
      let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { throw VariantError(message: "bad setting '\(pair)' (expected name=value)") }
      requested[parts[0]] = parts[1]
    }
    return (descriptor, try descriptor.variant(requested))
  }
}
