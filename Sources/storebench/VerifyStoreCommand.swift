import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore

/// `storebench verify-store --backend B DIR`: is this store intact?
struct VerifyStoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-store",
        abstract: "Open a store, run its integrity check and read every article; report ok, corrupt or lost.",
        discussion: """
            The check runs in a child process, so a crash inside a C library is reported as corrupt. Exit codes: \
            0 ok; 3 corrupt or lost; 64 bad input. With --expect-checksum a store that reads fine but holds other \
            content (SQLite opens an empty file as an empty database; GDBM can lose keys silently) is reported lost.
            """
    )

    @Option(help: "The backend that wrote the store.") var backend: String
    @Option(help: "The variant's settings, e.g. \"journal=wal\" (default: the backend's defaults).") var settings = "default"
    @Option(name: .customLong("expect-checksum"), help: "The FNV-1a checksum of the articles the store should hold.")
    var expectedChecksum: String?
    @Flag(help: .hidden) var inProcess = false
    @Argument(help: "The store's directory.") var directory: String

    func run() throws {
        let descriptor: BackendDescriptor, variant: Variant
        do {
            (descriptor, variant) = try StoreChoice.resolve(backend: backend, settings: settings)
        } catch {
            printError("storebench verify-store: \(error)")
            throw ExitCode(64)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            printError("storebench verify-store: \(directory) is not a directory")
            throw ExitCode(64)
        }
        if inProcess {
            let report = StoreVerification.inspect(descriptor: descriptor, directory: URL(fileURLWithPath: directory),
                                                   variant: variant, expectedChecksum: expectedChecksum)
            try StoreChoice.answer(report)
            return
        }
        var arguments = ["verify-store", "--backend", backend, "--settings", variant.description, directory]
        if let expectedChecksum { arguments += ["--expect-checksum", expectedChecksum] }
        let report = try StoreVerification.inChild(
            executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(), arguments: arguments)
        print("\(report.status): \(backend) [\(variant)] \(directory): \(report.articles) articles"
              + (report.checksum.isEmpty ? "" : ", checksum \(report.checksum)") + (report.detail.isEmpty ? "" : "; \(report.detail)"))
        if report.status != "ok" { throw ExitCode(3) }
    }
}
