/// Words and awkward-but-legal strings mixed into generated text, so every backend is tested with the
/// strings real feeds contain: quotes, SQL-looking text, non-ASCII, emoji (incl. ZWJ sequences), separators.
/// No NUL or other C0 control characters except tab and newline: those are not legal in XML property lists.
public enum AwkwardText {
  static let words: [String] = [
    "storage", "timeline", "sync", "article", "feed", "reader", "launch", "cache", "index", "update",
    "swift", "query", "record", "offline", "battery", "network", "release", "design", "review", "notes",
    "privacy", "widget", "profile", "search", "archive", "server", "client", "draft", "photo", "story",
  ]

  static let pieces: [String] = [
    "Bobby \"Tables\"",
    "'); DROP TABLE article;--",
    "O'Reilly's",
    "Ünïcödé café naïve façade",
    "東京のタイムライン",
    "Привет, мир",
    "עברית RTL",
    "🚀👩‍💻🏳️‍🌈",
    "a,b;c|d",
    "tab\there",
    "line\nbreak",
    "<xml attr=\"1\"> & </xml>",
    "\\back\\slash\\",
    "=SUM(A1:A9)",
    "%s %n %@ {0}",
    "NULL",
  ]

  /// `count` words separated by spaces, with an awkward piece inserted when `awkward` is true.
  static func sentence(words count: Int, awkward: Bool, using rng: inout SplitMix64) -> String {
    var parts: [String] = []
    parts.reserveCapacity(count + 1)
    for _ in 0..<count { parts.append(words[Int(rng.next() % UInt64(words.count))]) }
    if awkward {
      let position = Int(rng.next() % UInt64(parts.count + 1))
      parts.insert(pieces[Int(rng.next() % UInt64(pieces.count))], at: position)
    }
    return parts.joined(separator: " ")
  }

  /// Text of at least `minimumBytes` UTF-8 bytes, with one awkward piece.
  public static func paragraph(minimumBytes: Int, using rng: inout SplitMix64) -> String {
    var text = sentence(words: 3, awkward: true, using: &rng)
    while text.utf8.count < minimumBytes {
      text += " " + words[Int(rng.next() % UInt64(words.count))]
    }
    return text
  }
}
