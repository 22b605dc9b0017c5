import CGDBM
import Foundation

/// An error reported by GDBM: its code (named), GDBM's message, the operation and the file.
public struct GDBMError: Error, CustomStringConvertible, Sendable {
  /// GDBM's error codes with Swift names, imported from gdbm.h's enum; unknown values keep their number.
  public struct Code: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// A code from gdbm.h's error enum (imported as `Int`).
    init(_ code: Int) { rawValue = Int32(code) }

    public static let noError = Code(GDBM_NO_ERROR)
    public static let mallocError = Code(GDBM_MALLOC_ERROR)
    public static let fileOpenError = Code(GDBM_FILE_OPEN_ERROR)
    public static let fileWriteError = Code(GDBM_FILE_WRITE_ERROR)
    public static let fileReadError = Code(GDBM_FILE_READ_ERROR)
    public static let badMagicNumber = Code(GDBM_BAD_MAGIC_NUMBER)
    public static let emptyDatabase = Code(GDBM_EMPTY_DATABASE)
    public static let cantBeReader = Code(GDBM_CANT_BE_READER)
    public static let cantBeWriter = Code(GDBM_CANT_BE_WRITER)
    public static let itemNotFound = Code(GDBM_ITEM_NOT_FOUND)
    public static let cannotReplace = Code(GDBM_CANNOT_REPLACE)
    public static let malformedData = Code(GDBM_MALFORMED_DATA)
    public static let needRecovery = Code(GDBM_NEED_RECOVERY)
    public static let badBucket = Code(GDBM_BAD_BUCKET)
    public static let badHeader = Code(GDBM_BAD_HEADER)
    public static let fileSyncError = Code(GDBM_FILE_SYNC_ERROR)
  }

  public let code: Code
  /// `gdbm_strerror` of the code, plus the system error where GDBM recorded one.
  public let message: String
  public let operation: String
  public let path: String

  init(code: Int32, systemError: Int32, operation: String, path: String) {
    self.code = Code(rawValue: code)
    var text = String(cString: gdbm_strerror(code))
    if systemError != 0 { text += " (\(String(cString: strerror(systemError))))" }
    message = text
    self.operation = operation
    self.path = path
  }

  public var description: String { "GDBM error \(code.rawValue): \(message) in \(operation) [file: \(path)]" }
}
