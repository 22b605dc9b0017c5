import Foundation
import StoreBenchBackends
import StoreBenchCore
import Testing

/// The registries are the inventory: roles are listed once, and Core names no backend.
@Suite("One inventory")
struct InventoryTests {
    @Test("every role protocol (a protocol refining Store) is in StoreRoles' one table, and every table entry is a protocol")
    func rolesDeclaredOnce() throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("Sources/StoreBenchContract/Backend/StoreRoles.swift"),
                              encoding: .utf8)
        let declared = Set(text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("public protocol "), line.contains(": Store") || line.contains("Store {") || line.contains(": ArticleStore") else { return nil }
            return line.dropFirst("public protocol ".count).split(separator: ":").first.map { String($0).trimmingCharacters(in: .whitespaces) }
        })
        let tabled = Set(text.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "is any "), let end = line.range(of: ".Type", range: range.upperBound..<line.endIndex) else { return nil }
            return String(line[range.upperBound..<end.lowerBound])
        })
        #expect(!declared.isEmpty && declared == tabled, "declared \(declared.sorted()), tabled \(tabled.sorted())")
        #expect("\(StoreRoles(rawValue: 0x7F))" == "articles, timeline, queries, settings, cache, sharing, persistence")
    }

    @Test("Core, Analysis and Measure name no backend: what a backend risks or needs is on its descriptor")
    func coreNamesNoBackend() throws {
        let names = BackendRegistry.standard().descriptors.map(\.name)
        for module in ["StoreBenchCore", "StoreBenchAnalysis", "StoreBenchMeasure"] {
            let root = packageRoot.appendingPathComponent("Sources/\(module)")
            for case let relative as String in FileManager.default.enumerator(atPath: root.path)?.allObjects ?? []
            where relative.hasSuffix(".swift") {
                let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
                for name in names { #expect(!text.contains("\"\(name)\""), "\(module)/\(relative) names \"\(name)\"") }
            }
        }
    }
}
