import Foundation
import StoreBenchBackends
import StoreBenchCore
import StoreBenchStandard
import Testing

/// The registries are the inventory: roles are listed once, and smoke.yaml is what they declare (that no module
/// outside the backends names one is ArchitectureTests').
@Suite("One inventory")
struct InventoryTests {
  @Test(
    "every role protocol (a protocol refining Store) is in StoreRoles' one table, and every table entry is a protocol"
  )
  func rolesDeclaredOnce() throws {
    let text = try String(
      contentsOf: packageRoot.appendingPathComponent("Sources/StoreBenchContract/Backend/StoreRoles.swift"),
      encoding: .utf8)
    let declared = Set(
      text.split(separator: "\n").compactMap { line -> String? in
        guard line.hasPrefix("public protocol "),
          line.contains(": Store") || line.contains("Store {") || line.contains(": ArticleStore")
        else { return nil }
        return line.dropFirst("public protocol ".count).split(separator: ":").first.map {
          String($0).trimmingCharacters(in: .whitespaces)
        }
      })
    let tabled = Set(
      text.split(separator: "\n").compactMap { line -> String? in
        guard let range = line.range(of: "is any "),
          let end = line.range(of: ".Type", range: range.upperBound..<line.endIndex)
        else { return nil }
        return String(line[range.upperBound..<end.lowerBound])
      })
    #expect(!declared.isEmpty && declared == tabled, "declared \(declared.sorted()), tabled \(tabled.sorted())")
    #expect("\(StoreRoles(rawValue: 0x7F))" == "articles, timeline, queries, settings, cache, sharing, persistence")
  }

  @Test(
    "smoke.yaml runs every registered backend with its declared smoke variants, and every workload at its smoke parameters"
  )
  func smokeCoversTheRegistries() throws {
    let backends = BackendRegistry.standard()
    let workloads = WorkloadRegistry.standard
    let smoke = try ScenarioParser(backends: backends, workloads: workloads).parse(file: "scenarios/smoke.yaml")
    #expect(
      smoke.backends.map { "\($0.backend) \($0.variant)" }
        == backends.descriptors.flatMap { descriptor in
          descriptor.smokeVariants.map { "\(descriptor.name) \($0)" }
        })
    #expect(smoke.workloads.map(\.workload) == workloads.names)
    for entry in smoke.workloads {
      let workload = try #require(workloads[entry.workload])
      var expected = workload.defaultParameters
      for (name, value) in workload.smokeParameters { expected.set(name, value) }
      #expect(entry.cases == [expected], "\(entry.workload): smoke.yaml has \(entry.cases), declared \(expected)")
    }
  }

  /// The rows smoke.yaml makes, from the registries: every store workload on every backend variant, once for a
  /// workload that uses no store (EndToEndTests checks a run has exactly these).
  static func smokeRows() throws -> (rows: Int, declined: Int) {
    let backends = BackendRegistry.standard()
    let workloads = WorkloadRegistry.standard
    let smoke = try ScenarioParser(backends: backends, workloads: workloads).parse(file: "scenarios/smoke.yaml")
    var rows = 0
    var declined = 0
    for entry in smoke.workloads {
      let workload = try #require(workloads[entry.workload])
      guard workload.requiresStore else {
        rows += entry.cases.count
        continue
      }
      for backend in smoke.backends {
        let descriptor = try #require(backends[backend.backend])
        rows += entry.cases.count
        // A launch needs a store that survives its process; the runner declines it once, not per repetition.
        if !descriptor.roles.isSuperset(of: workload.requires) { declined += entry.cases.count }
      }
    }
    return (rows, declined)
  }
}
