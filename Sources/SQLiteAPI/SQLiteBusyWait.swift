import CSQLite
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A busy handler that waits for another connection's lock as `sqlite3_busy_timeout` does — the same growing sleeps
/// (1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100 ms, then 100 ms each) until `timeout` is spent — and counts its
/// calls and the time it slept, which SQLite's own handler does not expose. A timeout of 0 refuses at once
/// (`SQLITE_BUSY`, SQLite's default without a handler). Thread-safe: GRDB calls it from its connections' threads.
public final class SQLiteBusyWait: Sendable {
  /// The longest total wait for one lock, in milliseconds.
  public let timeoutMilliseconds: Int
  private let counts = Mutex((calls: 0, nanoseconds: UInt64(0)))

  private static let delays = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100]

  public init(timeoutMilliseconds: Int) { self.timeoutMilliseconds = timeoutMilliseconds }

  /// The handler's calls so far and the nanoseconds they slept.
  public var waited: (calls: Int, nanoseconds: UInt64) { counts.withLock { $0 } }

  /// The busy handler: called with the number of earlier calls for the same lock; sleeps and returns true to try
  /// again, or returns false once the timeout is spent (the statement then fails with `SQLITE_BUSY`).
  public func shouldRetry(afterTries tries: Int) -> Bool {
    let index = min(tries, Self.delays.count - 1)
    let prior =
      tries < Self.delays.count
      ? Self.delays[..<index].reduce(0, +) : Self.delays.reduce(0, +) + 100 * (tries - Self.delays.count)
    var delay = Self.delays[index]
    if prior + delay > timeoutMilliseconds {
      delay = timeoutMilliseconds - prior
      if delay <= 0 { return false }
    }
    var start = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    usleep(useconds_t(delay * 1_000))
    var end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &end)
    let slept = UInt64((end.tv_sec - start.tv_sec) * 1_000_000_000 + (end.tv_nsec - start.tv_nsec))
    counts.withLock {
      $0.calls += 1
      $0.nanoseconds += slept
    }
    return true
  }
}

extension SQLiteConnection {
  /// Installs `wait` as the connection's busy handler (nil: none, so a lock held elsewhere fails at once with
  /// `SQLITE_BUSY`). The connection keeps `wait` alive while it is installed.
  public func setBusyHandler(_ wait: SQLiteBusyWait?) throws {
    let db = try requireOpen()
    busyWait = wait
    guard let wait else {
      try SQLiteError.check(sqlite3_busy_handler(db, nil, nil), db: db, path: path)
      return
    }
    let context = Unmanaged.passUnretained(wait).toOpaque()
    try SQLiteError.check(
      sqlite3_busy_handler(
        db,
        { context, tries in
          guard let context else { return 0 }
          let wait = Unmanaged<SQLiteBusyWait>.fromOpaque(context).takeUnretainedValue()
          return wait.shouldRetry(afterTries: Int(tries)) ? 1 : 0
        }, context), db: db, path: path)
  }
}
