import Foundation
import StoreBenchCore

/// The data the checks store beside the generated articles.
public enum ContractData {
    /// Articles whose text and uids carry every awkward piece the generator knows and a few more: quotes, SQL,
    /// combining marks beside their precomposed forms, emoji sequences, control characters, markup, the empty string.
    public static func awkwardArticles() -> [Article] {
        let pieces = [
            "Bobby \"Tables\"", "'); DROP TABLE article;--", "Ünïcödé", "e\u{301} vs \u{e9}", "🚀👩‍💻🏳️‍🌈",
            "tab\there", "line\nbreak\r\nCRLF", "<xml> & </xml>", "\\back\\slash", "=SUM(A1)", "", " leading space",
        ]
        return pieces.enumerated().map { index, piece in
            Article(
                uid: "awkward-\(index)-\(piece)", feedID: Int64(index), title: piece, summary: "summary: \(piece)",
                published: Date(millisecondsSince1970: 1_700_000_000_123 + Int64(index)), read: false)
        }
    }

    /// Byte-for-byte equality (Swift's `==` on strings ignores Unicode normalization: "e\u{301}" == "\u{e9}").
    public static func sameBytes(_ a: String, _ b: String) -> Bool { Array(a.utf8) == Array(b.utf8) }
}
