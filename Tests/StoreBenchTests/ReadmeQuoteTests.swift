import Foundation
import Testing

/// Generated text goes stale: the README's quotes of the committed example must still be in it.
@Suite("README quotes")
struct ReadmeQuoteTests {
    /// The lines of the README block `<!-- generated:NAME -->` … `<!-- end generated -->`.
    static func block(_ name: String) throws -> [String] {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "<!-- generated:\(name) -->\n"), "README has no generated:\(name) block")
        let end = try #require(readme.range(of: "<!-- end generated -->", range: start.upperBound..<readme.endIndex))
        return readme[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
    }

    @Test("every recommendation the README quotes is in results/example/report.md, verbatim")
    func recommendations() throws {
        let report = try String(contentsOf: packageRoot.appendingPathComponent("results/example/report.md"), encoding: .utf8)
        let quoted = try Self.block("recommendations")
        #expect(!quoted.isEmpty, "scripts/regenerate-example fills the block")
        for line in quoted { #expect(report.contains(line), "README quote no longer in report.md: \(line)") }
    }

    @Test("the seed table names strategies and classes that results/example/classes.csv has")
    func seedTable() throws {
        let classes = try String(contentsOf: packageRoot.appendingPathComponent("results/example/classes.csv"), encoding: .utf8)
        let rows = try Self.block("seed-table").dropFirst(2)
        #expect(rows.count >= 5)
        for row in rows {
            let label = row.split(separator: "|").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            #expect(classes.contains(label), "README's seed table names \(label), which results/example does not have")
        }
    }

    @Test("the notes answer the README quotes is results/example/advice-notes/advice.md's, verbatim")
    func adviceQuote() throws {
        let advice = try String(contentsOf: packageRoot.appendingPathComponent("results/example/advice-notes/advice.md"), encoding: .utf8)
        let quoted = try Self.block("advice-notes")
        #expect(quoted.count >= 2, "scripts/regenerate-advice fills the block")
        for line in quoted { #expect(advice.contains(line), "README quote no longer in advice.md: \(line)") }
    }
}
