import Foundation

/// The checks every reader of a run folder applies to a CSV file before decoding it: the text is UTF-8, ends with a
/// line end (a file cut mid-row does not), has no unterminated quote, and every record has as many cells as the
/// header. A violation names the file and the 1-based line where the bad record starts. Decoding itself is
/// ``CSVFormat/decode(_:)`` (CSV.swift); this scan only refuses what that reader would silently accept.
public enum StrictCSV {
    /// Decodes `data` from `source` after the checks (see the type).
    public static func decode(_ data: Data, source: String) throws -> (header: [String], rows: [[String]]) {
        guard let text = String(data: data, encoding: .utf8) else {
            throw RunFolderError(.torn, "\(source): not UTF-8 text")
        }
        try check(text, source: source)
        do {
            return try CSVFormat.decode(text)
        } catch {
            throw RunFolderError(.torn, "\(source): not valid CSV (\(error))")
        }
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
