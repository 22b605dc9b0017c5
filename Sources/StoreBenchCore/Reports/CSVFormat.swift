import CSV
import Foundation

/// CSV encoding shared by every report: RFC 4180 (CRLF line ends, fields quoted when they contain a quote,
/// comma or line break), via CSV.swift. Numbers are formatted here so that numeric columns stay plain numbers.
public enum CSVFormat {
    /// Encodes `rows` (header first) as one CSV document.
    public static func encode(_ rows: [[String]]) throws -> Data {
        let stream = OutputStream(toMemory: ())
        stream.open()
        defer { stream.close() }
        let writer = try CSVWriter(stream: stream, newline: .crlf)
        for row in rows { try writer.write(row: row) }
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
        while let row = reader.next() { rows.append(row) }
        return (reader.headerRow ?? [], rows)
    }

    /// A duration in seconds with nanosecond resolution (`0.012345678`).
    public static func seconds(_ value: Double) -> String { String(format: "%.9f", value) }

    /// A rate or ratio with three decimals.
    public static func decimal(_ value: Double) -> String { String(format: "%.3f", value) }

    /// An optional integer; empty when unknown.
    public static func integer(_ value: Int64?) -> String { value.map(String.init) ?? "" }
}

/// A report could not be produced or written.
public struct ReportError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
