/// A Swift source file as tokens, with comments dropped and string literals kept apart from code: what the
/// architecture rules scan, so that a rule never fires on a comment that mentions `/proc` and never misses a name
/// written inside an interpolation.
///
/// Not a compiler's lexer: it knows identifiers (with `@` attributes and backticked names), numbers, string literals
/// (plain, multi-line and raw, with interpolations scanned as code) and single-character punctuation, which is all
/// the rules ask about.
struct SwiftTokens {
  /// One token and the line it starts on (1-based).
  struct Token: Equatable, CustomStringConvertible {
    enum Kind: Equatable {
      /// A name or keyword (`import`, `exit`, `Sendable`); backticks removed.
      case identifier
      /// An integer or floating-point literal.
      case number
      /// One segment of a string literal's text (escapes kept as written); an interpolation splits a literal
      /// into segments, its code is tokens of its own between them.
      case string
      /// One character of punctuation or an operator character.
      case punctuation
    }

    let kind: Kind
    let text: String
    let line: Int

    var description: String { "\(kind) '\(text)' (line \(line))" }
  }

  let tokens: [Token]

  init(_ source: String) {
    var scanner = Scanner(Array(source.unicodeScalars))
    scanner.scanCode(untilClosingParenthesis: false)
    tokens = scanner.tokens
  }

  /// The names of the modules the file imports (`import X`, `@testable import X`, `import struct X.Y`).
  var imports: [String] {
    var names: [String] = []
    for (index, token) in tokens.enumerated() where token.kind == .identifier && token.text == "import" {
      let atLineStart =
        index == 0 || tokens[index - 1].line < token.line || tokens[index - 1].text == ";"
        || (index >= 2 && tokens[index - 2].text == "@")
      guard atLineStart else { continue }
      var next = index + 1
      let kinds: Set = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"]
      if next < tokens.count, kinds.contains(tokens[next].text) { next += 1 }
      if next < tokens.count, tokens[next].kind == .identifier { names.append(tokens[next].text) }
    }
    return names
  }

  private struct Scanner {
    let scalars: [Unicode.Scalar]
    var index = 0
    var line = 1
    var tokens: [Token] = []

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    func peek(_ offset: Int = 0) -> Unicode.Scalar? {
      index + offset < scalars.count ? scalars[index + offset] : nil
    }

    mutating func advance() {
      if scalars[index] == "\n" { line += 1 }
      index += 1
    }

    /// Code until the end of the input, or until the `)` that closes an interpolation.
    mutating func scanCode(untilClosingParenthesis: Bool) {
      var depth = 0
      while let scalar = peek() {
        if scalar == "/" && peek(1) == "/" {
          while let next = peek(), next != "\n" { advance() }
        } else if scalar == "/" && peek(1) == "*" {
          skipBlockComment()
        } else if scalar == "\"" || (scalar == "#" && rawStringStarts()) {
          scanString()
        } else if scalar.properties.isWhitespace {
          advance()
        } else if isIdentifierStart(scalar) || scalar == "`" || scalar == "$" {
          scanIdentifier()
        } else if ("0"..."9").contains(scalar) {
          scanNumber()
        } else {
          if untilClosingParenthesis {
            if scalar == "(" { depth += 1 }
            if scalar == ")" {
              if depth == 0 {
                advance()
                return
              }
              depth -= 1
            }
          }
          tokens.append(Token(kind: .punctuation, text: String(scalar), line: line))
          advance()
        }
      }
    }

    func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
      scalar == "_" || scalar.properties.isAlphabetic
    }

    func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
      isIdentifierStart(scalar) || ("0"..."9").contains(scalar)
    }

    /// `#` starts a raw string when hashes run up to a quote (not `#if`, `#file`, `#expect`).
    func rawStringStarts() -> Bool {
      var offset = 0
      while peek(offset) == "#" { offset += 1 }
      return peek(offset) == "\""
    }

    mutating func skipBlockComment() {
      var depth = 0
      while let scalar = peek() {
        if scalar == "/" && peek(1) == "*" {
          depth += 1
          advance()
        } else if scalar == "*" && peek(1) == "/" {
          depth -= 1
          advance()
          if depth == 0 {
            advance()
            return
          }
        }
        advance()
      }
    }

    mutating func scanIdentifier() {
      let start = line
      var text = ""
      if peek() == "`" {
        advance()
        while let scalar = peek(), scalar != "`" {
          text.unicodeScalars.append(scalar)
          advance()
        }
        if peek() == "`" { advance() }
      } else {
        text.unicodeScalars.append(scalars[index])
        advance()
        while let scalar = peek(), isIdentifierPart(scalar) {
          text.unicodeScalars.append(scalar)
          advance()
        }
      }
      tokens.append(Token(kind: .identifier, text: text, line: start))
    }

    mutating func scanNumber() {
      let start = line
      var text = ""
      while let scalar = peek(),
        isIdentifierPart(scalar) || (scalar == "." && peek(1).map { ("0"..."9").contains($0) } == true)
      {
        text.unicodeScalars.append(scalar)
        advance()
      }
      tokens.append(Token(kind: .number, text: text, line: start))
    }

    /// A string literal from its opening delimiter to its closing one: `"…"`, `"""…"""`, and either with `#`s.
    mutating func scanString() {
      var hashes = 0
      while peek() == "#" {
        hashes += 1
        advance()
      }
      let multiline = peek(1) == "\"" && peek(2) == "\""
      for _ in 0..<(multiline ? 3 : 1) { advance() }
      // A multi-line literal's text starts on the line after its opening delimiter.
      if multiline {
        while let next = peek(), next != "\n", next.properties.isWhitespace { advance() }
        if peek() == "\n" { advance() }
      }
      var start = line
      var text = ""
      func closes(_ scanner: Scanner) -> Bool {
        let quotes = multiline ? 3 : 1
        for offset in 0..<quotes where scanner.peek(offset) != "\"" { return false }
        for offset in 0..<hashes where scanner.peek(quotes + offset) != "#" { return false }
        return true
      }
      while let scalar = peek() {
        if closes(self) {
          for _ in 0..<((multiline ? 3 : 1) + hashes) { advance() }
          break
        }
        if scalar == "\\" && (0..<hashes).allSatisfy({ peek(1 + $0) == "#" }) {
          let after = peek(1 + hashes)
          if after == "(" {
            tokens.append(Token(kind: .string, text: text, line: start))
            text = ""
            for _ in 0..<(2 + hashes) { advance() }
            scanCode(untilClosingParenthesis: true)
            start = line
            continue
          }
          for _ in 0..<(1 + hashes) {
            text.unicodeScalars.append(scalars[index])
            advance()
          }
          if let escaped = peek() {
            text.unicodeScalars.append(escaped)
            advance()
          }
          continue
        }
        if scalar == "\n" && !multiline { break }
        text.unicodeScalars.append(scalar)
        advance()
      }
      tokens.append(Token(kind: .string, text: text, line: start))
    }
  }
}
