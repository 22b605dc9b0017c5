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
    @Argument(help: "The store's directory.") var directory: String

    func run() throws {
        let registry = BackendRegistry.standard()
        let (_, variant) = try failing(.badInput) { try registry.resolve(backend: backend, settings: settings) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure(exit: .badInput, message: "storebench verify-store: \(directory) is not a directory")
        }
        guard let executable = RunningExecutable.url else {
            throw CommandFailure(exit: .failure, message: "storebench verify-store: cannot find the storebench executable to start the checking child")
        }
        let store = ChildStore.named(backend, settings: variant.description, directory: directory)
        let report = try StoreVerification.inChild(executable: executable, store: store, expectedChecksum: expectedChecksum)
        print("\(report.status): \(backend) [\(variant)] \(directory): \(report.articles) articles"
              + (report.checksum.isEmpty ? "" : ", checksum \(report.checksum)") + (report.detail.isEmpty ? "" : "; \(report.detail)"))
        if report.status != "ok" { throw ExitCode(.damaged) }
    }
}
