import Foundation
import StoreBenchBackends
import StoreBenchCore
import Testing

/// One backend variant, as a test argument.
struct BackendCase: Sendable, CustomTestStringConvertible {
  let backend: String
  let variant: [String: String]
  let label: String

  var testDescription: String { "\(backend) [\(label)]" }

  /// Settings that matter to one workload only (the query index, the search index): varied one at a time with
  /// every other setting at its default, instead of multiplied with every durability combination.
  static let oneAtATime: Set<String> = ["index", "list_index", "search", "auto_vacuum", "migrate", "tags"]

  /// Settings this platform refuses (each has its own test of the refusal).
  static let unavailableHere: Set<String> = ["fullfsync"]

  /// Every registered backend × every combination of its choice settings (``oneAtATime`` ones singly).
  static var all: [BackendCase] {
    BackendRegistry.standard().descriptors.flatMap { descriptor in
      let defaults = Dictionary(uniqueKeysWithValues: descriptor.axes.map { ($0.name, $0.defaultValue) })
      return descriptor.allVariants.filter { variant in
        let changed = variant.settings.filter { $0.value != defaults[$0.name] }
        guard !changed.contains(where: { unavailableHere.contains($0.name) }) else { return false }
        let special = changed.filter { oneAtATime.contains($0.name) }
        return special.isEmpty || changed.count == 1
      }.map { variant in
        BackendCase(
          backend: descriptor.name,
          variant: Dictionary(uniqueKeysWithValues: variant.settings.map { ($0.name, $0.value) }),
          label: variant.description)
      }
    }
  }
}

extension BackendCase {
  /// The registry the contract suites run: the shipped backends and the test target's own `jsonfile`, which plays
  /// only the articles role (docs/ARCHITECTURE.md: a backend may play some roles).
  static var contractRegistry: BackendRegistry {
    var registry = BackendRegistry.standard()
    registry.register(JSONFileBackend.descriptor)
    return registry
  }

  /// Every shipped case, and the test backend's.
  static var contract: [BackendCase] { all + [BackendCase(backend: "jsonfile", variant: [:], label: "default")] }

  /// Opens fresh stores of this case as `role`. Nil when the backend does not play the role — after checking that
  /// opening it as the role is refused with ``StoreError/unsupported(_:)``, the row a run reports for it.
  func opener<Role>(in directory: URL, as role: Role.Type, registry: BackendRegistry = contractRegistry) throws
    -> StoreOpener<Role>?
  {
    let descriptor = try #require(registry[backend])
    let location = StoreLocation(directory: directory, variant: try descriptor.variant(variant))
    do {
      let probe = try descriptor.open(location, as: role)
      try (probe as? any Store)?.close()
    } catch let error as StoreError {
      guard case .unsupported = error else { throw error }
      return nil
    }
    return StoreOpener { try descriptor.open(location, as: role) }
  }
}

/// Opens a fresh store of one backend variant as one role, each call.
struct StoreOpener<Role> {
  let open: () throws -> Role
}

extension BackendDescriptor {
  /// Opens a store as every role (the shipped backends play them all).
  func open(app location: StoreLocation) throws -> any AppStore { try open(location, as: (any AppStore).self) }
}

/// A temporary directory removed at the end of the test.
final class TemporaryDirectory {
  let url: URL

