import Foundation
import StoreBenchCore
import StoreBenchCrash
import StoreBenchStandard
import Testing

@Suite("Record shape")
struct RecordShapeTests {
  @Test("the default shape gives the data every earlier run used; other shapes give other, longer records")
  func shapes() throws {
    let standard = DatasetGenerator(seed: 42).articles(count: 10_000)
    // The checksum `storebench overhead` has printed since before the shape existed.
    #expect(Checksum.articles(standard).hex == "59a39d8ce7440dc7")
    var long = DatasetGenerator(seed: 42)
    long.shape = RecordShape(WorkloadParameters(["summary_bytes": 2_000, "title_words": 12]))
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
      let scenario = try parser.parse(
        data: Data(
          """
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

  @Test("a spread has the asked median and maximum, keeps every other field, and message_bytes sizes messages")
  func spreadAndMessages() throws {
    var spread = DatasetGenerator(seed: 42)
    spread.shape = RecordShape(WorkloadParameters(["summary_bytes": 2_000, "summary_max_bytes": 20_000]))
    let targets = (0..<4_001).map { spread.shape.summaryTarget(seed: 42, index: $0) }.sorted()
    #expect(targets[2_000] == 2_000, "the median is summary_bytes")
    #expect(targets.last! <= 20_000 && targets.last! > 12_000, "a long tail up to the maximum")
    #expect(targets.first! >= 500, "the smallest is at least a quarter of the median")
    #expect(targets[3_600] < 7_000, "most notes are small: 90% under 7 KB")
    let articles = spread.articles(count: 300)
    let fixed = DatasetGenerator(seed: 42).articles(count: 300)
    #expect(zip(articles, fixed).allSatisfy { $0.uid == $1.uid && $0.feedID == $1.feedID && $0.title.count > 0 })
    #expect(
      zip(articles, (0..<300).map { spread.shape.summaryTarget(seed: 42, index: $0) }).allSatisfy {
        $0.summary.utf8.count >= $1
      })
    #expect(Set(articles.map { $0.summary.utf8.count / 500 }).count > 5, "sizes vary")

    // Messages: the default is today's data (the smoke baseline's timeline fingerprint), message_bytes lengthens
    // them.
    let timeline = TimelineWorkload()
    var parameters = WorkloadParameters(["messages": 500, "users": 50, "screen": 100])
    #expect(timeline.makeCase(parameters, generator: DatasetGenerator(seed: 42)).fingerprint == "9ce9a09c3e7bc1bf")
    parameters[.messageBytes] = 1_000
    var long = DatasetGenerator(seed: 42)
    long.shape = RecordShape(parameters)
    #expect(long.messages(count: 50, userCount: 5).allSatisfy { $0.text.utf8.count >= 1_000 })
    #expect(timeline.makeCase(parameters, generator: long).fingerprint != "9ce9a09c3e7bc1bf")
  }

  @Test(
    "the crash writer stores the shape it is given, and the checker finds its batches only with the same shape; bad shape parameters are refused"
  )
  func crashWriterShape() throws {
    let temp = try TemporaryDirectory(parent: URL(fileURLWithPath: "/var/tmp"))
    let descriptor = try #require(BackendRegistry.standard()["sqlite"])
    let location = StoreLocation(directory: try temp.child("store"), variant: try descriptor.variant())
    let shape = try RecordShape.articles(["summary_bytes": 3_000, "title_words": 9])
    let generator = DatasetGenerator(seed: 7, shape: shape)
    try CrashBatches.write(descriptor: descriptor, location: location, size: 5, generator: generator, limit: 3)
    let store = try descriptor.open(location, as: (any ArticleStore).self)
    let stored = try store.allArticles()
    try store.close()
    #expect(stored.count == 15 && stored.allSatisfy { $0.summary.utf8.count >= 3_000 })
    let same = CrashBatches.check(
      descriptor: descriptor, location: location, size: 5, generator: generator, batches: 3)
    #expect(same.completeBatches == [0, 1, 2] && same.foreignArticles == 0)
    let other = CrashBatches.check(
      descriptor: descriptor, location: location, size: 5, generator: DatasetGenerator(seed: 7), batches: 3)
    #expect(other.completeBatches.isEmpty && other.foreignArticles == 15)
    #expect(throws: ParameterError.self) { try RecordShape.articles(["message_bytes": 10]) }
    #expect(throws: ParameterError.self) { try RecordShape.articles(["summary_bytes": -1]) }
  }
}
