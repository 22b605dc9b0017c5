/// Shell-style patterns: `*` any run of characters, `?` one character, everything else itself (``GlobPattern``).
enum Glob {
  static func matches(_ pattern: String, _ text: String) -> Bool { GlobPattern.matches(pattern, text) }
}
