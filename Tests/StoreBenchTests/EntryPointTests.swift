import Foundation
import StoreBenchBackends
import StoreBenchCore
import StoreBenchStandard
import Testing

@testable import StoreBenchCommands

/// The one entry point a team's binary calls (`StoreBench.main(registering:)`, docs/EXTENDING.md): the backends it
/// registers are every command's, for the invocation only, and a name already taken is refused.
@Suite("Entry point: a team's backends and workloads beside the standard ones")
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

  @Test(
    "registered workloads are every command's inside the invocation: listed, parsed in a scenario, run and verified; a name already taken is refused"
  )
  func workloadsAreTheInvocations() throws {
    let environment = try CommandEnvironment(
      registering: [], workloads: [Renamed(base: InsertWorkload(), name: "team-insert")])
    try CommandEnvironment.$current.withValue(environment) {
      #expect(CommandEnvironment.current.workloads().names == WorkloadRegistry.standard.names + ["team-insert"])
      let listed = String(decoding: try ListCommand.json(), as: UTF8.self)
      #expect(listed.contains("\"team-insert\""))
      let temp = try TemporaryDirectory()
      let scenario = try temp.file(
        "s.yaml",
        """
        name: team
        warmup: 0
        repetitions: 2
        backends: [{backend: memory}, {backend: sqlite}]
        workloads: [{workload: team-insert, parameters: {count: 40}}]
        """)
      let out = temp.url.appendingPathComponent("out")
      var command = try StoreBench.parseAsRoot([
        "run", "--scenario", scenario, "--out", out.path, "--workdir", temp.url.path, "--no-counters",
      ])
      try command.run()
      let table = try SampleTable(path: out.path)
      #expect(
        table.rows.count == 4 && table.rows.allSatisfy { $0.key.workload == "team-insert" && $0.status == .ok })
    }
    #expect(CommandEnvironment.current.workloads().names == WorkloadRegistry.standard.names)
    for names in [["insert"], ["team-insert", "team-insert"], ["sql:mine"]] {
      #expect(throws: RegistrationError.self) {
        try CommandEnvironment(
          registering: [], workloads: names.map { name in Renamed(base: InsertWorkload(), name: name) })
      }
    }
  }

  /// A standard workload under a name of a team's (and names the entry point must refuse).
  struct Renamed: Workload {
    let base: any Workload
    let name: String
    var summary: String { base.summary }
    var parameters: [WorkloadParameter] { base.parameters }
    var sizeParameter: ParameterName { base.sizeParameter }
    var smokeParameters: [String: Int] { base.smokeParameters }
    var requires: StoreRoles { base.requires }
    func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
      base.makeCase(parameters, generator: generator)
    }
  }
}
