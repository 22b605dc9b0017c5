import Foundation
import StoreBenchBackends
import StoreBenchCore
import Testing

@testable import StoreBenchCommands

/// The one entry point a team's binary calls (`StoreBench.main(registering:)`, docs/EXTENDING.md): the backends it
/// registers are every command's, for the invocation only, and a name already taken is refused.
@Suite("Entry point: a team's backends beside the standard ones")
struct EntryPointTests {
    @Test("registered backends are in every command's registry inside the invocation, and only there")
    func registryIsTheInvocations() throws {
        let environment = try CommandEnvironment(registering: [JSONFileBackend.descriptor])
        let inside = CommandEnvironment.$current.withValue(environment) { CommandEnvironment.current.registry().names }
        #expect(inside == BackendRegistry.standard().names + ["jsonfile"])
        #expect(CommandEnvironment.current.registry().names == BackendRegistry.standard().names)
        // A command resolves the team's backend by name, as `run --backend jsonfile` and the crash child do.
        try CommandEnvironment.$current.withValue(environment) {
            let (descriptor, variant) = try CommandEnvironment.current.registry().resolve(
                backend: "jsonfile", settings: "default")
            #expect(descriptor.roles == [.articles, .persistence] && variant.description == "default")
        }
    }

    @Test("a name that is already registered is refused, naming it and the names taken")
    func duplicateNamesRefused() throws {
        let memory = MemoryBackend.descriptor()
        #expect {
            try CommandEnvironment(registering: [memory])
        } throws: { error in
            "\(error)".hasPrefix("a backend named 'memory' is already registered; give yours a name of its own")
        }
        #expect(throws: RegistrationError.self) {
            try CommandEnvironment(registering: [JSONFileBackend.descriptor, JSONFileBackend.descriptor])
        }
    }
}
