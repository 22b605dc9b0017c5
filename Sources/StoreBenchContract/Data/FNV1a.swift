/// FNV-1a 64-bit hash: a stable, dependency-free fingerprint for datasets and store contents.
/// Not cryptographic; it detects accidental change and loss, which is all verification needs.
public struct FNV1a: Sendable {
  public private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325
  private static let prime: UInt64 = 0x0000_0100_0000_01B3

  public init() {}

  public mutating func combine<S: Sequence>(bytes: S) where S.Element == UInt8 {
    for byte in bytes {
      value ^= UInt64(byte)
      value &*= Self.prime
    }
  }

  /// Hashes raw bytes (a file's contents): the same steps as ``combine(bytes:)``, without a generic sequence, which
  /// another module would run unspecialized, byte by byte through a witness table.
  public mutating func combine(buffer: UnsafeRawBufferPointer) {
    var value = self.value
    for byte in buffer {
      value ^= UInt64(byte)
      value &*= Self.prime
    }
    self.value = value
  }

  /// Hashes the UTF-8 bytes of `string` followed by a 0xFF separator (never valid UTF-8), so
  /// ("ab","c") and ("a","bc") differ.
  public mutating func combine(_ string: String) {
    var string = string
    string.withUTF8 { combine(buffer: UnsafeRawBufferPointer($0)) }
    withUnsafeBytes(of: UInt8(0xFF)) { combine(buffer: $0) }
  }

  public mutating func combine(_ integer: Int64) {
    var little = integer.littleEndian
    withUnsafeBytes(of: &little) { combine(bytes: $0) }
  }

  /// The hash as 16 lowercase hex digits.
  public var hex: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
