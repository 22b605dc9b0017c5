import Foundation

/// A store shared between two threads (see ``SharableStore/shareWithSecondThread()``): the thread that shared it
/// (the sync) writes through ``writer`` while a second thread (the UI) reads through the view ``openReader`` opens
/// there.
///
/// Only ``openReader`` crosses to the other thread, and it is `@Sendable`: it captures what may cross threads (a
/// location and settings to open a second connection, a thread-safe database object), so the compiler checks the
/// sharing instead of a comment.
public struct SharedStore {
  /// The view for the thread that shared the store (the sync).
  public let writer: any ArticleWriter
  /// Opens the reader's view on the reader's own thread; the view is used and closed there.
  public let openReader: @Sendable () throws -> SharedReader
  /// How the two threads share it, for the report (e.g. `second connection (WAL readers)`).
  public let concurrency: String

  public init(
    writer: any ArticleWriter, concurrency: String, openReader: @escaping @Sendable () throws -> SharedReader
  ) {
    self.writer = writer
    self.openReader = openReader
    self.concurrency = concurrency
  }

  /// Two views of `store` that run every call on one serial queue (a unit of work holds it throughout): the
  /// serialization an app adds to a strategy with no concurrency of its own. The queue serves waiting threads
  /// in turn, so neither thread can starve the other by taking the store back at once (what an unfair mutex
  /// allows: which thread wins then depends on the scheduler, not on the store).
  public static func locked(_ store: some ArticleWriter & TimelineReader) -> SharedStore {
    let view = LockedView(store)
    return SharedStore(writer: view, concurrency: "one serial queue around the store (no concurrency of its own)") {
      SharedReader(view)
    }
  }
}

/// The reader's view of a shared store, and how to close what opening it opened (a second connection).
public struct SharedReader {
  public let reader: any TimelineReader
  public let close: () throws -> Void

  public init(_ reader: any TimelineReader, close: @escaping () throws -> Void = {}) {
    self.reader = reader
    self.close = close
  }
}

/// A view of a store whose every call runs on a serial queue shared with the other thread; calls made inside one
/// (a unit of work's inserts) run inline. It does not own the store.
// @unchecked Sendable: every use of `base` runs on `queue`, and the store is not otherwise used until both threads are
// done.
final class LockedView: ArticleWriter, TimelineReader, @unchecked Sendable {
  private let base: any ArticleWriter & TimelineReader
  private let queue = DispatchQueue(label: "storebench.locked-store")
  private let onQueue = DispatchSpecificKey<Bool>()

  init(_ base: any ArticleWriter & TimelineReader) {
    self.base = base
    queue.setSpecific(key: onQueue, value: true)
  }

  private func locked<T>(_ body: () throws -> T) rethrows -> T {
    if DispatchQueue.getSpecific(key: onQueue) == true { return try body() }
    return try queue.sync(execute: body)
  }

  func unitOfWork(_ body: () throws -> Void) throws { try locked { try base.unitOfWork(body) } }
  func insert(_ article: Article) throws { try locked { try base.insert(article) } }
  func markRead(uids: [String]) throws { try locked { try base.markRead(uids: uids) } }
  func loadTimeline(limit: Int) throws -> TimelineScreen { try locked { try base.loadTimeline(limit: limit) } }
}
