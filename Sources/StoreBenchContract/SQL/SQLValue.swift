/// One SQL value, as a `sql` workload file generates it for a column or a parameter and as a statement returns it:
/// SQLite's five storage classes.
public enum SQLValue: Hashable, Sendable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// Adds the value to a result checksum: an integer as its 8 little-endian bytes, text as its UTF-8 bytes and a
    /// 0xFF separator (``FNV1a/combine(_:)-(String)``), a real as its bit pattern, a BLOB as its length then its
    /// bytes, NULL as the byte 0xFE. An integer column hashes exactly as a built-in workload hashes an `Int64`
    /// field, and text as a `String` field, so a SQL file that reads the same rows has the same checksum.
    public func combine(into hash: inout FNV1a) {
        switch self {
        case .null: hash.combine(bytes: [0xFE])
        case .integer(let value): hash.combine(value)
        case .real(let value): hash.combine(Int64(bitPattern: value.bitPattern))
        case .text(let value): hash.combine(value)
        case .blob(let bytes):
            hash.combine(Int64(bytes.count))
            hash.combine(bytes: bytes)
        }
    }

    /// `NULL`, `42`, `0.5`, `'text'` (quotes doubled), `x'00ff'`: for messages.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let bytes): "x'" + bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "'"
        }
    }
}
