import CLMDB
import Foundation

/// An LMDB environment (one directory holding `data.mdb` and `lock.mdb`). Close it explicitly, after every other
/// thread is done with it.
// @unchecked Sendable: lmdb.h lets many threads use one MDB_env (opened MDB_NOTLS, each transaction on one thread);
// only close() mutates, and it is ordered after every use.
public final class LMDBEnvironment: @unchecked Sendable {
  /// How much the environment syncs at commit.
  public enum Durability: Sendable {
    /// fsync data and meta page at every commit (LMDB's default).
    case full
    /// `MDB_NOMETASYNC`: the meta page is not synced at commit (the last transaction may be lost on a crash
    /// of the machine, the database stays consistent).
    case noMetaSync
    /// `MDB_NOSYNC`: nothing is synced at commit (a machine crash may lose or, without ordered writes,
    /// damage recent transactions).
    case noSync
  }

  public let path: String
  private(set) var handle: OpaquePointer?
  /// Write transactions whose begin waited for the writer's lock (another process's or thread's write
  /// transaction), and the time they waited: a begin of ``waitThresholdNanoseconds`` or more counts (an uncontended
  /// one takes about a microsecond).
  public private(set) var writeLockWaits: (waits: Int, nanoseconds: UInt64) = (0, 0)
  /// 50 µs.
  public static let waitThresholdNanoseconds: UInt64 = 50_000

  private static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  /// Opens (creating) the environment in directory `path` with an explicit map size in bytes.
  public init(path: String, mapSize: Int, maxDatabases: Int, durability: Durability) throws {
    self.path = path
    var env: OpaquePointer?
    try check(mdb_env_create(&env), "mdb_env_create", path)
    do {
      try check(mdb_env_set_mapsize(env, mapSize), "mdb_env_set_mapsize", path)
      try check(mdb_env_set_maxdbs(env, MDB_dbi(maxDatabases)), "mdb_env_set_maxdbs", path)
      var flags = UInt32(MDB_NOTLS)
      switch durability {
      case .full: break
      case .noMetaSync: flags |= UInt32(MDB_NOMETASYNC)
      case .noSync: flags |= UInt32(MDB_NOSYNC)
      }
      try check(mdb_env_open(env, path, flags, 0o600), "mdb_env_open", path)
    } catch {
      mdb_env_close(env)
      throw error
    }
    handle = env
  }

  deinit { if let handle { mdb_env_close(handle) } }

  private func requireOpen() throws -> OpaquePointer {
    guard let handle else { throw LMDBError(EINVAL, operation: "use after close", path: path) }
    return handle
  }

  /// Runs `body` in a write transaction: commits when it returns, aborts when it throws.
  public func write<T>(_ body: (LMDBTransaction) throws -> T) throws -> T {
    try transaction(flags: 0, body)
  }

  /// Runs `body` in a read-only transaction (always ended when it returns or throws).
  public func read<T>(_ body: (LMDBTransaction) throws -> T) throws -> T {
    try transaction(flags: UInt32(MDB_RDONLY), body)
  }

  /// One point lookup: calls `body` with the value under `key` in LMDB's memory, inside a read-only transaction
  /// begun and ended around it (no ``LMDBTransaction`` object is made: a lookup's own cost stays the library's),
  /// or returns nil when there is none.
  @inlinable
  public func withValue<T>(
    for key: UnsafeRawBufferPointer, in database: LMDBDatabase, _ body: (UnsafeRawBufferPointer) throws -> T
  ) throws -> T? {
    let txn = try beginLookup()
    defer { endLookup(txn) }
    guard let value = try LMDBTransaction.value(in: txn, path: path, for: key, in: database) else { return nil }
    return try body(value)
  }

  /// Begins the read-only transaction of one ``withValue(for:in:_:)``.
  @usableFromInline
  func beginLookup() throws -> OpaquePointer? {
    var txn: OpaquePointer?
    try check(mdb_txn_begin(try requireOpen(), nil, UInt32(MDB_RDONLY), &txn), "mdb_txn_begin", path)
    return txn
  }

