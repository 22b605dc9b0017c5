import ArgumentParser
import Foundation
import StoreBenchBackends
import StoreBenchCore
import StoreBenchCrash

/// `storebench verify-store --backend B DIR`: is this store intact?
struct VerifyStoreCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify-store",
    abstract: "Open a store, run its integrity check and read every article; report ok, corrupt or lost.",
    discussion: """
      Read-only: the store's files must exist (an empty directory is not an empty store), and the check runs \
      on a private copy of the directory, so no library can create, recover, convert or lock anything in the \
      store itself. The check runs in a child process, so a crash inside a C library is reported as corrupt. \
      Exit codes: 0 ok; 3 corrupt or lost; 64 bad input. With --expect-checksum (any letter case) a store \
      that reads fine but holds other content (SQLite opens an empty file as an empty database; GDBM can \
      lose keys silently) is reported lost.
      """
  )

  @Option(help: "The backend that wrote the store.") var backend: String
  @Option(help: "The variant's settings as SETTING=VALUE separated by spaces (default: the backend's defaults).")
  var settings =
    "default"
  @Option(name: .customLong("expect-checksum"), help: "The FNV-1a checksum of the articles the store should hold.")
  var expectedChecksum: String?
  @Argument(help: "The store's directory.") var directory: String
  @OptionGroup var workdir: WorkDirectoryOption

  func validate() throws {
    if let expectedChecksum, expectedChecksum.count != 16 || !expectedChecksum.allSatisfy(\.isHexDigit) {
      throw ValidationError(
        "--expect-checksum must be 16 hexadecimal digits (the checksum column of samples.csv), "
          + "not '\(expectedChecksum.escapingControlCharacters)'")
    }
  }

  func run() throws {
    let registry = CommandEnvironment.current.registry()
    let (descriptor, variant) = try failing(.badInput) {
      try registry.resolve(backend: backend, settings: settings)
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw CommandFailure(exit: .badInput, message: "storebench verify-store: \(directory) is not a directory")
    }
    guard descriptor.persistent else {
      throw CommandFailure(
        exit: .badInput, message: "storebench verify-store: the \(backend) backend keeps nothing on disk")
    }
    let present = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    let missing = descriptor.storeFiles.filter { !present.contains($0) }
    guard missing.isEmpty else {
      throw CommandFailure(
        exit: .badInput,
        message: "storebench verify-store: \(directory) is not a \(backend) store: "
          + "\(missing.joined(separator: ", ")) missing; the directory holds "
          + (present.isEmpty ? "nothing" : present.joined(separator: ", ")))
    }
    guard let executable = RunningExecutable.url else {
      throw CommandFailure(
        exit: .failure,
        message: "storebench verify-store: cannot find the storebench executable to start the checking child")
    }
    let parent = try failing(.badInput) { try OutputLocations.workdir(workdir.workdir) }
    for path in WorkDirectory.removeAbandoned(in: parent) {
      printError("removed \(path): a work directory left by a storebench command that is no longer running")
    }
    // Ctrl-C while the child checks: nothing to publish, so the first signal removes the copy and exits. Caught
    // from before the work directory exists, so no signal can leave it behind.
    let interrupt = InterruptRequest.install(exitAtOnce: true)
    defer { interrupt.uninstall() }
    let work = try failing(.badInput) {
      try WorkDirectory(in: parent, prefix: "storebench-verify-", removedOnSignal: interrupt)
    }
    defer { work.remove() }
    let copy = work.url.appendingPathComponent("store")
    var report: StoreVerification
    do {
      try failing(.badInput) { try PrivateCopy.copyTree(from: URL(fileURLWithPath: directory), to: copy) }
      let store = ChildStore.named(backend, settings: variant.description, directory: copy.path)
      report = try StoreVerification.inChild(
        executable: executable, store: store, expectedChecksum: expectedChecksum?.lowercased())
    } catch  where interrupt.signal != nil {
      // The signal's clean-up removed the copy under the work in progress: the exit is the signal's.
      throw ExitCode(interrupt.exit)
    }
    report.detail = report.detail.replacingOccurrences(of: copy.path, with: directory)
    print(
      "\(report.status): \(backend) [\(variant)] \(directory): \(report.articles) articles"
        + (report.checksum.isEmpty ? "" : ", checksum \(report.checksum)")
        + (report.detail.isEmpty ? "" : "; \(report.detail)"))
    if report.status != "ok" { throw ExitCode(.damaged) }
  }
}
