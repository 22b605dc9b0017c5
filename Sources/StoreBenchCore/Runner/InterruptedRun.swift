import Foundation

/// A run a signal stopped, read back from its output directory for `storebench run --resume DIR`: its recorded
/// input, its samples, and the checks that this binary and scenario file may continue it.
struct InterruptedRun {
  let directory: URL
  let manifest: RunEnvironment
  let recorded: RunRequest
  let samples: SampleTable

  struct Refusal: Error, CustomStringConvertible {
    let description: String
  }

  init(directory path: String, binaryHash: String, columns: ColumnSet) throws {
    directory = URL(fileURLWithPath: path, isDirectory: true)
    let invocation: RunRequest?
    let environment = directory.appendingPathComponent("environment.json")
    guard let data = FileManager.default.contents(atPath: environment.path) else {
      throw Refusal(
        description: "--resume \(path): no environment.json there; only an interrupted run can be resumed")
    }
    guard RunEnvironment.isStoreBenchRun(data) else {
      throw Refusal(
        description: "--resume \(path): environment.json was not written by storebench (it lacks one of "
          + RunEnvironment.schemaKeys.joined(separator: ", ") + ")")
    }
    do {
      manifest = try JSONDecoder().decode(RunEnvironment.self, from: data)
      invocation = try RunEnvironment.invocation(in: data)
    } catch {
      throw Refusal(
        description: "--resume \(path): environment.json was not written by this storebench (\(error))")
    }
    guard manifest.interrupted != nil else {
      throw Refusal(description: "--resume \(path): that run was not interrupted; it finished")
    }
    guard let recorded = invocation else {
      throw Refusal(description: "--resume \(path): environment.json does not record the run's input")
    }
    guard !binaryHash.isEmpty, manifest.binaryHash == binaryHash else {
      throw Refusal(
        description: "--resume \(path): the run was made by another storebench binary "
          + "(hash \(manifest.binaryHash ?? "none"), this one \(binaryHash)); rerun it from the start instead")
    }
    self.recorded = recorded
    do {
      samples = try SampleTable(path: directory.appendingPathComponent("samples.csv").path, columns: columns)
    } catch {
      throw Refusal(description: "--resume \(path): \(error)")
    }
    guard samples.header == columns.sampleHeader else {
      throw Refusal(description: "--resume \(path): samples.csv has other columns than this storebench writes")
    }
  }

  /// Throws unless `scenario` is the file the interrupted run read, unchanged.
  func check(scenario: Scenario) throws {
    guard scenario.fileHash == manifest.scenarioHash else {
      throw Refusal(
        description: "--resume \(directory.path): \(scenario.file) changed since the run began "
          + "(hash \(manifest.scenarioHash ?? "none"), now \(scenario.fileHash))")
    }
  }

  /// FNV-1a of the file's bytes ("" when unreadable).
  static func hash(of executable: URL) -> String {
    guard let data = try? Data(contentsOf: executable, options: .alwaysMapped) else { return "" }
    var hash = FNV1a()
    hash.combine(bytes: data)
    return hash.hex
  }
}
