import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore

struct ListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List the backends with their settings and the workloads with their parameters."
  )

  @Flag(help: "Print JSON: {backends: [{name, summary, persistent, roles, settings: [...]}], workloads: [...]}.")
  var json = false

  func run() throws {
    if json {
      writeStandardOutput(try Self.json())
      return
    }
    print("Backends:")
    for backend in CommandEnvironment.current.registry().descriptors {
      print("  \(backend.name) — \(backend.summary) [roles: \(backend.roles)]")
      for axis in backend.axes {
        print("      \(axis.name): \(axis.allowedDescription) (default \(axis.defaultValue)) — \(axis.summary)")
      }
    }
    print("Workloads:")
    for workload in CommandEnvironment.current.workloads().workloads {
      print(
        "  \(workload.name) — \(workload.summary)"
          + (workload.requiresStore ? " [needs: \(workload.requires)]" : ""))
      for parameter in workload.parameters {
        let size = parameter.key == workload.sizeParameter ? ", the row's size" : ""
        print(
          "      \(parameter.name): \(parameter.range.lowerBound)...\(parameter.range.upperBound) "
            + "(default \(parameter.defaultValue)\(size)) — \(parameter.summary)")
      }
    }
    print(
      "  sql:<file>.<operation> — each operation of a sql workload file a scenario names (`- sql: FILE`): your "
        + "own schema, fill and statements [needs: \(StoreRoles.sql)] (docs/WORKLOADS.md)")
  }

  static func json() throws -> Data {
    let backends: [[String: Any]] = CommandEnvironment.current.registry().descriptors.map { backend in
      [
        "name": backend.name, "summary": backend.summary, "persistent": backend.persistent,
        "roles": "\(backend.roles)", "store_files": backend.storeFiles,
        "settings": backend.axes.map { axis in
          [
            "name": axis.name, "allowed": axis.allowedDescription, "default": axis.defaultValue,
            "summary": axis.summary,
          ]
        },
      ]
    }
    let workloads: [[String: Any]] = CommandEnvironment.current.workloads().workloads.map { workload in
      [
        "name": workload.name, "summary": workload.summary,
        "needs": workload.requiresStore ? "\(workload.requires)" : "",
        "size_parameter": workload.sizeParameter.text, "reads_only": workload.leavesStoreUnchanged,
        "parameters": workload.parameters.map { parameter in
          [
            "name": parameter.name, "min": parameter.range.lowerBound, "max": parameter.range.upperBound,
            "default": parameter.defaultValue, "summary": parameter.summary,
          ]
        },
      ]
    }
    return try JSONSerialization.data(
      withJSONObject: ["backends": backends, "workloads": workloads],
      options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) + Data("\n".utf8)
  }
}
