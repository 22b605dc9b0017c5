import Foundation
import StoreBenchCore

/// `storebench verify-store`: what a store's own check and a full read say about it.
public struct StoreVerification: Codable, Sendable, Equatable {
  /// `ok` (opened, integrity check passed, every article read), `corrupt` (the library or the decoder refused),
  /// or `lost` (it reads fine but its content is not the expected checksum: a silent loss).
  public var status: String
  public var articles: Int
  public var checksum: String
  /// The library's or decoder's error, for `corrupt`.
  public var detail: String

  /// Runs in the checking child: opens the store, runs its integrity check and reads every article.
  public static func inspect(
    descriptor: BackendDescriptor, location: StoreLocation,
    expectedChecksum: String?
  ) -> StoreVerification {
    let store: any ArticleStore
    do {
      store = try descriptor.open(location, as: (any ArticleStore).self)
    } catch {
      return StoreVerification(status: "corrupt", articles: 0, checksum: "", detail: "open: \(error)")
    }
    defer { try? store.close() }
    do {
      try store.checkIntegrity()
      let checksum = Checksum.articles(try store.allArticles())
      if let expectedChecksum, checksum.hex != expectedChecksum {
        return StoreVerification(
          status: "lost", articles: checksum.count, checksum: checksum.hex,
          detail: "content checksum \(checksum.hex), expected \(expectedChecksum)")
      }
      return StoreVerification(status: "ok", articles: checksum.count, checksum: checksum.hex, detail: "")
    } catch {
      return StoreVerification(status: "corrupt", articles: 0, checksum: "", detail: "\(error)")
    }
  }

  /// Runs the check in a child process, so a crash inside a C library (SIGSEGV, SIGBUS on a damaged memory map)
  /// becomes a `corrupt` status instead of killing the caller. The child has a deadline from the store's size
  /// (``deadlineSeconds(storeBytes:)``) and is killed when stopped (SIGSTOP) for 5 s: a check that cannot finish is
  /// a harness fault that says so, never a verdict on the store.
  public static func inChild(executable: URL, store: ChildStore, expectedChecksum: String?) throws
    -> StoreVerification
  {
    let bytes = DiskUsage.of(URL(fileURLWithPath: store.directory)).apparentBytes
    let seconds = deadlineSeconds(storeBytes: bytes)
    let child = try ChildProcess(
      executable: executable, job: VerifyJob(store: store, expectedChecksum: expectedChecksum))
    child.limit(seconds: seconds) { false }
    try child.spawn()
    let outcome = child.wait()
    if outcome.gaveUp != nil {
      throw HarnessError(
        .childProcess,
        "verify-store's checking process \(outcome.how) (its deadline: \(Int(seconds)) s for a store of "
          + "\(bytes) bytes); nothing is known of the store")
    }
    if outcome.killedBySignal {
      return StoreVerification(
        status: "corrupt", articles: 0, checksum: "",
        detail: "the checking process was killed by signal \(outcome.signal) \(outcome.errors)")
    }
    guard let report = outcome.answer(to: VerifyJob.self) else {
      throw HarnessError(.childProcess, "verify-store child \(outcome.how): \(outcome.errors)")
    }
    return report
  }

  /// How long the check of a store of `storeBytes` may take: a minute, and a second for every 5 MB it reads.
  public static func deadlineSeconds(storeBytes: Int64) -> Double { 60 + Double(storeBytes) / 5_000_000 }
}