  init(parent: URL = FileManager.default.temporaryDirectory) throws {
    url = parent.appendingPathComponent("storebench-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  func child(_ name: String) throws -> URL {
    let child = url.appendingPathComponent(name, isDirectory: true)
    try FileManager.default.createDirectory(at: child, withIntermediateDirectories: true)
    return child
  }

  /// Writes `text` to a file in the directory and returns its path.
  func file(_ name: String, _ text: String) throws -> String {
    let path = url.appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Every path below the directory, relative, sorted.
  func tree() -> [String] {
    let base = url.resolvingSymlinksInPath().path
    let enumerator = FileManager.default.enumerator(atPath: base)
    return (enumerator?.allObjects as? [String] ?? []).sorted()
  }
}

/// The package's root directory (tests run from anywhere).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// The `storebench` executable built alongside the tests.
func storebenchBinary() throws -> URL {
  let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  let candidates = [
    beside.appendingPathComponent("storebench"),
    beside.deletingLastPathComponent().appendingPathComponent("storebench"),
    packageRoot.appendingPathComponent(".build/debug/storebench"),
  ]
  return try #require(
    candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
    "storebench binary not found near \(beside.path)")
}

/// Runs the development-only page tool (`StoreBenchPages`, built beside `storebench`); returns exit status, stdout
/// and stderr.
func runPageTool(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
  try runProgram(
    try storebenchBinary().deletingLastPathComponent().appendingPathComponent("StoreBenchPages"), arguments,
    in: packageRoot)
}

/// Runs the binary; returns exit status, stdout and stderr.
func runStorebench(
  _ arguments: [String], in directory: URL = packageRoot,
  environment: [String: String] = [:]
) throws -> (status: Int32, stdout: String, stderr: String) {
  try runProgram(try storebenchBinary(), arguments, in: directory, environment: environment)
}

/// Runs `executable` with `arguments` (in `directory`, the environment with `environment` added) to its end; returns
/// its exit status, standard output and standard error.
func runProgram(
  _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
) throws -> (status: Int32, stdout: String, stderr: String) {
  let process = Process()
  process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  process.executableURL = executable
  process.arguments = arguments
  if let directory { process.currentDirectoryURL = directory }
  // Standard error goes to a file so that neither pipe can fill up and block the child.
  let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("storebench-stderr-\(UUID().uuidString)")
  _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
  defer { try? FileManager.default.removeItem(at: errURL) }
  let errHandle = try FileHandle(forWritingTo: errURL)
  let out = Pipe()
  process.standardOutput = out
  process.standardError = errHandle
  try process.run()
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  try errHandle.close()
  let errData = try Data(contentsOf: errURL)
  return (
    process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self)
  )
}

extension Sample {
  /// A sample with the given measurements (tests build report rows without running anything).
  static func measured(
    _ key: RowKey, repetition: Int = 1, status: RowStatus = .ok, wall: Double, cpuUser: Double = 0,
    maxRSSKiB: Int64 = 0, readBytes: Int64? = nil, writeBytes: Int64? = nil, storeBytes: Int64 = 0,
    storeAllocatedBytes: Int64 = 0, ops: Int = 0, settings: String = "", error: String = ""
  ) -> Sample {
    var sample = Sample(key: key, repetition: repetition, dataset: "d")
    sample.status = status
    sample.wallSeconds = wall
    sample.cpuUserSeconds = cpuUser
    sample.maxRSSKiB = maxRSSKiB
    sample.readBytes = readBytes
    sample.writeBytes = writeBytes
    sample.storeBytes = storeBytes
    sample.storeAllocatedBytes = storeAllocatedBytes
    sample.ops = ops
    sample.settings = settings
    sample.checksum = "c"
    sample.error = error
    return sample
  }
}

/// Runs a scenario through the binary — a process of its own, so its `/proc` counters are the run's alone — and
/// returns its samples.csv. `body` is the scenario's `backends:` and `workloads:` part.
func runScenario(repetitions: Int, _ body: String) throws -> (header: [String], rows: [[String]]) {
  let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
  let scenario = try temp.file(
    "scenario.yaml", "name: test\nseed: 42\nwarmup: 0\nrepetitions: \(repetitions)\n" + body)
  let out = temp.url.appendingPathComponent("out")
  let result = try runStorebench(["run", "--scenario", scenario, "--out", out.path, "--workdir", temp.url.path])
  try #require(result.status == 0, "\(result.stderr)")
  return try CSVFormat.decode(String(contentsOf: out.appendingPathComponent("samples.csv"), encoding: .utf8))
}