  /// Ends the transaction ``beginLookup()`` began.
  @usableFromInline
  func endLookup(_ txn: OpaquePointer?) { mdb_txn_abort(txn) }

  private func transaction<T>(flags: UInt32, _ body: (LMDBTransaction) throws -> T) throws -> T {
    var txn: OpaquePointer?
    let env = try requireOpen()
    let before = flags == 0 ? Self.now() : 0
    try check(mdb_txn_begin(env, nil, flags, &txn), "mdb_txn_begin", path)
    if flags == 0 {
      // Inside the write transaction, which LMDB gives one thread at a time: the count is ours.
      let waited = Self.now() - before
      if waited >= Self.waitThresholdNanoseconds {
        writeLockWaits.waits += 1
        writeLockWaits.nanoseconds += waited
      }
    }
    let transaction = LMDBTransaction(handle: txn!, path: path)
    let result: T
    do {
      result = try body(transaction)
    } catch {
      transaction.abort()
      throw error
    }
    try transaction.commit()
    return result
  }

  /// Opens (creating) the named database; names come from the caller's code, never from input.
  public func openDatabase(named name: String) throws -> LMDBDatabase {
    try write { txn in
      var dbi: MDB_dbi = 0
      try check(mdb_dbi_open(txn.handle, name, UInt32(MDB_CREATE), &dbi), "mdb_dbi_open(\(name))", path)
      return LMDBDatabase(handle: dbi, name: name)
    }
  }

  /// Flushes buffers to disk (`mdb_env_sync` with force).
  public func sync() throws {
    try check(mdb_env_sync(try requireOpen(), 1), "mdb_env_sync", path)
  }

  /// Closes the environment; safe to call more than once.
  public func close() {
    if let handle { mdb_env_close(handle) }
    handle = nil
  }

  /// The map size in force (`mdb_env_info`), in bytes.
  public func mapSize() throws -> Int {
    var info = MDB_envinfo()
    try check(mdb_env_info(try requireOpen(), &info), "mdb_env_info", path)
    return info.me_mapsize
  }

  /// The pages the file holds: `me_last_pgno + 1` from `mdb_env_info`, and the page size from `mdb_env_stat`.
  public func pageUsage() throws -> (pages: Int, pageSize: Int) {
    let env = try requireOpen()
    var info = MDB_envinfo()
    try check(mdb_env_info(env, &info), "mdb_env_info", path)
    var stat = MDB_stat()
    try check(mdb_env_stat(env, &stat), "mdb_env_stat", path)
    return (info.me_last_pgno + 1, Int(stat.ms_psize))
  }

  /// Writes a compacted copy of the environment into the existing, empty directory `directory`
  /// (`mdb_env_copy2` with `MDB_CP_COMPACT`: free pages are left out and the pages renumbered).
  public func copyCompacted(to directory: String) throws {
    try check(
      mdb_env_copy2(try requireOpen(), directory, UInt32(MDB_CP_COMPACT)), "mdb_env_copy2(MDB_CP_COMPACT)",
      directory)
  }

  /// The durability in force, read back from the environment's flags (`mdb_env_get_flags`).
  public func durability() throws -> Durability {
    var flags: UInt32 = 0
    try check(mdb_env_get_flags(try requireOpen(), &flags), "mdb_env_get_flags", path)
    if flags & UInt32(MDB_NOSYNC) != 0 { return .noSync }
    if flags & UInt32(MDB_NOMETASYNC) != 0 { return .noMetaSync }
    return .full
  }

  /// The LMDB library version string.
  public static var version: String { String(cString: mdb_version(nil, nil, nil)) }
}

/// A named database inside an environment.
public struct LMDBDatabase: Sendable {
  let handle: MDB_dbi
  public let name: String
}
