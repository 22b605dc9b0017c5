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
    case .null: hash.combineSQLNull()
    case .integer(let value): hash.combine(value)
    case .real(let value): hash.combineSQLReal(value)
    case .text(let value): hash.combine(value)
    case .blob(let bytes): bytes.withUnsafeBytes { hash.combineSQLBlob($0) }
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

extension FNV1a {
  /// The result checksum's rules for what a built-in workload never hashes (``SQLValue/combine(into:)``), in one
  /// place for every backend that hashes cells straight from its library's row: NULL is the byte 0xFE.
  public mutating func combineSQLNull() { combine(bytes: CollectionOfOne(UInt8(0xFE))) }

  /// A REAL: its bit pattern as an integer.
  public mutating func combineSQLReal(_ value: Double) { combine(Int64(bitPattern: value.bitPattern)) }

  /// TEXT from its UTF-8 bytes, exactly as ``combine(_:)-(String)`` hashes the string: the bytes, then 0xFF.
  public mutating func combineSQLText(utf8 bytes: UnsafeRawBufferPointer) {
    combine(buffer: bytes)
    combine(bytes: CollectionOfOne(UInt8(0xFF)))
  }

  /// A BLOB: its length, then its bytes.
  public mutating func combineSQLBlob(_ bytes: UnsafeRawBufferPointer) {
    combine(Int64(bytes.count))
    combine(buffer: bytes)
  }
}
