import Foundation
import StoreBenchCore
import Testing

@Suite("Record shape")
struct ArticleShapeTests {
    @Test("the default shape gives the data every earlier run used; other shapes give other, longer records")
    func shapes() throws {
        let standard = DatasetGenerator(seed: 42).articles(count: 10_000)
        // The checksum `storebench overhead` has printed since before the shape existed.
        #expect(Checksum.articles(standard).hex == "59a39d8ce7440dc7")
        var long = DatasetGenerator(seed: 42)
        long.shape = ArticleShape(WorkloadParameters(["summary_bytes": 2_000, "title_words": 12]))
        let articles = long.articles(count: 200)
        #expect(articles.allSatisfy { $0.summary.utf8.count >= 2_000 && $0.title.split(separator: " ").count >= 12 })
        #expect(Checksum.articles(articles).hex != Checksum.articles(Array(standard.prefix(200))).hex)
        #expect(articles.map(\.uid) == standard.prefix(200).map(\.uid), "the same uids, so sizes are the only change")
    }

    @Test("a workload's summary_bytes reaches its data and its fingerprint")
    func throughTheRun() throws {
        let registry = BackendRegistry.standard()
        let parser = ScenarioParser(backends: registry, workloads: .standard)
        func fingerprint(_ extra: String) throws -> String {
            let scenario = try parser.parse(data: Data("""
                name: s
                backends: [{backend: memory}]
                workloads: [{workload: insert, parameters: {count: 50\(extra)}}]
                """.utf8), file: "s.yaml")
            let plan = try RunPlan(scenario: scenario, backends: registry, workloads: .standard)
            return plan.datasets[0].fingerprint
        }
        #expect(try fingerprint("") == fingerprint(", summary_bytes: 190"))
        #expect(try fingerprint("") != fingerprint(", summary_bytes: 5000"))
    }
}
