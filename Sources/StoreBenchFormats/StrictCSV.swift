import Foundation

/// The checks every reader of a run folder applies to a CSV file before decoding it: the text is UTF-8, ends with a
/// line end (a file cut mid-row does not), has no unterminated quote, and every record has as many cells as the
/// header. A violation names the file and the 1-based line where the bad record starts. Decoding itself is
/// ``CSVFormat/decode(_:)`` (CSV.swift); this scan only refuses what that reader would silently accept.
///
/// Line ends may be LF, CRLF (what storebench writes) or CR CR LF (a CRLF file converted again by git's `autocrlf`
/// or an editor): outside quoted cells every run of CRs before an LF is read as one line end, so such a file reads
/// as the one storebench wrote. Whatever the decoder makes of a file, a
/// record whose width differs from the header's is refused by line, never indexed past its end.
public enum StrictCSV {
  /// Decodes `data` from `source` after the checks (see the type).
  public static func decode(_ data: Data, source: String) throws -> (header: [String], rows: [[String]]) {
    guard let raw = String(data: data, encoding: .utf8) else {
      throw RunFolderError(.torn, "\(source): not UTF-8 text")
    }
    let text = lineFeedsOnly(raw)
    try check(text, source: source)
    let table: (header: [String], rows: [[String]])
    do {
      table = try CSVFormat.decode(text)
    } catch {
      throw RunFolderError(.torn, "\(source): not valid CSV (\(error))")
    }
    var seen: Set<String> = []
    if let twice = table.header.first(where: { !seen.insert($0).inserted }) {
      throw RunFolderError(
        .torn, "\(source): the column \(twice) appears twice in the header (which one is meant cannot be told)")
    }
    if let (index, row) = table.rows.enumerated().first(where: { $0.element.count != table.header.count }) {
      throw RunFolderError(
        .torn,
        "\(source): record \(index + 1) has \(row.count) cells, the header has \(table.header.count)")
    }
    return table
  }

  /// `text` with every run of CRs before an LF outside a quoted cell removed (cells keep their bytes).
  static func lineFeedsOnly(_ text: String) -> String {
    guard text.utf8.contains(13) else { return text }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var quoted = false
    for byte in text.utf8 {
      if byte == UInt8(ascii: "\"") { quoted.toggle() }
      if byte == 10, !quoted {
        while bytes.last == 13 { bytes.removeLast() }
      }
      bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Throws a ``RunFolderError`` naming `source` and the line when `text` is not a complete, rectangular CSV table.
  public static func check(_ text: String, source: String) throws {
    guard !text.isEmpty else { throw RunFolderError(.torn, "\(source): empty file") }
    var line = 1
    var recordLine = 1
    var cells = 1
    var quoted = false
    var atCellStart = true
    var width: Int?
    func endRecord() throws {
      if let width {
        guard cells == width else {
          throw RunFolderError(
            .torn,
            "\(source): line \(recordLine) has \(cells) cells, the header has \(width) "
              + "(a row cut short or extended)")
        }
      } else {
        width = cells
      }
      cells = 1
      atCellStart = true
    }
    var scalars = text.unicodeScalars.makeIterator()
    var pending: Unicode.Scalar? = nil
    while let scalar = pending ?? scalars.next() {
      pending = nil
      if quoted {
        if scalar == "\"" {
          if let next = scalars.next() {
            if next == "\"" { continue }  // an escaped quote
            quoted = false
            pending = next
          } else {
            quoted = false
          }
        } else if scalar == "\n" {
          line += 1
        }
        continue
      }
      switch scalar {
      case "\"" where atCellStart:
        quoted = true
        atCellStart = false
      case ",":
        cells += 1
        atCellStart = true
      case "\r":
        continue
      case "\n":
        try endRecord()
        line += 1
        recordLine = line
      default:
        atCellStart = false
      }
    }
    guard !quoted else {
      throw RunFolderError(
        .torn, "\(source): line \(recordLine) opens a quote that is never closed (the file is cut short)")
    }
    guard text.unicodeScalars.last == "\n" else {
      throw RunFolderError(.torn, "\(source): the file ends in the middle of line \(recordLine) (cut short)")
    }
  }
}
