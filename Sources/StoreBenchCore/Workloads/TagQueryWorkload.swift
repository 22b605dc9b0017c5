/// `tags`: the two queries a notes app runs on its tags (seed 000), `count` times over `stored` notes with tags —
/// "the tags that have unarchived notes" (the sidebar) and "the newest `limit` notes with tag X" (one tag's list,
/// X going round the tags). SQLite records `EXPLAIN QUERY PLAN` in `query_plan` (`tags=join|denormalized|covering`:
/// SCAN vs SEARCH … USING COVERING INDEX); the others name their strategy. `tag-edit` measures keeping the index.
public struct TagQueryWorkload: Workload {
  public init() {}
  public let name = "tags"

  public func missingNotes(_ notes: [SampleColumn: String]) -> String? {
    (notes[.queryPlan] ?? "").isEmpty ? "the row records no query plan" : nil
  }
  public let smokeParameters = ["stored": 200, "count": 5, "tags": 8]
  public let summary =
    "tags with unarchived notes + newest 50 notes of one tag, N times over M notes with tags (query plan recorded)"
  public let sizeParameter = ParameterName.stored
  public let requires: StoreRoles = .tagging
  public let leavesStoreUnchanged = true
  public let parameters =
    [
      .count(100, "queries (each: the tags with unarchived notes + one tag's newest notes)", max: 1_000_000),
      WorkloadParameter(.limit, default: 50, range: 1...10_000, summary: "notes listed per tag"),
    ] + TaggedNotes.parameters

  public func makeCase(_ parameters: WorkloadParameters, generator: DatasetGenerator) -> any WorkloadCase {
    Case(TaggedNotes(parameters, generator: generator), count: parameters[.count], limit: parameters[.limit])
  }

  final class Case: WorkloadCase {
    let data: TaggedNotes
    let limit: Int
    /// The tag each query lists: round the tags, 1, 2, …
    let tags: [Int64]
    let expected: [Int64: TagAnswers]
    let fingerprint: String

    init(_ data: TaggedNotes, count: Int, limit: Int) {
      self.data = data
      self.limit = limit
      tags = (0..<count).map { Int64(1 + $0 % data.tagCount) }
      let table = NoteTagTable(data.notes)
      let byUID = Dictionary(uniqueKeysWithValues: data.articles.map { ($0.uid, $0) })
      expected = Dictionary(
        uniqueKeysWithValues: Set(tags).map {
          ($0, data.expected(table, tag: $0, limit: limit, articles: byUID))
        })
      var hash = FNV1a()
      hash.combine(data.fingerprint)
      hash.combine(Int64(count))
      hash.combine(Int64(limit))
      fingerprint = hash.hex
    }

    func prepare(_ run: Repetition) throws -> any TaggingStore { try data.prepare(run) }

    func measure(_ store: any TaggingStore, _ run: Repetition) throws -> Measured<[TagAnswers]> {
      let limit = limit
      var answers: [TagAnswers] = []
      answers.reserveCapacity(tags.count)
      try run.latencies.timeEach(tags) { tag in answers.append(try TagAnswers(store, tag: tag, limit: limit)) }
      return Measured(ops: tags.count, answers)
    }

    func verify(_ answers: [TagAnswers], _: any TaggingStore, _ run: Repetition) throws -> String {
      var hash = FNV1a()
      for (index, answer) in answers.enumerated() {
        try answer.check(against: expected[answer.tag]!, "query \(index)")
        answer.combine(into: &hash)
      }
      return hash.hex
    }
  }
}
