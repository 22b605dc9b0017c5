/// A failure of storebench's own machinery rather than of a store: a child process or its pipes, a request
/// between processes, the page-cache layer, a crash trial that could not test anything. A store error
/// (``StoreError``) means the store is inconsistent; this one never says so.
public struct HarnessError: Error, CustomStringConvertible, Sendable {
  /// The part of the harness that failed; the first words of the message.
  public enum Part: String, Sendable {
    case childProcess = "child process"
    case childRequest = "child request"
    case pageCacheLayer = "page-cache layer"
    case crashTrial = "crash trial"
  }

  public let part: Part
  public let detail: String

  public init(_ part: Part, _ detail: String) {
    self.part = part
    self.detail = detail
  }

  public init(_ part: Part, _ error: SystemError) {
    self.init(part, error.description)
  }

  public var description: String { "\(part.rawValue): \(detail)" }
}
