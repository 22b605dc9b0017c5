import CSV
import Foundation
import StoreBenchContract
import StoreBenchMeasure

/// CSV encoding shared by every report: RFC 4180 (CRLF line ends, fields quoted when they contain a quote,
/// comma or line break), via CSV.swift. Numbers are formatted here so that numeric columns stay plain numbers.
///
/// Spreadsheet safety: a text cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return (which a
/// spreadsheet would run as a formula) is written with a leading `'`, and so is a text cell that begins with `'`
/// itself; ``decode(_:)`` removes exactly that one `'`, so every cell reads back as it was. Cells that are numbers
/// (`-0.5`, `+3`) are written as they are.
public enum CSVFormat {
  /// Encodes `rows` (header first) as one CSV document.
  public static func encode(_ rows: [[String]]) throws -> Data {
    let stream = OutputStream(toMemory: ())
    stream.open()
    defer { stream.close() }
    let writer = try CSVWriter(stream: stream, newline: .crlf)
    for row in rows { try writer.write(row: row.map(neutralised)) }
    writer.stream.close()
    guard let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data else {
      throw ReportError(message: "CSV encoder produced no data")
    }
    return data + Data("\r\n".utf8)
  }

  /// Parses a CSV document with a header row into the header and the rows.
  public static func decode(_ text: String) throws -> (header: [String], rows: [[String]]) {
    let reader = try CSVReader(string: text, hasHeaderRow: true)
    var rows: [[String]] = []
    while let row = reader.next() { rows.append(row.map(restored)) }
    return ((reader.headerRow ?? []).map(restored), rows)
  }

  private static let formulaStarts: Set<Character> = ["=", "+", "-", "@", "\t", "\r", "\r\n", "'"]

  /// The cell as written: a leading `'` added to text a spreadsheet would treat as a formula (or that starts
  /// with `'`); numbers unchanged.
  public static func neutralised(_ cell: String) -> String {
    guard let first = cell.first, formulaStarts.contains(first) else { return cell }
    if "=+-@".contains(first), Double(cell) != nil { return cell }
    return "'" + cell
  }

  /// The cell as it was before ``neutralised(_:)``.
  public static func restored(_ cell: String) -> String {
    cell.first == "'" ? String(cell.dropFirst()) : cell
  }

  /// A duration in seconds with nanosecond resolution (`0.012345678`).
  public static func seconds(_ value: Double) -> String { String(format: "%.9f", value) }

  /// A rate or ratio with three decimals.
  public static func decimal(_ value: Double) -> String { String(format: "%.3f", value) }

  /// An optional integer; empty when unknown.
  public static func integer(_ value: Int64?) -> String { value.map(String.init) ?? "" }

  /// A number as its column's unit writes it: seconds with 9 decimals, byte and count columns as whole numbers,
  /// per-operation values with 6 significant digits, the rest with 3 decimals.
  public static func number(_ value: Double, unit: ReportColumn.Unit) -> String {
    switch unit {
    case .seconds: seconds(value)
    case .bytes, .kibibytes, .count: String(Int64(value.rounded()))
    case .microseconds, .perSecond, .ratio, .text: decimal(value)
    case .countPerOp, .bytesPerOp: String(format: "%.6g", value)
    }
  }
}

/// A report could not be produced or written.
public struct ReportError: ExitCoded, CustomStringConvertible {
  public let message: String
  /// A refused target (not a regular file, an input) is bad input; a write that failed is a failure.
  public let exit: StoreBenchExit
  public init(message: String, exit: StoreBenchExit = .failure) {
    self.message = message
    self.exit = exit
  }
  public var description: String { message }
}
