import CLMDB
import Foundation

/// An error returned by LMDB: a named code, LMDB's own message, the operation and the environment path.
public struct LMDBError: Error, CustomStringConvertible, Sendable {
  /// Every `MDB_*` error code by name; other values are `errno` values from the system (`.system`).
  public enum Code: Equatable, Sendable {
    case keyExist, notFound, pageNotFound, corrupted, panic, versionMismatch, invalid, mapFull, dbsFull,
      readersFull, tlsFull, txnFull, cursorFull, pageFull, mapResized, incompatible, badReaderSlot,
      badTransaction, badValueSize, badDBI
    case system(Int32)

    public init(rawValue: Int32) {
      switch rawValue {
      case MDB_KEYEXIST: self = .keyExist
      case MDB_NOTFOUND: self = .notFound
      case MDB_PAGE_NOTFOUND: self = .pageNotFound
      case MDB_CORRUPTED: self = .corrupted
      case MDB_PANIC: self = .panic
      case MDB_VERSION_MISMATCH: self = .versionMismatch
      case MDB_INVALID: self = .invalid
      case MDB_MAP_FULL: self = .mapFull
      case MDB_DBS_FULL: self = .dbsFull
      case MDB_READERS_FULL: self = .readersFull
      case MDB_TLS_FULL: self = .tlsFull
      case MDB_TXN_FULL: self = .txnFull
      case MDB_CURSOR_FULL: self = .cursorFull
      case MDB_PAGE_FULL: self = .pageFull
      case MDB_MAP_RESIZED: self = .mapResized
      case MDB_INCOMPATIBLE: self = .incompatible
      case MDB_BAD_RSLOT: self = .badReaderSlot
      case MDB_BAD_TXN: self = .badTransaction
      case MDB_BAD_VALSIZE: self = .badValueSize
      case MDB_BAD_DBI: self = .badDBI
      default: self = .system(rawValue)
      }
    }
  }

  public let code: Code
  public let rawValue: Int32
  /// `mdb_strerror` of the code.
  public let message: String
  /// The LMDB call that failed, e.g. `mdb_put`.
  public let operation: String
  /// The environment directory.
  public let path: String

  public init(_ rawValue: Int32, operation: String, path: String) {
    self.rawValue = rawValue
    code = Code(rawValue: rawValue)
    message = String(cString: mdb_strerror(rawValue))
    self.operation = operation
    self.path = path
  }

  public var description: String {
    "LMDB error \(rawValue) (\(code)): \(message) in \(operation) [file: \(path)]"
      + (code == .mapFull ? " — the map size is too small for this data; raise the mapsize setting" : "")
  }
}

/// The one error helper: throws ``LMDBError`` unless `rc` is `MDB_SUCCESS`.
@inline(__always)
/// The operation's name is only built on failure (`@autoclosure`): hot paths pay nothing for it.
func check(_ rc: Int32, _ operation: @autoclosure () -> String, _ path: String) throws {
  if rc != MDB_SUCCESS { throw LMDBError(rc, operation: operation(), path: path) }
}
