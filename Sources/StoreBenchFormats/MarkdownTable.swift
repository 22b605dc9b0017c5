import Foundation
import StoreBenchContract
import StoreBenchMeasure

/// Markdown cells as the reports write them: durations with their unit, grouped counts, escaped text.
public enum MarkdownTable {
  /// A wall-clock span as progress lines and messages write it: `4m05s`, `38s`.
  public static func clock(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded())
    return whole >= 60 ? String(format: "%dm%02ds", whole / 60, whole % 60) : "\(whole)s"
  }

  public static func shortened(_ text: String, to limit: Int) -> String {
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
  public static func durationUnit(_ seconds: Double) -> (scale: Double, unit: String, digits: Int) {
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
