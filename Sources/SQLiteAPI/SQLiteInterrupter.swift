import CSQLite

#if canImport(Glibc)
  import Glibc
#endif

/// Stops a connection's running statement from another thread (`sqlite3_interrupt`, which SQLite makes safe to
/// call from any thread while the connection is open): the statement fails with `SQLITE_INTERRUPT`
/// (``SQLiteResultCode/interrupt``). Call it only while the connection is open: its owner closes the connection
/// after the work it guards (``SQLiteConnection/interrupter``).
public struct SQLiteInterrupter: Sendable {
  // The handle's address, only ever passed back to sqlite3_interrupt, SQLite's one entry point documented as
  // safe from any thread.
  private let address: Int

  init(handle: OpaquePointer?) { address = handle.map { Int(bitPattern: UnsafeRawPointer($0)) } ?? 0 }

  /// Interrupts the statement running now, and any started before it ends.
  public func callAsFunction() {
    if let handle = OpaquePointer(bitPattern: address) { sqlite3_interrupt(handle) }
  }
}

extension SQLiteConnection {
  /// The thread-safe interrupter of this connection (a no-op once it is closed before the interrupter was made).
  public var interrupter: SQLiteInterrupter { SQLiteInterrupter(handle: handle) }
}

/// A deadline for every statement of a connection, checked by SQLite's progress handler every 10,000 virtual-machine
/// steps: past it, the running statement fails with `SQLITE_INTERRUPT`. For a connection that runs input nobody
/// bounded (the preflight of a workload file); the connection keeps it alive while installed.
public final class SQLiteDeadline {
  /// CLOCK_MONOTONIC nanoseconds.
  let deadline: UInt64
  public let seconds: Double

  init(seconds: Double) {
    self.seconds = seconds
    deadline = Self.now() &+ UInt64(seconds * 1e9)
  }

  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  var passed: Bool { Self.now() >= deadline }
}

extension SQLiteConnection {
  /// Stops every statement run after `seconds` from now (``SQLiteDeadline``).
  public func limitRunTime(seconds: Double) throws {
    let db = try requireOpen()
    let limit = SQLiteDeadline(seconds: seconds)
    deadline = limit
    let check: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
      guard let context else { return 0 }
      return Unmanaged<SQLiteDeadline>.fromOpaque(context).takeUnretainedValue().passed ? 1 : 0
    }
    sqlite3_progress_handler(db, 10_000, check, Unmanaged.passUnretained(limit).toOpaque())
  }
}
