import Foundation
import StoreBenchContract
import StoreBenchMeasure

/// The human summary printed by `run`: one Markdown table row per result row.
public enum MarkdownTable {
    public static func render(_ rows: [SummaryBuilder.Row]) -> String {
        var lines = [
            "| workload | backend | variant | size | n | median | 95% CI of the median | ops/s | noise | status |",
            "|---|---|---|---:|---:|---:|---:|---:|---|---|",
        ]
        for row in rows {
            let s = row.statistics
            let ci =
                s?.medianInterval.map { "\(duration($0.low))–\(duration($0.high))" }
                ?? s.map { "none (n=\($0.n): too few)" } ?? "–"
            let status = row.status == .ok ? "ok" : "\(row.status.rawValue): \(escape(shortened(row.error, to: 100)))"
            lines.append(
                "| \(row.key.workload) | \(row.key.backend) | \(escape(row.key.variant)) | \(row.key.size) | \(s?.n ?? 0) | "
                    + "\(s.map { duration($0.median) } ?? "–") | \(ci) | "
                    + "\(row.medianOpsPerSecond.map { String(format: "%.0f", $0) } ?? "–") | "
                    + "\(row.noise.isEmpty ? "" : "⚠ " + row.noise) | \(status) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` cut at the last word boundary before `limit` characters, with an ellipsis when cut.
    static func shortened(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        let head = text.prefix(limit)
        let cut = head.lastIndex(of: " ").map { head[..<$0] } ?? head
        return cut + " …"
    }

    /// Seconds in a readable unit: `412 µs`, `12.3 ms`, `4.56 s`.
    public static func duration(_ seconds: Double) -> String {
        let (scale, unit, digits) = durationUnit(seconds)
        return String(format: "%.\(digits)f \(unit)", seconds * scale)
    }

    /// The unit ``duration(_:)`` shows `seconds` in: its scale, name and decimals.
    static func durationUnit(_ seconds: Double) -> (scale: Double, unit: String, digits: Int) {
        switch seconds {
        case ..<0.001: (1_000_000, "µs", 0)
        case ..<1: (1000, "ms", 1)
        default: (1, "s", 2)
        }
    }

    /// A whole number with thousands separators (`2,846,720`).
    public static func grouped(_ value: Double) -> String {
        let rounded = Int64(value.rounded())
        let digits = String(rounded.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (rounded < 0 ? "-" : "") + out
    }

    /// A table cell's text: `|` escaped, line breaks as spaces (a cell cannot shift the table's columns).
    public static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\r\n", with: " ")
            .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
    }
}
