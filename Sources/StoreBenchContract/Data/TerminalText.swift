extension String {
  /// The text with every control character (C0 but newline and tab, DEL, and C1) written as `\u{XX}`, so that
  /// text from a scenario or a store cannot move the cursor, recolour or retitle the user's terminal when a
  /// message echoes it. `keepingNewlines: false` escapes newlines and tabs too (a value quoted inside a line).
  public func escapingControlCharacters(keepingNewlines: Bool = true) -> String {
    var result = ""
    result.reserveCapacity(utf8.count)
    for scalar in unicodeScalars {
      let value = scalar.value
      let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
      if isControl && !(keepingNewlines && (scalar == "\n" || scalar == "\t")) {
        result += "\\u{" + String(value, radix: 16, uppercase: true) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}

extension String {
  /// Shorthand for a value quoted inside one line of a message.
  public var escapingControlCharacters: String { escapingControlCharacters(keepingNewlines: false) }
}
