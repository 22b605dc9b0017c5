import ArgumentParser
import StoreBenchBackends
import StoreBenchCore

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the backends with their settings and the workloads with their parameters."
    )

    func run() throws {
        print("Backends:")
        for backend in BackendRegistry.standard().descriptors {
            print("  \(backend.name) — \(backend.summary) [roles: \(backend.roles)]")
            for axis in backend.axes {
                print("      \(axis.name): \(axis.allowedDescription) (default \(axis.defaultValue)) — \(axis.summary)")
            }
        }
        print("Workloads:")
        for workload in WorkloadRegistry.standard.workloads {
            print("  \(workload.name) — \(workload.summary)" + (workload.requiresStore ? " [needs: \(workload.requires)]" : ""))
            for parameter in workload.parameters {
                let size = parameter.name == workload.sizeParameter ? ", the row's size" : ""
                print("      \(parameter.name): \(parameter.range.lowerBound)...\(parameter.range.upperBound) "
                      + "(default \(parameter.defaultValue)\(size)) — \(parameter.summary)")
            }
        }
    }
}
