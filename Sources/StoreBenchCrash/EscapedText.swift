import Foundation
import StoreBenchCore

/// Text whose bytes are escaped as a marker and a fixed number of digits: the layer log's `%2F` (hexadecimal, 2) and
/// mountinfo's `\040` (octal, 3). A marker not followed by such digits is kept as it is.
enum EscapedText {
  static func decode(_ text: String, marker: UInt8, digits: Int, radix: Int) -> String {
    var bytes: [UInt8] = []
    var rest = Array(text.utf8)[...]
    while let byte = rest.popFirst() {
      if byte == marker, rest.count >= digits,
        let value = UInt8(String(decoding: rest.prefix(digits), as: UTF8.self), radix: radix)
      {
        bytes.append(value)
        rest = rest.dropFirst(digits)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
