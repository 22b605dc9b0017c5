/// SQL `LIKE '%keyword%'` semantics for an ASCII keyword: does the text contain it, ignoring ASCII case?
/// Works on UTF-8 bytes (non-ASCII bytes never equal an ASCII letter), with no allocation per match.
public struct KeywordMatcher: Sendable {
  private let needle: [UInt8]

  /// `keyword` must be ASCII letters and digits (the search workload's keywords are).
  public init(_ keyword: String) {
    needle = keyword.utf8.map(Self.folded)
  }

  @inline(__always)
  static func folded(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
  }

  /// Whether the article's title or summary contains the keyword (the `search` workload's question).
  public func matches(_ article: Article) -> Bool { matches(article.title) || matches(article.summary) }

  public func matches(_ text: String) -> Bool {
    guard !needle.isEmpty else { return true }
    var text = text
    return text.withUTF8 { bytes in
      guard bytes.count >= needle.count else { return false }
      let first = needle[0]
      for start in 0...(bytes.count - needle.count) where Self.folded(bytes[start]) == first {
        var index = 1
        while index < needle.count && Self.folded(bytes[start + index]) == needle[index] { index += 1 }
        if index == needle.count { return true }
      }
      return false
    }
  }
}
