import CGDBM
import Foundation

/// An error reported by GDBM: its code (named), GDBM's message, the operation and the file.
public struct GDBMError: Error, CustomStringConvertible, Sendable {
    /// GDBM's error codes with Swift names (`gdbm_error` values); unknown values keep their number.
    public struct Code: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let noError = Code(rawValue: 0)
        public static let mallocError = Code(rawValue: 1)
        public static let fileOpenError = Code(rawValue: 3)
        public static let fileWriteError = Code(rawValue: 4)
        public static let fileReadError = Code(rawValue: 6)
        public static let badMagicNumber = Code(rawValue: 7)
        public static let emptyDatabase = Code(rawValue: 8)
        public static let cantBeReader = Code(rawValue: 9)
        public static let cantBeWriter = Code(rawValue: 10)
        public static let itemNotFound = Code(rawValue: 15)
        public static let cannotReplace = Code(rawValue: 17)
        public static let malformedData = Code(rawValue: 18)
        public static let needRecovery = Code(rawValue: 29)
        public static let badBucket = Code(rawValue: 32)
        public static let badHeader = Code(rawValue: 33)
        public static let fileSyncError = Code(rawValue: 38)
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
