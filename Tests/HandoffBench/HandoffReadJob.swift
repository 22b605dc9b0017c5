import Foundation
import StoreBenchKit

/// The `handoff` workload's child job: open the store in a fresh process, read every record, and say how many it
/// found, their fingerprint and its own time.
public struct HandoffReadJob: ChildJob {
  public static let name = "handoff-read"
  public var store: ChildStore

  /// What the fresh process found.
  public struct Read: Codable, Sendable {
    public var count: Int
    public var hex: String
    public var seconds: Double
  }

  public func perform(backends: BackendRegistry) throws -> Read {
    let started = monotonicNanoseconds()
    let (descriptor, location) = try store.resolve(in: backends)
    let opened = try descriptor.open(location, as: (any ArticleStore).self)
    let snapshot = ArticleSnapshot(try opened.allArticles())
    try opened.close()
    let seconds = Double(monotonicNanoseconds() - started) / 1e9
    return Read(count: snapshot.count, hex: snapshot.hex, seconds: seconds)
  }
}
