import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore

/// What the commands that work on one store directory share (`launch`, `crash-writer`, `crash-check`,
/// `verify-store`): a backend and variant from their names, and one JSON line as the answer.
enum StoreChoice {
    /// The backend named `backend` with the settings in `settings` (a variant's canonical text,
    /// `txn=single journal=wal`, or `default`).
    static func resolve(backend: String, settings: String) throws -> (BackendDescriptor, Variant) {
        let registry = BackendRegistry.standard()
        guard let descriptor = registry[backend] else {
            throw ValidationError("unknown backend '\(backend)'; known: \(registry.names.joined(separator: ", "))")
        }
        var requested: [String: String] = [:]
        for pair in settings.split(separator: " ") where pair != "default" {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw ValidationError("bad setting '\(pair)' (expected name=value)") }
            requested[parts[0]] = parts[1]
        }
        return (descriptor, try descriptor.variant(requested))
    }

    /// Writes `value` as one JSON line to standard output (what a parent process reads).
    static func answer<T: Encodable>(_ value: T) throws {
        FileHandle.standardOutput.write(try JSONEncoder().encode(value) + Data("\n".utf8))
    }
}
